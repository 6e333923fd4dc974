#include "io/r1cs_file.hpp"

#include "ff/encoding.hpp"
#include "io/binfile.hpp"
#include "io/binwriter.hpp"

namespace cuzk::io {

namespace {

constexpr std::uint32_t kR1csVersion = 1;

template <class Curve>
void read_lc(Cursor& c, std::uint32_t n_wires, std::uint32_t constraint, char which,
             r1cs::LinearCombination<Curve>& lc) {
  using Fr = typename Curve::Fr;
  const std::string where = "constraint " + std::to_string(constraint) + " " + which;
  const std::uint64_t at = c.offset();
  const std::uint32_t n = c.u32("nTerms");
  // Check the whole term list fits before allocating: a hostile nTerms must not trigger a huge reserve.
  const std::uint64_t term = 4 + Fr::bytes();
  if (std::uint64_t(n) * term > c.remaining())
    c.fail_at(at, "truncated: " + where + " declares " + std::to_string(n) + " terms (" +
                      std::to_string(std::uint64_t(n) * term) + " bytes) but only " +
                      std::to_string(c.remaining()) + " bytes remain in the section");
  lc.reserve(n);
  for (std::uint32_t k = 0; k < n; ++k) {
    const std::uint64_t t_at = c.offset();
    const std::uint32_t wire = c.u32("wire");
    const auto v = ff::from_bytes_le<Fr>(c.take(Fr::bytes(), "coefficient"));
    if (wire >= n_wires)
      c.fail_at(t_at, where + " term " + std::to_string(k) + ": wire " + std::to_string(wire) + " ≥ nWires " +
                          std::to_string(n_wires));
    if (!v) c.fail_at(t_at + 4, where + " term " + std::to_string(k) + ": coefficient is not reduced (≥ r)");
    lc.push_back({wire, *v});
  }
}

template <class Curve>
void write_lc(BinWriter& w, const r1cs::LinearCombination<Curve>& lc) {
  using Fr = typename Curve::Fr;
  w.u32(static_cast<std::uint32_t>(lc.size()));
  std::uint8_t buf[Fr::bytes()];
  for (const auto& t : lc) {
    w.u32(t.wire);
    ff::to_bytes_le(t.coeff, buf);
    w.bytes(buf, sizeof buf);
  }
}

}  // namespace

template <class Curve>
r1cs::ConstraintSystem<Curve> read_r1cs(const std::string& path) {
  BinFile f(path, "r1cs");
  f.require_version(kR1csVersion);
  for (std::uint32_t id : {4u, 5u})
    if (f.find(id))
      f.fail("has custom gates (section " + std::to_string(id) +
             "), which only PLONK supports; cuzk needs a plain R1CS");

  Cursor h = f.section(1, "header");
  const CurveId curve = read_prime_field(h, PrimeKind::scalar, "prime");
  if (curve != curve_id_of<Curve>)
    f.fail("this is a " + std::string(curve_display_name(curve)) + " (" + std::string(curve_name(curve)) +
           ") circuit, but a " + Curve::display_name + " circuit was expected");
  r1cs::ConstraintSystem<Curve> cs;
  const std::uint64_t wires_at = h.offset();
  cs.n_wires = h.u32("nWires");
  cs.n_pub_out = h.u32("nPubOut");
  cs.n_pub_in = h.u32("nPubIn");
  cs.n_prv_in = h.u32("nPrvIn");
  cs.n_labels = h.u64("nLabels");
  const std::uint32_t n_constraints = h.u32("nConstraints");
  h.require_end();
  // Wire 0 is the constant 1, followed by the outputs and inputs.
  if (std::uint64_t(cs.n_pub_out) + cs.n_pub_in + cs.n_prv_in + 1 > cs.n_wires)
    h.fail_at(wires_at,
              "nWires = " + std::to_string(cs.n_wires) + " is less than 1 + nPubOut + nPubIn + nPrvIn");

  Cursor c = f.section(2, "constraints");
  // Each constraint takes at least 12 bytes (three term counts), which bounds the allocation.
  if (std::uint64_t(n_constraints) * 12 > c.size())
    c.fail_at(c.offset_of(0), "truncated: " + std::to_string(n_constraints) + " constraints need at least " +
                                  std::to_string(std::uint64_t(n_constraints) * 12) + " bytes, section has " +
                                  std::to_string(c.size()));
  cs.constraints.resize(n_constraints);
  for (std::uint32_t i = 0; i < n_constraints; ++i) {
    read_lc(c, cs.n_wires, i, 'A', cs.constraints[i].a);
    read_lc(c, cs.n_wires, i, 'B', cs.constraints[i].b);
    read_lc(c, cs.n_wires, i, 'C', cs.constraints[i].c);
  }
  c.require_end();
  return cs;
}

template <class Curve>
void write_r1cs(const std::string& path, const r1cs::ConstraintSystem<Curve>& cs) {
  using Fr = typename Curve::Fr;
  if (cs.constraints.size() > UINT32_MAX)
    throw std::invalid_argument("write_r1cs: more than 2^32 − 1 constraints");
  BinWriter w(path, "r1cs", kR1csVersion, 3);
  w.begin_section(1);
  const auto r = Fr::modulus();
  w.u32(static_cast<std::uint32_t>(Fr::bytes()));
  w.bytes(r.v, Fr::bytes());
  w.u32(cs.n_wires);
  w.u32(cs.n_pub_out);
  w.u32(cs.n_pub_in);
  w.u32(cs.n_prv_in);
  w.u64(cs.n_labels);
  w.u32(static_cast<std::uint32_t>(cs.constraints.size()));
  w.end_section();

  w.begin_section(2);
  for (const auto& con : cs.constraints) {
    write_lc<Curve>(w, con.a);
    write_lc<Curve>(w, con.b);
    write_lc<Curve>(w, con.c);
  }
  w.end_section();

  w.begin_section(3);
  for (std::uint64_t i = 0; i < cs.n_wires; ++i) w.u64(i);
  w.end_section();
  w.finish();
}

template r1cs::ConstraintSystem<Bn254> read_r1cs<Bn254>(const std::string&);
template r1cs::ConstraintSystem<Bls12_381> read_r1cs<Bls12_381>(const std::string&);
template void write_r1cs<Bn254>(const std::string&, const r1cs::ConstraintSystem<Bn254>&);
template void write_r1cs<Bls12_381>(const std::string&, const r1cs::ConstraintSystem<Bls12_381>&);

}  // namespace cuzk::io
