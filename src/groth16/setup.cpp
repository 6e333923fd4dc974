#include "groth16/setup.hpp"

#include <stdexcept>
#include <vector>

#include "ec/bls12_381.hpp"
#include "ec/bn254.hpp"
#include "ec/fixed_base.hpp"
#include "ff/batch_inverse.hpp"
#include "ff/random.hpp"
#include "poly/domain.hpp"

namespace cuzk::groth16 {

template <class Curve>
ToxicWaste<Curve> random_toxic_waste(bool gamma_one) {
  using Fr = typename Curve::Fr;
  auto draw = [] { return ff::random_nonzero_os<Fr>(); };
  ToxicWaste<Curve> tw{draw(), draw(), draw(), draw(), draw()};
  if (gamma_one) tw.gamma = Fr::one();
  return tw;
}

namespace {

// L_i(τ) for every i of the domain: (τ^n - 1)/n · ω^i/(τ - ω^i).
template <class Fr>
std::vector<Fr> lagrange_at(const poly::Domain<Fr>& d, const Fr& tau) {
  std::vector<Fr> out(d.n), omega_i(d.n);
  Fr w = Fr::one();
  for (std::size_t i = 0; i < d.n; ++i, w *= d.omega) {
    omega_i[i] = w;
    out[i] = tau - w;
    if (out[i].is_zero()) throw std::runtime_error("setup: τ landed in the evaluation domain; run it again");
  }
  ff::batch_inverse(out.data(), out.size());
  const Fr z = (tau.pow(ff::bigint_from_u64<1>(d.n)) - Fr::one()) * d.n_inv;
  for (std::size_t i = 0; i < d.n; ++i) out[i] *= z * omega_i[i];
  return out;
}

}  // namespace

template <class Curve>
ProvingKey<Curve> setup(const r1cs::ConstraintSystem<Curve>& cs, const ToxicWaste<Curve>& tw) {
  using Fr = typename Curve::Fr;
  const std::size_t n_constraints = cs.constraints.size();
  const std::uint32_t n_public = cs.n_public(), n_vars = cs.n_wires;
  if (n_vars < n_public + 1)
    throw std::invalid_argument("setup: the R1CS has fewer wires than public signals");
  // snarkjs sizing: one extra row per public signal binds it (A-matrix rows n_constraints + s).
  const auto domain = poly::Domain<Fr>::at_least(n_constraints + n_public + 1);
  const std::vector<Fr> lag = lagrange_at(domain, tw.tau);

  ProvingKey<Curve> pk;
  pk.n_vars = n_vars;
  pk.n_public = n_public;
  pk.domain_size = static_cast<std::uint32_t>(domain.n);

  std::vector<Fr> a(n_vars, Fr::zero()), b(n_vars, Fr::zero()), c(n_vars, Fr::zero());
  for (std::size_t row = 0; row < n_constraints; ++row) {
    const auto& con = cs.constraints[row];
    for (const auto& t : con.a) {
      a[t.wire] += t.coeff * lag[row];
      pk.coefs.push_back({0, static_cast<std::uint32_t>(row), t.wire, t.coeff});
    }
    for (const auto& t : con.b) {
      b[t.wire] += t.coeff * lag[row];
      pk.coefs.push_back({1, static_cast<std::uint32_t>(row), t.wire, t.coeff});
    }
    for (const auto& t : con.c) c[t.wire] += t.coeff * lag[row];
  }
  for (std::uint32_t s = 0; s <= n_public; ++s) {
    a[s] += lag[n_constraints + s];
    pk.coefs.push_back({0, static_cast<std::uint32_t>(n_constraints + s), s, Fr::one()});
  }

  const ec::FixedBaseTable<typename Curve::G1Cfg> g1(Curve::G1Cfg::generator());
  const ec::FixedBaseTable<typename Curve::G2Cfg> g2(Curve::G2Cfg::generator());
  auto g1_of = [&](const Fr& k) { return g1.mul(k.to_int()).to_affine(); };
  auto g2_of = [&](const Fr& k) { return g2.mul(k.to_int()).to_affine(); };
  pk.alpha1 = g1_of(tw.alpha);
  pk.beta1 = g1_of(tw.beta);
  pk.delta1 = g1_of(tw.delta);
  pk.beta2 = g2_of(tw.beta);
  pk.gamma2 = g2_of(tw.gamma);
  pk.delta2 = g2_of(tw.delta);

  pk.a = g1.mul_all(a);
  pk.b1 = g1.mul_all(b);
  pk.b2 = g2.mul_all(b);

  const Fr gamma_inv = tw.gamma.inverse(), delta_inv = tw.delta.inverse();
  std::vector<Fr> ic(n_public + 1), cq(n_vars - n_public - 1);
  for (std::uint32_t s = 0; s < n_vars; ++s) {
    Fr k = tw.beta * a[s] + tw.alpha * b[s] + c[s];
    if (s <= n_public)
      ic[s] = k * gamma_inv;
    else
      cq[s - n_public - 1] = k * delta_inv;
  }
  pk.ic = g1.mul_all(ic);
  pk.c = g1.mul_all(cq);

  // H_j = L^(2N)_{2j+1}(τ)/δ: Lagrange points of the odd coset of the 2N domain (snarkjs' H query).
  const poly::Domain<Fr> big(domain.log_n + 1);
  std::vector<Fr> hq(domain.n), num(domain.n);
  Fr w = big.omega;  // ω_2N^(2j+1), stepping by ω_2N²
  const Fr step = big.omega.sqr();
  for (std::size_t j = 0; j < domain.n; ++j, w *= step) {
    num[j] = w;
    hq[j] = tw.tau - w;
    if (hq[j].is_zero()) throw std::runtime_error("setup: τ landed in the evaluation domain; run it again");
  }
  ff::batch_inverse(hq.data(), hq.size());
  const Fr z2 = (tw.tau.pow(ff::bigint_from_u64<1>(big.n)) - Fr::one()) * big.n_inv * delta_inv;
  for (std::size_t j = 0; j < domain.n; ++j) hq[j] *= z2 * num[j];
  pk.h = g1.mul_all(hq);
  return pk;
}

template ToxicWaste<Bn254> random_toxic_waste<Bn254>(bool);
template ToxicWaste<Bls12_381> random_toxic_waste<Bls12_381>(bool);
template ProvingKey<Bn254> setup<Bn254>(const r1cs::ConstraintSystem<Bn254>&, const ToxicWaste<Bn254>&);
template ProvingKey<Bls12_381> setup<Bls12_381>(const r1cs::ConstraintSystem<Bls12_381>&,
                                                const ToxicWaste<Bls12_381>&);

}  // namespace cuzk::groth16
