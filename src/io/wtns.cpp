#include "io/wtns.hpp"

#include "ff/encoding.hpp"
#include "io/binfile.hpp"
#include "io/binwriter.hpp"
#include "io/parallel_decode.hpp"

namespace cuzk::io {

namespace {

constexpr std::uint32_t kWtnsVersion = 2;

// The header, checked (version, curve, section size); the cursor is left on the values.
template <class Curve>
std::pair<std::uint32_t, Cursor> open_values(const BinFile& f) {
  using Fr = typename Curve::Fr;
  f.require_version(kWtnsVersion);

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
  return {n, d};
}

// Values decode in parallel blocks (a PoRep partition's witness is 130 M values); the first value that is
// not reduced is reported.
template <class Curve>
std::vector<typename Curve::Fr> parse_wtns(const BinFile& f) {
  using Fr = typename Curve::Fr;
  auto [n, d] = open_values<Curve>(f);
  const std::uint64_t base = d.offset();
  const std::uint8_t* bytes = d.take(std::uint64_t(n) * Fr::bytes(), "witness values");
  std::vector<Fr> w(n);
  const std::uint64_t bad = decode_parallel(n, [&](std::uint64_t i) {
    const auto v = ff::from_bytes_le<Fr>(bytes + i * Fr::bytes());
    if (v) w[i] = *v;
    return v.has_value();
  });
  if (bad < n)
    d.fail_at(base + bad * Fr::bytes(), "witness value " + std::to_string(bad) + " is not reduced (≥ r)");
  return w;
}

}  // namespace

template <class Curve>
std::vector<typename Curve::Fr> read_wtns(const std::string& path) {
  return parse_wtns<Curve>(BinFile(path, "wtns"));
}

template <class Curve>
WtnsSummary<Curve> peek_wtns(const std::string& path) {
  using Fr = typename Curve::Fr;
  const BinFile f(path, "wtns");
  auto [n, d] = open_values<Curve>(f);
  WtnsSummary<Curve> s{n, Fr::zero()};
  if (n > 0) {
    const std::uint64_t at = d.offset();
    const auto v = ff::from_bytes_le<Fr>(d.take(Fr::bytes(), "witness value"));
    if (!v) d.fail_at(at, "witness value 0 is not reduced (≥ r)");
    s.first = *v;
  }
  return s;
}

template <class Curve>
std::vector<typename Curve::Fr> read_wtns_bytes(std::vector<std::uint8_t> bytes, const std::string& name) {
  return parse_wtns<Curve>(BinFile(name, MappedFile::from_bytes(std::move(bytes)), {"wtns"}));
}

template <class Curve>
void write_wtns(const std::string& path, std::span<const typename Curve::Fr> witness) {
  using Fr = typename Curve::Fr;
  if (witness.size() > UINT32_MAX) throw std::invalid_argument("write_wtns: more than 2^32 − 1 values");
  BinWriter w(path, "wtns", kWtnsVersion, 2);
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
template WtnsSummary<Bn254> peek_wtns<Bn254>(const std::string&);
template WtnsSummary<Bls12_381> peek_wtns<Bls12_381>(const std::string&);
template std::vector<Bn254::Fr> read_wtns_bytes<Bn254>(std::vector<std::uint8_t>, const std::string&);
template std::vector<Bls12_381::Fr> read_wtns_bytes<Bls12_381>(std::vector<std::uint8_t>, const std::string&);
template void write_wtns<Bn254>(const std::string&, std::span<const Bn254::Fr>);
template void write_wtns<Bls12_381>(const std::string&, std::span<const Bls12_381::Fr>);

}  // namespace cuzk::io
