// The SnapDeals circuit of one partition, whole (update_circuit.hpp): its shape, its matrices, and its
// witness from a partition proof.
#pragma once

#include <cstdint>
#include <optional>

#include "filecoin/update_circuit.hpp"
#include "gadgets/constraint_system.hpp"
#include "gadgets/shape.hpp"

namespace cuzk::filecoin {

// Where the parts of a partition's circuit put their variables: the top part (inputs, commitments, apex
// tree, challenge bits), then the challenges, all of one size (no challenge allocates an input).
struct UpdateLayout {
  std::uint64_t top_inputs = 0, top_aux = 0, top_rows = 0;  // ONE included in top_inputs
  // Within the top part (update_circuit.hpp): the prefix (every input), then apex_leaves − 1 hashes of one
  // size in the apex tree's order, then the suffix.
  std::uint64_t prefix_aux = 0, prefix_rows = 0, apex_hash_aux = 0, apex_hash_rows = 0;
  std::uint64_t challenge_aux = 0, challenge_rows = 0;
  unsigned challenges = 0;
  std::uint64_t inputs() const { return top_inputs; }
  std::uint64_t aux() const { return top_aux + challenges * challenge_aux; }
  std::uint64_t rows() const { return top_rows + challenges * challenge_rows; }
  // What the bellperson prover takes: the circuit's rows, then one `input · 0 = 0` row per input.
  std::uint64_t prover_rows() const { return rows() + inputs(); }
};
const UpdateLayout& update_layout(const UpdateParams& params);  // cached per size; thread-safe

// Counts, non-zeros and densities (coefficients ignored, as `cuzk circuit update` prints them). The
// challenges differ only in which of the top part's challenge bits they read, and every such bit is
// already in A and B through its own booleanity row, so challenge 0's shape is appended `challenges` times
// (checked, not assumed: a bit that is not would throw). 81 M constraints in a second.
gadgets::Shape update_shape(const UpdateParams& params);
// The same by synthesizing every challenge (tests compare the two).
gadgets::Shape update_shape_sequential(const UpdateParams& params);

// The matrices and the shape (record mode): what a Groth16 setup of the circuit takes (test-only keys).
gadgets::PrecompiledCircuit update_record(const UpdateParams& params);

// The inputs (ONE first) and aux, synthesized in order. Throws SynthesisError for a proof of the wrong shape.
struct UpdateWitness {
  std::vector<Fr> inputs, aux;
};
UpdateWitness update_witness(const UpdateParams& params, const UpdatePartitionProof& proof);

// The first unsatisfied constraint's index, if any: every row evaluated on the witness.
std::optional<std::uint64_t> update_first_unsatisfied(const UpdateParams& params,
                                                      const UpdatePartitionProof& proof);

}  // namespace cuzk::filecoin
