#include "groth16/prover.hpp"

#include <tbb/parallel_for.h>

#include <string>

#include "ec/bls12_381.hpp"
#include "ec/bn254.hpp"
#include "ec/scalar_mul.hpp"
#include "msm/cpu.hpp"
#include "msm/plain_scalars.hpp"
#include "ntt/cpu.hpp"
#include "poly/domain.hpp"

namespace cuzk::groth16 {

template <class Curve>
void check_witness_shape(const ProvingKey<Curve>& pk, std::size_t size, const typename Curve::Fr& first) {
  if (size != pk.n_vars)
    throw ProveError("the witness has " + std::to_string(size) + " values but the circuit has " +
                     std::to_string(pk.n_vars) + " signals: is it a witness for another circuit?");
  if (size == 0 || !first.is_one())
    throw ProveError("witness[0] must be 1 (the constant signal); this is not a circom witness");
}

template <class Curve>
void check_prove_inputs(const ProvingKey<Curve>& pk, const std::vector<typename Curve::Fr>& witness) {
  check_witness_shape(pk, witness.size(), witness.empty() ? Curve::Fr::zero() : witness[0]);
  std::size_t n = pk.domain_size;
  if (n == 0 || (n & (n - 1)) != 0)
    throw ProveError("the proving key's domain size " + std::to_string(n) + " is not a power of two");
  if (pk.c.size() + pk.n_public + 1 != pk.n_vars || pk.a.size() != pk.n_vars || pk.b1.size() != pk.n_vars ||
      pk.b2.size() != pk.n_vars || pk.h.size() != n || pk.ic.size() != pk.n_public + 1)
    throw ProveError("the proving key's point arrays do not match nVars/nPublic/domainSize");
}

template <class Curve>
CoefficientRows coefficient_rows(const ProvingKey<Curve>& pk) {
  const std::size_t n = pk.domain_size;
  CoefficientRows rows{std::vector<std::uint32_t>(2 * n + 1, 0), std::vector<std::uint32_t>(pk.coefs.size())};
  auto& start = rows.start;
  for (const auto& e : pk.coefs) ++start[e.matrix * n + e.constraint + 1];
  for (std::size_t i = 1; i < start.size(); ++i) start[i] += start[i - 1];
  std::vector<std::uint32_t> fill(start.begin(), start.end() - 1);
  for (std::size_t i = 0; i < pk.coefs.size(); ++i) {
    const auto& e = pk.coefs[i];
    rows.order[fill[e.matrix * n + e.constraint]++] = static_cast<std::uint32_t>(i);
  }
  return rows;
}

template <class Curve>
AbcEvaluations<Curve> compute_abc(const ProvingKey<Curve>& pk,
                                  const std::vector<typename Curve::Fr>& witness) {
  using Fr = typename Curve::Fr;
  const std::size_t n = pk.domain_size;
  AbcEvaluations<Curve> out{std::vector<Fr>(n, Fr::zero()), std::vector<Fr>(n, Fr::zero()),
                            std::vector<Fr>(n)};
  auto &a = out.a, &b = out.b, &c = out.c;
  // Rows are independent: evaluate them in parallel.
  const CoefficientRows rows = coefficient_rows(pk);
  const auto &start = rows.start, &order = rows.order;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 1024), [&](const auto& range) {
    for (std::size_t row = range.begin(); row != range.end(); ++row) {
      Fr sa = Fr::zero(), sb = Fr::zero();
      for (std::uint32_t k = start[row]; k < start[row + 1]; ++k) {
        const auto& e = pk.coefs[order[k]];
        sa += e.value * witness[e.signal];
      }
      for (std::uint32_t k = start[n + row]; k < start[n + row + 1]; ++k) {
        const auto& e = pk.coefs[order[k]];
        sb += e.value * witness[e.signal];
      }
      a[row] = sa;
      b[row] = sb;
      c[row] = sa * sb;
    }
  });
  return out;
}

template <class Curve>
std::vector<typename Curve::Fr> compute_h(const ProvingKey<Curve>& pk,
                                          const std::vector<typename Curve::Fr>& witness,
                                          StageTimings* timings) {
  using Fr = typename Curve::Fr;
  const std::size_t n = pk.domain_size;
  AbcEvaluations<Curve> abc;
  {
    StageTimer t(timings, "abc");
    abc = compute_abc(pk, witness);
  }
  StageTimer t(timings, "h");
  poly::Domain<Fr> domain(__builtin_ctzll(n));
  const Fr shift = poly::root_of_unity<Fr>(domain.log_n + 1);  // ω_2N: odd coset of the 2N domain
  for (std::vector<Fr>* v : {&abc.a, &abc.b, &abc.c}) {
    ntt::inverse(v->data(), domain);
    ntt::coset_forward(v->data(), domain, shift);
  }
  auto& a = abc.a;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 4096), [&](const auto& range) {
    for (std::size_t i = range.begin(); i != range.end(); ++i) a[i] = a[i] * abc.b[i] - abc.c[i];
  });
  return std::move(a);
}

