#include "groth16/verifier.hpp"

#include <utility>
#include <vector>

#include "ec/bls12_381.hpp"
#include "ec/bn254.hpp"
#include "ec/scalar_mul.hpp"
#include "msm/cpu.hpp"
#include "pairing/pairing.hpp"

namespace cuzk::groth16 {

template <class Curve>
VerifyResult verify(const VerifyingKey<Curve>& vk, const std::vector<typename Curve::Fr>& public_inputs,
                    const Proof<Curve>& proof) {
  if (vk.ic.empty()) return {false, "the verification key has no IC points"};
  if (public_inputs.size() != vk.n_public())
    return {false, "the verification key expects " + std::to_string(vk.n_public()) + " public inputs, got " +
                       std::to_string(public_inputs.size())};
  auto point_ok = [](const auto& p) { return p.on_curve() && ec::in_prime_subgroup(p); };
  if (!point_ok(proof.a)) return {false, "proof point A is not in G1"};
  if (!point_ok(proof.b)) return {false, "proof point B is not in G2"};
  if (!point_ok(proof.c)) return {false, "proof point C is not in G1"};

  // Σ input_i·IC_(i+1) as one MSM: a 32 GiB WindowPoSt partition has 25,839 public inputs, whose scalar
  // multiplications one after the other took 2 s of the daemon's self-check.
  std::vector<ff::BigInt<4>> scalars(public_inputs.size());
  for (std::size_t i = 0; i < public_inputs.size(); ++i) scalars[i] = public_inputs[i].to_int();
  auto vk_x = Curve::G1Jac::from_affine(vk.ic[0]);
  if (!scalars.empty())
    vk_x += msm::pippenger<typename Curve::G1Cfg>(vk.ic.data() + 1, scalars.data(), scalars.size());

  const std::pair<typename Curve::G1, typename Curve::G2> pairs[] = {
      {-proof.a, proof.b}, {vk_x.to_affine(), vk.gamma2}, {proof.c, vk.delta2}, {vk.alpha1, vk.beta2}};
  if (!pairing::pairing_product_is_one<Curve>(pairs)) return {false, "the pairing equation does not hold"};
  return {true, {}};
}

template VerifyResult verify<Bn254>(const VerifyingKey<Bn254>&, const std::vector<Bn254::Fr>&,
                                    const Proof<Bn254>&);
template VerifyResult verify<Bls12_381>(const VerifyingKey<Bls12_381>&, const std::vector<Bls12_381::Fr>&,
                                        const Proof<Bls12_381>&);

}  // namespace cuzk::groth16
