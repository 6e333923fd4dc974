// TEST-ONLY trusted setup: samples the toxic waste itself and writes a snarkjs-layout proving key
// straight from an R1CS, skipping powers of tau. Anyone who runs it knows τ and can forge proofs; it
// exists so tests and benchmarks can make keys for large circuits in seconds (PoRep-size ones in minutes,
// with the fixed-base products on the GPU: ec/fixed_base_gpu.hpp).
#pragma once

#include <functional>
#include <vector>

#include "ec/fixed_base.hpp"
#include "groth16/types.hpp"
#include "poly/domain.hpp"
#include "r1cs/csr.hpp"
#include "r1cs/system.hpp"

namespace cuzk::groth16 {

template <class Curve>
struct ToxicWaste {
  typename Curve::Fr tau, alpha, beta, gamma, delta;
};

// Draws τ, α, β, γ, δ from the OS CSPRNG (all non-zero); gamma_one keeps γ = 1 as snarkjs keys have.
template <class Curve>
ToxicWaste<Curve> random_toxic_waste(bool gamma_one = false);

// How the big vectors of points are made: scalars[i]·G from G's table. Empty: on the CPU (the table's
// mul_all); the GPU's is ec::gpu::fixed_base_mul_all.
template <class Curve>
struct FixedBaseMul {
  using G1Cfg = typename Curve::G1Cfg;
  using G2Cfg = typename Curve::G2Cfg;
  using Fr = typename Curve::Fr;
  std::function<std::vector<ec::Affine<G1Cfg>>(const ec::FixedBaseTable<G1Cfg>&, const std::vector<Fr>&)> g1;
  std::function<std::vector<ec::Affine<G2Cfg>>(const ec::FixedBaseTable<G2Cfg>&, const std::vector<Fr>&)> g2;
};

// Building blocks shared with the bellperson setup: the Lagrange basis of domain d at τ, and
// u[col] += Σ_r M[r][col]·lag[r] (a matrix's QAP polynomials at τ).
template <class Fr>
std::vector<Fr> lagrange_at(const Fr& tau, const poly::Domain<Fr>& d);
template <class Fr>
void accumulate_columns(const r1cs::Csr<Fr>& m, const std::vector<Fr>& lag, std::vector<Fr>& u);

// From constraint matrices (the form that scales: every step runs in parallel).
template <class Curve>
ProvingKey<Curve> setup(const r1cs::CsrSystem<typename Curve::Fr>& cs, const ToxicWaste<Curve>& tw,
                        const FixedBaseMul<Curve>& mul = {});

// From per-constraint term lists (a .r1cs file).
template <class Curve>
ProvingKey<Curve> setup(const r1cs::ConstraintSystem<Curve>& cs, const ToxicWaste<Curve>& tw);

}  // namespace cuzk::groth16
