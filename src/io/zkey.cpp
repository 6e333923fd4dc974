#include "io/zkey.hpp"

#include <tbb/parallel_invoke.h>

#include <bit>
#include <cstring>
#include <exception>
#include <sstream>

#include "ff/encoding.hpp"
#include "io/binwriter.hpp"
#include "io/checked_math.hpp"
#include "io/parallel_decode.hpp"
#include "io/point_codec.hpp"

namespace cuzk::io {

namespace {

constexpr std::uint32_t kZkeyVersion = 1;
constexpr std::uint32_t kGroth16 = 1;
constexpr std::uint32_t kCoefHeader = 12;  // u32 matrix, u32 constraint, u32 signal
constexpr std::uint32_t kN8r = 32;         // both curves' r fits 32 bytes
constexpr std::size_t kCsHashBytes = 64;

const char* section_name(std::uint32_t id) {
  switch (id) {
    case 1:
      return "protocol";
    case 2:
      return "Groth16 header";
    case 3:
      return "IC points";
    case 4:
      return "coefficients";
    case 5:
      return "A points";
    case 6:
      return "B1 points";
    case 7:
      return "B2 points";
    case 8:
      return "C points";
    case 9:
      return "H points";
    case 10:
      return "contributions";
    default:
      return "unknown";
  }
}

const char* protocol_name(std::uint32_t p) {
  switch (p) {
    case 1:
      return "groth16";
    case 2:
      return "plonk";
    case 10:
      return "fflonk";
    default:
      return "unknown protocol";
  }
}

// What sections 1 and 2 say before any point: enough to know every section's size.
struct Header {
  CurveId curve;
  std::uint32_t n_vars, n_public, domain_size;
  std::uint64_t g1, g2;  // bytes per LEM point
};

// Reads section 1 and the scalar part of section 2, and leaves `s2` positioned at α1.
Header read_header(const BinFile& f, Cursor& s2) {
  f.require_version(kZkeyVersion);
  Cursor s1 = f.section(1, section_name(1));
  s1.require_size(4, "4 (u32 protocol)");
  const std::uint32_t protocol = s1.u32("protocol");
  if (protocol != kGroth16)
    s1.fail_at(s1.offset_of(0), "protocol " + std::to_string(protocol) + " (" + protocol_name(protocol) +
                                    ") is not supported: cuzk proves Groth16 keys only (protocol 1)");

  Header h{};
  h.curve = read_prime_field(s2, PrimeKind::base, "q");
  const CurveId r_curve = read_prime_field(s2, PrimeKind::scalar, "r");
  if (r_curve != h.curve)
    s2.fail("r is the scalar field of " + std::string(curve_name(r_curve)) + " but q belongs to " +
            std::string(curve_name(h.curve)));
  const std::uint64_t vars_at = s2.offset();
  h.n_vars = s2.u32("nVars");
  h.n_public = s2.u32("nPublic");
  h.domain_size = s2.u32("domainSize");
  // Signal 0 is the constant 1, then the public signals: nVars ≥ nPublic + 1 (in u64: nPublic may be 2^32−1).
  if (std::uint64_t(h.n_public) + 1 > h.n_vars)
    s2.fail_at(vars_at, "nVars = " + std::to_string(h.n_vars) +
                            " but nPublic = " + std::to_string(h.n_public) + " (need nVars ≥ nPublic + 1)");
  if (!std::has_single_bit(h.domain_size))
    s2.fail_at(vars_at + 8, "domainSize = " + std::to_string(h.domain_size) + " is not a power of two");

  const std::uint64_t n8q = with_curve(h.curve, []<class C>() { return std::uint64_t(C::Fq::bytes()); });
  h.g1 = 2 * n8q;
  h.g2 = 4 * n8q;
  s2.require_size(4 + n8q + 4 + kN8r + 12 + 3 * h.g1 + 3 * h.g2,
                  "n8q, q, n8r, r, nVars, nPublic, domainSize, 3 G1 and 3 G2 points");
  return h;
}

// Expected byte size of a point section, with a readable formula for messages.
struct Expected {
  std::uint64_t count, point_size;
  std::string count_expr;
};
Expected point_section(const Header& h, std::uint32_t id) {
  switch (id) {
    case 3:
      return {std::uint64_t(h.n_public) + 1, h.g1, "(nPublic + 1)"};
    case 5:
      return {h.n_vars, h.g1, "nVars"};
    case 6:
      return {h.n_vars, h.g1, "nVars"};
    case 7:
      return {h.n_vars, h.g2, "nVars"};
    case 8:
      return {std::uint64_t(h.n_vars) - h.n_public - 1, h.g1, "(nVars − nPublic − 1)"};
    default:
      return {h.domain_size, h.g1, "domainSize"};  // 9
  }
}

void require_point_section_size(const Cursor& c, const Expected& e) {
  // count < 2^33 and point_size ≤ 192, so the product cannot overflow; checked anyway for uniformity.
  const auto bytes = checked_mul(e.count, e.point_size);
  if (!bytes) c.fail_at(c.offset_of(0), "point count overflows");
  c.require_size(*bytes, e.count_expr + " " + std::to_string(e.count) + " × " + std::to_string(e.point_size));
}

std::uint32_t read_coef_count(Cursor& c) {
  const std::uint32_t n = c.u32("nCoefs");
  c.require_size(4 + std::uint64_t(n) * (kCoefHeader + kN8r), "4 + nCoefs " + std::to_string(n) + " × 44");
  return n;
}

template <class A>
void read_point(Cursor& c, A& out, const char* what) {
  const std::uint64_t at = c.offset();
  const PointStatus st = decode_lem(c.take(lem_size<A>, what), out);
  if (st != PointStatus::ok) c.fail_at(at, std::string(what) + ": " + describe(st));
}

template <class A>
HostArray<A> read_points(const BinFile& f, const Header& h, std::uint32_t id, const char* point_name,
                         ArraySource* arrays = nullptr) {
  Cursor c = f.section(id, section_name(id));
  const Expected e = point_section(h, id);
  require_point_section_size(c, e);
  auto v = HostArray<A>::make(e.count, arrays);
  const auto res = decode_lem_array(c.take(c.size(), "points"), e.count, v.data());
  if (res.status != PointStatus::ok)
    c.fail_at(c.offset_of(res.bad_index * lem_size<A>),
              std::string(point_name) + "[" + std::to_string(res.bad_index) + "]: " + describe(res.status));
  return v;
}

// Coefficient record `rec` (u32 matrix, u32 constraint, u32 signal, the value as v·R² mod r) into `e`. On a
// bad record, false; with `why` given, also what is wrong and the offset of the field within the record.
template <class Curve>
bool decode_coef(const std::uint8_t* rec, const Header& h, groth16::MatrixEntry<Curve>& e,
                 std::uint32_t* field = nullptr, std::string* why = nullptr) {
  using Fr = typename Curve::Fr;
  std::memcpy(&e.matrix, rec, 4);
  std::memcpy(&e.constraint, rec + 4, 4);
  std::memcpy(&e.signal, rec + 8, 4);
  const auto v = ff::from_mont_bytes_le<Fr>(rec + kCoefHeader);
  auto bad = [&](std::uint32_t at, auto&& what) {
    if (field) *field = at;
    if (why) *why = what();
    return false;
  };
  if (e.matrix > 1)
    return bad(0, [&] { return "matrix " + std::to_string(e.matrix) + ", expected 0 (A) or 1 (B)"; });
  if (e.constraint >= h.domain_size)
    return bad(4, [&] {
      return "constraint " + std::to_string(e.constraint) + " ≥ domainSize " + std::to_string(h.domain_size);
    });
  if (e.signal >= h.n_vars)
    return bad(8,
               [&] { return "signal " + std::to_string(e.signal) + " ≥ nVars " + std::to_string(h.n_vars); });
  if (!v) return bad(kCoefHeader, [] { return std::string("value is not reduced (≥ r)"); });
  // from_raw(s) has Montgomery limbs s, i.e. value s·R⁻¹ = v·R; one more Montgomery product with raw 1
  // divides by R again, giving the element whose value is v.
  e.value = *v * Fr::from_raw(ff::bigint_from_u64<Fr::N>(1));
  return true;
}

// Decoded in parallel (hundreds of millions at PoRep scale); the first bad record (lowest index) is reported.
template <class Curve>
HostArray<groth16::MatrixEntry<Curve>> read_coefs(const BinFile& f, const Header& h, ArraySource* arrays) {
  static_assert(Curve::Fr::bytes() == kN8r);
  constexpr std::uint64_t kRecord = kCoefHeader + kN8r;
  Cursor c = f.section(4, section_name(4));
  const std::uint32_t n = read_coef_count(c);
  const std::uint64_t first = c.offset();
  const std::uint8_t* base = c.take(n * kRecord, "coefficients");
  auto out = HostArray<groth16::MatrixEntry<Curve>>::make(n, arrays);
  const std::uint64_t bad =
      decode_parallel(n, [&](std::uint64_t i) { return decode_coef<Curve>(base + i * kRecord, h, out[i]); });
  if (bad < n) {
    std::uint32_t field = 0;
    std::string why;
    groth16::MatrixEntry<Curve> e;
    decode_coef<Curve>(base + bad * kRecord, h, e, &field, &why);
    c.fail_at(first + bad * kRecord + field, "coefficient " + std::to_string(bad) + ": " + why);
  }
  return out;
}

template <class Curve>
void require_consistent(const groth16::ProvingKey<Curve>& pk) {
  auto bad = [](const std::string& what) { throw std::invalid_argument("write_zkey: " + what); };
  if (std::uint64_t(pk.n_public) + 1 > pk.n_vars) bad("nVars < nPublic + 1");
  if (!std::has_single_bit(pk.domain_size)) bad("domainSize is not a power of two");
  if (pk.ic.size() != std::uint64_t(pk.n_public) + 1) bad("IC must have nPublic + 1 points");
  if (pk.a.size() != pk.n_vars || pk.b1.size() != pk.n_vars || pk.b2.size() != pk.n_vars)
    bad("A, B1 and B2 must have nVars points");
  if (pk.c.size() != std::uint64_t(pk.n_vars) - pk.n_public - 1)
    bad("C must have nVars − nPublic − 1 points");
  if (pk.h.size() != pk.domain_size) bad("H must have domainSize points");
  if (pk.coefs.size() > UINT32_MAX) bad("more than 2^32 − 1 coefficients");
  for (const auto& e : pk.coefs)
    if (e.matrix > 1 || e.constraint >= pk.domain_size || e.signal >= pk.n_vars)
      bad("coefficient with matrix > 1, constraint ≥ domainSize or signal ≥ nVars");
}

template <class F>
void write_modulus(BinWriter& w) {
  const auto m = F::modulus();
  w.u32(static_cast<std::uint32_t>(F::bytes()));
  w.bytes(m.v, F::bytes());
}

template <class V>
void write_points(BinWriter& w, const V& v) {
  // Affine is byte-identical to LEM, so whole arrays go out in one write.
  w.bytes(v.data(), v.size() * sizeof(v[0]));
}

}  // namespace

template <class Curve>
groth16::ProvingKey<Curve> read_zkey(const std::string& path) {
  return read_zkey<Curve>(path, MappedFile(path));
}

template <class Curve>
groth16::ProvingKey<Curve> read_zkey(const std::string& name, MappedFile file, bool verifying_only,
                                     ArraySource* arrays) {
  using G1 = typename Curve::G1;
  using G2 = typename Curve::G2;
  BinFile f(name, std::move(file), {"zkey"});
  Cursor s2 = f.section(2, section_name(2));
  const Header h = read_header(f, s2);
  if (h.curve != curve_id_of<Curve>)
    f.fail("this is a " + std::string(curve_display_name(h.curve)) + " (" + std::string(curve_name(h.curve)) +
           ") key, but a " + Curve::display_name + " key was expected");

  groth16::ProvingKey<Curve> pk;
  pk.n_vars = h.n_vars;
  pk.n_public = h.n_public;
  pk.domain_size = h.domain_size;
  read_point(s2, pk.alpha1, "alpha1");
  read_point(s2, pk.beta1, "beta1");
  read_point(s2, pk.beta2, "beta2");
  read_point(s2, pk.gamma2, "gamma2");
  read_point(s2, pk.delta1, "delta1");
  read_point(s2, pk.delta2, "delta2");

  pk.ic = read_points<G1>(f, h, 3, "IC").to_vector();
  if (verifying_only) return pk;
  // The sections at once: sizing a vector zeroes it on one core, and one after another that took longer than
  // the decoding (in parallel within each) at PoRep scale. The error reported is still the first section's
  // in file order.
  std::exception_ptr failed[6];
  auto section = [&](int k, auto&& read) {
    return [&, k, read] {
      try {
        read();
      } catch (...) {
        failed[k] = std::current_exception();
      }
    };
  };
  tbb::parallel_invoke(section(0, [&] { pk.coefs = read_coefs<Curve>(f, h, arrays); }),
                       section(1, [&] { pk.a = read_points<G1>(f, h, 5, "A", arrays); }),
                       section(2, [&] { pk.b1 = read_points<G1>(f, h, 6, "B1", arrays); }),
                       section(3, [&] { pk.b2 = read_points<G2>(f, h, 7, "B2", arrays); }),
                       section(4, [&] { pk.c = read_points<G1>(f, h, 8, "C", arrays); }),
                       section(5, [&] { pk.h = read_points<G1>(f, h, 9, "H", arrays); }));
  for (const auto& e : failed)
    if (e) std::rethrow_exception(e);
  return pk;
}

template <class Curve>
void write_zkey(const std::string& path, const groth16::ProvingKey<Curve>& pk) {
  using Fr = typename Curve::Fr;
  require_consistent(pk);
  BinWriter w(path, "zkey", kZkeyVersion, 10);

  w.begin_section(1);
  w.u32(kGroth16);
  w.end_section();

  w.begin_section(2);
  write_modulus<typename Curve::Fq>(w);
  write_modulus<Fr>(w);
  w.u32(pk.n_vars);
  w.u32(pk.n_public);
  w.u32(pk.domain_size);
  w.bytes(&pk.alpha1, sizeof pk.alpha1);
  w.bytes(&pk.beta1, sizeof pk.beta1);
  w.bytes(&pk.beta2, sizeof pk.beta2);
  w.bytes(&pk.gamma2, sizeof pk.gamma2);
  w.bytes(&pk.delta1, sizeof pk.delta1);
  w.bytes(&pk.delta2, sizeof pk.delta2);
  w.end_section();

  w.begin_section(3);
  write_points(w, pk.ic);
  w.end_section();

  w.begin_section(4);
  w.u32(static_cast<std::uint32_t>(pk.coefs.size()));
  // v (Montgomery limbs v·R) times raw R² under Montgomery multiplication gives limbs v·R², the stored form.
  const Fr to_stored = Fr::from_raw(Fr::R2());
  for (const auto& e : pk.coefs) {
    w.u32(e.matrix);
    w.u32(e.constraint);
    w.u32(e.signal);
    const Fr s = e.value * to_stored;
    w.bytes(s.l, Fr::bytes());
  }
  w.end_section();

  w.begin_section(5);
  write_points(w, pk.a);
  w.end_section();
  w.begin_section(6);
  write_points(w, pk.b1);
  w.end_section();
  w.begin_section(7);
  write_points(w, pk.b2);
  w.end_section();
  w.begin_section(8);
  write_points(w, pk.c);
  w.end_section();
  w.begin_section(9);
  write_points(w, pk.h);
  w.end_section();

  // csHash (unknown to us, zero) and no contributions. snarkjs' prover ignores this section.
  w.begin_section(10);
  w.zeros(kCsHashBytes);
  w.u32(0);
  w.end_section();
  w.finish();
}

ZkeyInfo describe_zkey(const std::string& path) {
  BinFile f(path, "zkey");
  Cursor s2 = f.section(2, section_name(2));
  const Header h = read_header(f, s2);
  ZkeyInfo info;
  info.path = path;
  info.curve = h.curve;
  info.n_vars = h.n_vars;
  info.n_public = h.n_public;
  info.domain_size = h.domain_size;
  info.sections = f.sections();
  for (std::uint32_t id : {3u, 5u, 6u, 7u, 8u, 9u}) {
    Cursor c = f.section(id, section_name(id));
    require_point_section_size(c, point_section(h, id));
  }
  Cursor s4 = f.section(4, section_name(4));
  info.n_coefs = read_coef_count(s4);
  if (const SectionInfo* s10 = f.find(10)) {
    Cursor c = f.cursor(*s10, section_name(10));
    if (c.size() >= kCsHashBytes + 4) {
      c.take(kCsHashBytes, "csHash");
      info.n_contributions = c.u32("nContributions");
    }
  }
  return info;
}

std::string ZkeyInfo::to_string() const {
  std::ostringstream o;
  o << "file:          " << path << "\n"
    << "protocol:      groth16\n"
    << "curve:         " << curve_name(curve) << " (" << curve_display_name(curve) << ")\n"
    << "nVars:         " << n_vars << "\n"
    << "nPublic:       " << n_public << "\n"
    << "domainSize:    " << domain_size << " (2^" << std::countr_zero(domain_size) << ")\n"
    << "nCoefs:        " << n_coefs << "\n"
    << "contributions: " << n_contributions << "\n"
    << "sections (file order):\n";
  for (const auto& s : sections)
    o << "  " << s.id << " " << section_name(s.id) << ": " << s.size << " bytes at offset " << s.offset
      << "\n";
  return o.str();
}

template groth16::ProvingKey<Bn254> read_zkey<Bn254>(const std::string&);
template groth16::ProvingKey<Bls12_381> read_zkey<Bls12_381>(const std::string&);
template groth16::ProvingKey<Bn254> read_zkey<Bn254>(const std::string&, MappedFile, bool, ArraySource*);
template groth16::ProvingKey<Bls12_381> read_zkey<Bls12_381>(const std::string&, MappedFile, bool, ArraySource*);
template void write_zkey<Bn254>(const std::string&, const groth16::ProvingKey<Bn254>&);
template void write_zkey<Bls12_381>(const std::string&, const groth16::ProvingKey<Bls12_381>&);

}  // namespace cuzk::io
