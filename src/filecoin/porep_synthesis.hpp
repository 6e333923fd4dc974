// The PoRep circuit of one partition in each mode, its challenges synthesized in parallel: every challenge
// has the same shape, so once the first has run its variable counts place every other one, each in its own
// constraint system, and the parts are joined in order (the result is the same as one sequential run's:
// tests compare them).
#pragma once

#include <optional>
#include <vector>

#include "filecoin/porep_params.hpp"
#include "filecoin/porep_vanilla.hpp"
#include "gadgets/assignment.hpp"
#include "gadgets/constraint_system.hpp"

namespace cuzk::filecoin {

// Where each part of a partition's circuit puts its variables: the top part (replica id, commitments),
// then the challenges, all of one size. From a shape run of the top part and one challenge, once per
// parameter set and process.
struct PorepLayout {
  std::uint64_t top_inputs = 0, top_aux = 0;  // ONE included in top_inputs
  std::uint64_t challenge_inputs = 0, challenge_aux = 0;
  unsigned challenges = 0;
  std::uint64_t inputs() const { return top_inputs + challenges * challenge_inputs; }
  std::uint64_t aux() const { return top_aux + challenges * challenge_aux; }
};
const PorepLayout& porep_layout(const PorepParams& params);

// Counts, non-zeros and density bitmaps (shape mode), without field arithmetic (StructuralShapeCS: no term
// of this circuit cancels, which the tests check against record mode and porep_shape_with_coefficients).
gadgets::Shape porep_shape(const PorepParams& params);
gadgets::Shape porep_shape_with_coefficients(const PorepParams& params);

// The matrices and the shape: the pre-compiled circuit (record mode).
gadgets::PrecompiledCircuit porep_record(const PorepParams& params);

// The input (ONE first) and aux assignments (witness mode). Throws gadgets::SynthesisError when the proof
// does not have the partition's shape.
struct PorepAssignment {
  gadgets::Assignment inputs, aux;
};
PorepAssignment porep_witness(const PorepParams& params, const PorepPartitionProof& proof);

// Synthesizes with the values and checks every row as it goes, without keeping the matrices: the first
// row (in circuit order) that does not hold, if any. For circuits too large to record.
std::optional<std::uint64_t> porep_first_unsatisfied_row(const PorepParams& params,
                                                         const PorepPartitionProof& proof);

}  // namespace cuzk::filecoin
