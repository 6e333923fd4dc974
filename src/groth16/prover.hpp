// The Groth16 prover for snarkjs proving keys, as explicit stages:
//   abc       A·w and B·w at each constraint (from the key's coefficients), C = A∘B
//   h         odd-coset evaluation of A, B, C (iNTT, ·ω_2N^i, NTT) and h = A·B - C — snarkjs' method,
//             which pairs with H points that are Lagrange points of the odd coset (no division by Z)
//   msm_*     Σ w_i·A_i, Σ w_i·B1_i, Σ w_i·B2_i (G2), Σ w_i·C_i, Σ h_j·H_j
//   assemble  blinding with r and s
#pragma once

#include <stdexcept>
#include <vector>

#include "ec/point.hpp"
#include "groth16/timings.hpp"
#include "groth16/types.hpp"

namespace cuzk::groth16 {

// A request the prover cannot serve (witness size, first element, key shape); a clear message.
struct ProveError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

template <class Curve>
Proof<Curve> prove(const ProvingKey<Curve>& pk, const std::vector<typename Curve::Fr>& witness,
                   const typename Curve::Fr& r, const typename Curve::Fr& s, StageTimings* timings = nullptr);

// The h_j scalars (odd-coset values of A·B - C), exposed for tests.
template <class Curve>
std::vector<typename Curve::Fr> compute_h(const ProvingKey<Curve>& pk,
                                          const std::vector<typename Curve::Fr>& witness,
                                          StageTimings* timings = nullptr);

}  // namespace cuzk::groth16
