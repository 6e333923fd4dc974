// TEST-ONLY trusted setup: samples the toxic waste itself and writes a snarkjs-layout proving key
// straight from an R1CS, skipping powers of tau. Anyone who runs it knows τ and can forge proofs; it
// exists so tests and benchmarks can make keys for large circuits in seconds.
#pragma once

#include "groth16/types.hpp"
#include "r1cs/system.hpp"

namespace cuzk::groth16 {

template <class Curve>
struct ToxicWaste {
  typename Curve::Fr tau, alpha, beta, gamma, delta;
};

// Draws τ, α, β, γ, δ from the OS CSPRNG (all non-zero); gamma_one keeps γ = 1 as snarkjs keys have.
template <class Curve>
ToxicWaste<Curve> random_toxic_waste(bool gamma_one = false);

template <class Curve>
ProvingKey<Curve> setup(const r1cs::ConstraintSystem<Curve>& cs, const ToxicWaste<Curve>& tw);

}  // namespace cuzk::groth16
