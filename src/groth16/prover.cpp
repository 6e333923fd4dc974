#include "groth16/prover.hpp"

#include <tbb/parallel_for.h>

#include <string>

#include "ec/bls12_381.hpp"
#include "ec/bn254.hpp"
#include "ec/scalar_mul.hpp"
#include "msm/cpu.hpp"
#include "ntt/cpu.hpp"
#include "poly/domain.hpp"

namespace cuzk::groth16 {

namespace {

template <class Curve>
void check_inputs(const ProvingKey<Curve>& pk, const std::vector<typename Curve::Fr>& witness) {
  if (witness.size() != pk.n_vars)
    throw ProveError("the witness has " + std::to_string(witness.size()) + " values but the circuit has " +
                     std::to_string(pk.n_vars) + " signals: is it a witness for another circuit?");
  if (witness.empty() || !witness[0].is_one())
    throw ProveError("witness[0] must be 1 (the constant signal); this is not a circom witness");
  std::size_t n = pk.domain_size;
  if (n == 0 || (n & (n - 1)) != 0)
    throw ProveError("the proving key's domain size " + std::to_string(n) + " is not a power of two");
  if (pk.c.size() + pk.n_public + 1 != pk.n_vars || pk.a.size() != pk.n_vars || pk.b1.size() != pk.n_vars ||
      pk.b2.size() != pk.n_vars || pk.h.size() != n || pk.ic.size() != pk.n_public + 1)
    throw ProveError("the proving key's point arrays do not match nVars/nPublic/domainSize");
}

template <class Fr>
std::vector<ff::BigInt<Fr::N>> to_plain(const Fr* xs, std::size_t n) {
  std::vector<ff::BigInt<Fr::N>> out(n);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 4096), [&](const auto& range) {
    for (std::size_t i = range.begin(); i != range.end(); ++i) out[i] = xs[i].to_int();
  });
  return out;
}

}  // namespace

template <class Curve>
std::vector<typename Curve::Fr> compute_h(const ProvingKey<Curve>& pk,
                                          const std::vector<typename Curve::Fr>& witness,
                                          StageTimings* timings) {
  using Fr = typename Curve::Fr;
  const std::size_t n = pk.domain_size;
  std::vector<Fr> a(n, Fr::zero()), b(n, Fr::zero()), c(n);
  {
    StageTimer t(timings, "abc");
    // Rows are independent: bucket the entries by row (counting sort), then evaluate rows in parallel.
    std::vector<std::uint32_t> start(2 * n + 1, 0);
    for (const auto& e : pk.coefs) ++start[e.matrix * n + e.constraint + 1];
    for (std::size_t i = 1; i < start.size(); ++i) start[i] += start[i - 1];
    std::vector<std::uint32_t> order(pk.coefs.size()), fill(start.begin(), start.end() - 1);
    for (std::size_t i = 0; i < pk.coefs.size(); ++i) {
      const auto& e = pk.coefs[i];
      order[fill[e.matrix * n + e.constraint]++] = static_cast<std::uint32_t>(i);
    }
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
  }
  {
    StageTimer t(timings, "h");
    poly::Domain<Fr> domain(__builtin_ctzll(n));
    const Fr shift = poly::root_of_unity<Fr>(domain.log_n + 1);  // ω_2N: odd coset of the 2N domain
    for (std::vector<Fr>* v : {&a, &b, &c}) {
      ntt::inverse(v->data(), domain);
      ntt::coset_forward(v->data(), domain, shift);
    }
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 4096), [&](const auto& range) {
      for (std::size_t i = range.begin(); i != range.end(); ++i) a[i] = a[i] * b[i] - c[i];
    });
  }
  return a;
}

template <class Curve>
Proof<Curve> prove(const ProvingKey<Curve>& pk, const std::vector<typename Curve::Fr>& witness,
                   const typename Curve::Fr& r, const typename Curve::Fr& s, StageTimings* timings) {
  using G1 = typename Curve::G1Cfg;
  using G2 = typename Curve::G2Cfg;
  check_inputs(pk, witness);

  std::vector<typename Curve::Fr> h = compute_h(pk, witness, timings);

  std::vector<ff::BigInt<Curve::Fr::N>> w_plain, h_plain;
  {
    StageTimer t(timings, "scalars");
    w_plain = to_plain(witness.data(), witness.size());
    h_plain = to_plain(h.data(), h.size());
  }
  ec::Jacobian<G1> pi_a, b1, pi_c;
  ec::Jacobian<G2> pi_b;
  {
    StageTimer t(timings, "msm_a");
    pi_a = msm::split_msm<G1>(pk.a.data(), w_plain.data(), pk.n_vars);
  }
  {
    StageTimer t(timings, "msm_b1");
    b1 = msm::split_msm<G1>(pk.b1.data(), w_plain.data(), pk.n_vars);
  }
  {
    StageTimer t(timings, "msm_b2");
    pi_b = msm::split_msm<G2>(pk.b2.data(), w_plain.data(), pk.n_vars);
  }
  {
    StageTimer t(timings, "msm_c");
    const std::size_t skip = pk.n_public + 1;
    pi_c = msm::split_msm<G1>(pk.c.data(), w_plain.data() + skip, pk.n_vars - skip);
  }
  {
    StageTimer t(timings, "msm_h");
    pi_c += msm::pippenger<G1>(pk.h.data(), h_plain.data(), h_plain.size());
  }
  StageTimer t(timings, "assemble");
  const auto r_int = r.to_int(), s_int = s.to_int(), rs_int = (r * s).to_int();
  using ec::scalar_mul;
  pi_a = pi_a.add_affine(pk.alpha1) + scalar_mul(pk.delta1, r_int);
  pi_b = pi_b.add_affine(pk.beta2) + scalar_mul(pk.delta2, s_int);
  b1 = b1.add_affine(pk.beta1) + scalar_mul(pk.delta1, s_int);
  pi_c = pi_c + scalar_mul(pi_a, s_int) + scalar_mul(b1, r_int) - scalar_mul(pk.delta1, rs_int);
  return {pi_a.to_affine(), pi_b.to_affine(), pi_c.to_affine()};
}

#define CUZK_INSTANTIATE(Curve)                                                                             \
  template std::vector<Curve::Fr> compute_h<Curve>(const ProvingKey<Curve>&, const std::vector<Curve::Fr>&, \
                                                   StageTimings*);                                          \
  template Proof<Curve> prove<Curve>(const ProvingKey<Curve>&, const std::vector<Curve::Fr>&,               \
                                     const Curve::Fr&, const Curve::Fr&, StageTimings*);
CUZK_INSTANTIATE(Bn254)
CUZK_INSTANTIATE(Bls12_381)
#undef CUZK_INSTANTIATE

}  // namespace cuzk::groth16
