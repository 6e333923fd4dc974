// Groth16 with bellperson's (Filecoin's) conventions, on BLS12-381 (../shared/reference/filecoin-formats.md
// §4):
//
//   - synthesis hands the prover a, b, c (one value per constraint, with one constraint `input_i · 0 = 0` per
//     input appended after the circuit's), the input assignment (ONE first) and the aux assignment;
//   - structural density bitmaps say which aux variables have an A polynomial, and which inputs and aux
//     have a B polynomial: the key's a, b_g1 and b_g2 hold points for those only (inputs first);
//   - H is the quotient's coefficients (m − 1 of them) against h[i] = τ^i·Z(τ)/δ: a, b, c are interpolated
//     on the domain of bellperson's root of unity (7^((r−1)/2^32) squared down), evaluated on the coset
//     7·ω^k, divided there by Z = 7^m − 1, and brought back to coefficients;
//   - L pairs every aux value with l[j];
//   - A = α + rδ + Σa, B = β + sδ + Σb (G2), C = s·A + r·(β1 + sδ1 + Σb1) − rs·δ1 + Σh + Σl;
//   - a proof is A ‖ B ‖ C compressed (48 + 96 + 48 = 192 bytes); partitions are concatenated.
//
// The test-only setup makes keys in exactly that shape from constraint matrices, so that the prover, the
// CLI and the C ABI can be tested without Filecoin's parameters.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "ec/bls12_381.hpp"
#include "groth16/column.hpp"
#include "groth16/setup.hpp"
#include "groth16/types.hpp"
#include "groth16/verifier.hpp"
#include "io/bellperson.hpp"
#include "r1cs/csr.hpp"

namespace cuzk::groth16::bellperson {

using Curve = Bls12_381;
using Fr = Curve::Fr;

// Bit i = words[i / 64] >> (i % 64) & 1 (bellperson's BitVec<u64, Lsb0> layout).
struct Density {
  std::vector<std::uint64_t> words;
  std::size_t bits = 0;

  static Density of_size(std::size_t n) { return {std::vector<std::uint64_t>((n + 63) / 64, 0), n}; }
  bool test(std::size_t i) const { return (words[i / 64] >> (i % 64)) & 1; }
  void set(std::size_t i) { words[i / 64] |= std::uint64_t{1} << (i % 64); }
  std::size_t popcount() const;
};

struct Assignment {
  Column<Fr> a, b, c;      // per constraint, input constraints included (not padded)
  std::vector<Fr> inputs;  // inputs[0] = ONE
  Column<Fr> aux;
  Density a_aux, b_inputs, b_aux;
};

// A request the prover cannot serve (sizes that disagree with each other or with the key): a clear message.
struct Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Throws Error unless the assignment fits the key (every size and popcount the key implies).
void check(const io::bellperson::Params& params, const Assignment& w);

// The scalars of the A query (every input, then the aux values set in a_aux) and of the B queries (the inputs
// set in b_inputs, then the aux values set in b_aux), in the order of the key's points: shared by the CPU
// and GPU provers.
std::vector<Fr> a_query_scalars(const Assignment& w);
std::vector<Fr> b_query_scalars(const Assignment& w);
// The part of it that needs only the sizes (a file's header, before its values are read).
void check_sizes(const io::bellperson::Params& params, std::size_t abc_size, std::size_t inputs_size,
                 std::size_t aux_size);

// The m − 1 coefficients of H = (A·B − C)/Z, m = params.h.size() + 1.
std::vector<Fr> quotient(const Assignment& w, std::size_t m);

// bellperson's multiplicative generator: its powers make the key's domain (7^((r−1)/2^32) squared down), and
// the CPU prover's coset shift.
inline constexpr std::uint64_t kGenerator = 7;

// The same quotient through the odd coset ω_2m·⟨ω_m⟩ of that domain (ω_2m the 2m-th root that squares to
// ω_m), as the GPU prover computes it: the coefficients do not depend on the coset.
std::vector<Fr> quotient_on_odd_coset(const Assignment& w, std::size_t m);

Proof<Curve> prove(const io::bellperson::Params& params, const Assignment& w, const Fr& r, const Fr& s);

// 192 bytes: A (G1) ‖ B (G2) ‖ C (G1), compressed.
std::array<std::uint8_t, 192> encode_proof(const Proof<Curve>& p);
// Throws io::FormatError (naming `source` and the partition) on a bad encoding, identity or wrong subgroup.
Proof<Curve> decode_proof(std::span<const std::uint8_t> bytes, const std::string& source,
                          std::size_t partition);

// inputs: the public inputs without ONE (bellperson's verifier convention).
VerifyResult verify(const io::bellperson::VerifyingKey& vk, const std::vector<Fr>& inputs,
                    const Proof<Curve>& p);

// --- test-only: a circuit given as matrices (column 0 = ONE, then n_public inputs, then aux) ---

// The synthesis a bellperson circuit would do for witness z (ONE, inputs, aux).
Assignment synthesize(const r1cs::CsrSystem<Fr>& cs, const std::vector<Fr>& z);

// TEST-ONLY parameters for the circuit (random toxic waste: never for anything of value). `mul` computes the
// fixed-base products (the GPU's, for full-size keys); by default the CPU does.
io::bellperson::Params setup(const r1cs::CsrSystem<Fr>& cs, const ToxicWaste<Curve>& tw,
                             const FixedBaseMul<Curve>& mul = {});
// The same, releasing the matrices as soon as they are read: what a full-size key needs (a 32 GiB
// WindowPoSt's matrices and its key do not fit a 128 GiB host side by side).
io::bellperson::Params setup(r1cs::CsrSystem<Fr>&& cs, const ToxicWaste<Curve>& tw,
                             const FixedBaseMul<Curve>& mul = {});

}  // namespace cuzk::groth16::bellperson
