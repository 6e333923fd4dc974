// The Groth16 verifier: e(-A, B)·e(vk_x, γ)·e(C, δ)·e(α, β) = 1 with vk_x = IC_0 + Σ pub_i·IC_i.
#pragma once

#include <string>
#include <vector>

#include "groth16/types.hpp"

namespace cuzk::groth16 {

struct VerifyResult {
  bool valid = false;
  std::string reason;  // why it is invalid (empty when valid)
};

// Checks the proof points are on the curve and in the prime-order subgroups, the public inputs match
// the key's count, then the pairing equation.
template <class Curve>
VerifyResult verify(const VerifyingKey<Curve>& vk, const std::vector<typename Curve::Fr>& public_inputs,
                    const Proof<Curve>& proof);

}  // namespace cuzk::groth16
