#include "io/wtns.hpp"

#include "ff/encoding.hpp"
#include "io/binfile.hpp"
#include "io/binwriter.hpp"

namespace cuzk::io {

namespace {

constexpr std::uint32_t kVersion = 2;

template <class Curve>
std::vector<typename Curve::Fr> parse_wtns(const BinFile& f) {
  using Fr = typename Curve::Fr;
  f.require_version(kVersion);

  Cursor h = f.section(1, "header");
  const CurveId curve = read_prime_field(h, PrimeKind::scalar, "prime");
  if (curve != curve_id_of<Curve>)
    f.fail("this is a " + std::string(curve_display_name(curve)) + " (" + std::string(curve_name(curve)) +
           ") witness, but a " + Curve::display_name + " witness was expected");
  const std::uint32_t n = h.u32("nWitness");
  h.require_end();

  Cursor d = f.section(2, "witness values");
  d.require_size(std::uint64_t(n) * Fr::bytes(),
                 "nWitness " + std::to_string(n) + " × " + std::to_string(Fr::bytes()));
  std::vector<Fr> w(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint64_t at = d.offset();
    const auto v = ff::from_bytes_le<Fr>(d.take(Fr::bytes(), "witness value"));
    if (!v) d.fail_at(at, "witness value " + std::to_string(i) + " is not reduced (≥ r)");
    w[i] = *v;
  }
  return w;
}

}  // namespace

template <class Curve>
std::vector<typename Curve::Fr> read_wtns(const std::string& path) {
  return parse_wtns<Curve>(BinFile(path, "wtns"));
}

template <class Curve>
std::vector<typename Curve::Fr> read_wtns_bytes(std::vector<std::uint8_t> bytes, const std::string& name) {
  return parse_wtns<Curve>(BinFile(name, MappedFile::from_bytes(std::move(bytes)), {"wtns"}));
}

template <class Curve>
void write_wtns(const std::string& path, std::span<const typename Curve::Fr> witness) {
  using Fr = typename Curve::Fr;
  if (witness.size() > UINT32_MAX) throw std::invalid_argument("write_wtns: more than 2^32 − 1 values");
  BinWriter w(path, "wtns", kVersion, 2);
  w.begin_section(1);
  const auto r = Fr::modulus();
  w.u32(static_cast<std::uint32_t>(Fr::bytes()));
  w.bytes(r.v, Fr::bytes());
  w.u32(static_cast<std::uint32_t>(witness.size()));
  w.end_section();
  w.begin_section(2);
  std::uint8_t buf[Fr::bytes()];
  for (const Fr& x : witness) {
    ff::to_bytes_le(x, buf);
    w.bytes(buf, sizeof buf);
  }
  w.end_section();
  w.finish();
}

template std::vector<Bn254::Fr> read_wtns<Bn254>(const std::string&);
template std::vector<Bls12_381::Fr> read_wtns<Bls12_381>(const std::string&);
template std::vector<Bn254::Fr> read_wtns_bytes<Bn254>(std::vector<std::uint8_t>, const std::string&);
template std::vector<Bls12_381::Fr> read_wtns_bytes<Bls12_381>(std::vector<std::uint8_t>, const std::string&);
template void write_wtns<Bn254>(const std::string&, std::span<const Bn254::Fr>);
template void write_wtns<Bls12_381>(const std::string&, std::span<const Bls12_381::Fr>);

}  // namespace cuzk::io
