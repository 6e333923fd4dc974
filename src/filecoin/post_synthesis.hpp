// The fallback PoSt circuit of one partition, whole (post_circuit.hpp): its shape, and its witness from the
// partition's sector proofs. Every sector has sector 0's shape (it reads nothing before it but ONE), so the
// shape is sector 0's repeated; the witness is synthesized sector by sector.
#pragma once

#include <span>

#include "filecoin/post_circuit.hpp"
#include "gadgets/constraint_system.hpp"
#include "gadgets/shape.hpp"

namespace cuzk::filecoin {

// Counts and densities (coefficients ignored, as `cuzk circuit post` prints them).
gadgets::Shape post_shape(const PostParams& params);

// The matrices and the shape (record mode): what a Groth16 setup of the circuit takes (test-only keys).
gadgets::PrecompiledCircuit post_record(const PostParams& params);

// The prover's assignment (inputs with ONE first, aux) from `sectors` (params.sectors of them, each
// checked against the shape first). Throws SynthesisError for a proof of the wrong shape; whether the
// witness satisfies the circuit is checked by post_witness_satisfies (tests) or the proof's self-check.
struct PostWitness {
  std::vector<Fr> inputs, aux;
};
PostWitness post_witness(const PostParams& params, std::span<const PostSectorProof> sectors);

// The first unsatisfied constraint's index, or -1: every row of the circuit evaluated on the witness.
long post_first_unsatisfied(const PostParams& params, std::span<const PostSectorProof> sectors);

}  // namespace cuzk::filecoin