template <class Curve>
Proof<Curve> assemble(const ProvingKey<Curve>& pk, const MsmResults<Curve>& m, const typename Curve::Fr& r,
                      const typename Curve::Fr& s) {
  return assemble<Curve>(BlindingPoints<Curve>{pk.alpha1, pk.beta1, pk.delta1, pk.beta2, pk.delta2}, m, r, s);
}

template <class Curve>
Proof<Curve> assemble(const BlindingPoints<Curve>& pk, const MsmResults<Curve>& m,
                      const typename Curve::Fr& r, const typename Curve::Fr& s) {
  const auto r_int = r.to_int(), s_int = s.to_int(), rs_int = (r * s).to_int();
  using ec::scalar_mul;
  auto pi_a = m.a.add_affine(pk.alpha1) + scalar_mul(pk.delta1, r_int);
  auto pi_b = m.b2.add_affine(pk.beta2) + scalar_mul(pk.delta2, s_int);
  auto b1 = m.b1.add_affine(pk.beta1) + scalar_mul(pk.delta1, s_int);
  auto pi_c = m.c + scalar_mul(pi_a, s_int) + scalar_mul(b1, r_int) - scalar_mul(pk.delta1, rs_int);
  return {pi_a.to_affine(), pi_b.to_affine(), pi_c.to_affine()};
}

namespace {
void record_split(StageTimings* timings, const msm::SplitStats& s) {
  if (!timings) return;
  timings->add_detail("batch_add", s.batch_add_ms);
  timings->add_detail("tail_msm", s.tail_ms);
}
}  // namespace

template <class Curve>
Proof<Curve> prove(const ProvingKey<Curve>& pk, const std::vector<typename Curve::Fr>& witness,
                   const typename Curve::Fr& r, const typename Curve::Fr& s, StageTimings* timings) {
  using G1 = typename Curve::G1Cfg;
  using G2 = typename Curve::G2Cfg;
  check_prove_inputs(pk, witness);

  std::vector<typename Curve::Fr> h = compute_h(pk, witness, timings);

  std::vector<ff::BigInt<Curve::Fr::N>> w_plain, h_plain;
  {
    StageTimer t(timings, "scalars");
    w_plain = msm::plain_scalars(witness.data(), witness.size());
    h_plain = msm::plain_scalars(h.data(), h.size());
  }
  MsmResults<Curve> m;
  msm::SplitStats split;
  {
    StageTimer t(timings, "msm_a");
    m.a = msm::split_msm<G1>(pk.a.data(), w_plain.data(), pk.n_vars, &split);
    record_split(timings, split);
  }
  {
    StageTimer t(timings, "msm_b1");
    m.b1 = msm::split_msm<G1>(pk.b1.data(), w_plain.data(), pk.n_vars, &split);
    record_split(timings, split);
  }
  {
    StageTimer t(timings, "msm_b2");
    m.b2 = msm::split_msm<G2>(pk.b2.data(), w_plain.data(), pk.n_vars, &split);
    record_split(timings, split);
  }
  {
    StageTimer t(timings, "msm_c");
    const std::size_t skip = pk.n_public + 1;
    m.c = msm::split_msm<G1>(pk.c.data(), w_plain.data() + skip, pk.n_vars - skip, &split);
    record_split(timings, split);
  }
  {
    StageTimer t(timings, "msm_h");
    m.c += msm::pippenger<G1>(pk.h.data(), h_plain.data(), h_plain.size());
  }
  StageTimer t(timings, "assemble");
  return assemble(pk, m, r, s);
}

#define CUZK_INSTANTIATE(Curve)                                                                             \
  template AbcEvaluations<Curve> compute_abc<Curve>(const ProvingKey<Curve>&,                               \
                                                    const std::vector<Curve::Fr>&);                         \
  template CoefficientRows coefficient_rows<Curve>(const ProvingKey<Curve>&);                               \
  template void check_prove_inputs<Curve>(const ProvingKey<Curve>&, const std::vector<Curve::Fr>&);         \
  template void check_witness_shape<Curve>(const ProvingKey<Curve>&, std::size_t, const Curve::Fr&);        \
  template Proof<Curve> assemble<Curve>(const ProvingKey<Curve>&, const MsmResults<Curve>&,                 \
                                        const Curve::Fr&, const Curve::Fr&);                                \
  template Proof<Curve> assemble<Curve>(const BlindingPoints<Curve>&, const MsmResults<Curve>&,             \
                                        const Curve::Fr&, const Curve::Fr&);                                \
  template std::vector<Curve::Fr> compute_h<Curve>(const ProvingKey<Curve>&, const std::vector<Curve::Fr>&, \
                                                   StageTimings*);                                          \
  template Proof<Curve> prove<Curve>(const ProvingKey<Curve>&, const std::vector<Curve::Fr>&,               \
                                     const Curve::Fr&, const Curve::Fr&, StageTimings*);
CUZK_INSTANTIATE(Bn254)
CUZK_INSTANTIATE(Bls12_381)
#undef CUZK_INSTANTIATE

}  // namespace cuzk::groth16
