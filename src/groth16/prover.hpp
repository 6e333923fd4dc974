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

// A·w, B·w and their product C at every row of the domain (the "abc" stage), shared by the backends.
template <class Curve>
struct AbcEvaluations {
  std::vector<typename Curve::Fr> a, b, c;
};
template <class Curve>
AbcEvaluations<Curve> compute_abc(const ProvingKey<Curve>& pk,
                                  const std::vector<typename Curve::Fr>& witness);

// The key's A and B coefficients grouped by row (a counting sort): the entries of row `r` of matrix `m`
// (0 = A, 1 = B) are pk.coefs[order[k]] for k in [start[m·n + r], start[m·n + r + 1]), n = domain size.
struct CoefficientRows {
  std::vector<std::uint32_t> start, order;
};
template <class Curve>
CoefficientRows coefficient_rows(const ProvingKey<Curve>& pk);

// Shape checks shared by the backends; throws ProveError.
template <class Curve>
void check_prove_inputs(const ProvingKey<Curve>& pk, const std::vector<typename Curve::Fr>& witness);
// The witness-side part of it from a witness's length and first value (a file not yet decoded).
template <class Curve>
void check_witness_shape(const ProvingKey<Curve>& pk, std::size_t size, const typename Curve::Fr& first);

// Unblinded MSM results of one proof, before assembly.
template <class Curve>
struct MsmResults {
  typename Curve::G1Jac a, b1, c;  // c includes the H term
  typename Curve::G2Jac b2;
};

// The key's points the blinding step uses (snarkjs and bellperson keys both have them).
template <class Curve>
struct BlindingPoints {
  typename Curve::G1 alpha1, beta1, delta1;
  typename Curve::G2 beta2, delta2;
};
template <class Curve>
Proof<Curve> assemble(const BlindingPoints<Curve>& k, const MsmResults<Curve>& m, const typename Curve::Fr& r,
                      const typename Curve::Fr& s);

// The blinding step: π_A = α + A + rδ, π_B = β + B + sδ, π_C = C + s·π_A + r·(β1 + B1 + sδ1) - rsδ1.
template <class Curve>
Proof<Curve> assemble(const ProvingKey<Curve>& pk, const MsmResults<Curve>& m, const typename Curve::Fr& r,
                      const typename Curve::Fr& s);

// The h_j scalars (odd-coset values of A·B - C), exposed for tests.
template <class Curve>
std::vector<typename Curve::Fr> compute_h(const ProvingKey<Curve>& pk,
                                          const std::vector<typename Curve::Fr>& witness,
                                          StageTimings* timings = nullptr);

}  // namespace cuzk::groth16
