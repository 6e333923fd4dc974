// The PoRep circuit of one partition in each mode, its challenges synthesized in parallel: every challenge
// has the same shape, so once the first has run its variable counts place every other one, each in its own
// constraint system, and the parts are joined in order (the result is the same as one sequential run's:
// tests compare them).
#pragma once

#include <optional>
#include <vector>

#include "filecoin/porep_params.hpp"
#include "filecoin/porep_vanilla.hpp"
#include "gadgets/constraint_system.hpp"

namespace cuzk::filecoin {

// Counts, non-zeros and density bitmaps (shape mode).
gadgets::Shape porep_shape(const PorepParams& params);

// The matrices and the shape: the pre-compiled circuit (record mode).
gadgets::PrecompiledCircuit porep_record(const PorepParams& params);

// The input (ONE first) and aux assignments (witness mode). Throws gadgets::SynthesisError when the proof
// does not have the partition's shape.
struct PorepAssignment {
  std::vector<Fr> inputs, aux;
};
PorepAssignment porep_witness(const PorepParams& params, const PorepPartitionProof& proof);

// Synthesizes with the values and checks every row as it goes, without keeping the matrices: the first
// row (in circuit order) that does not hold, if any. For circuits too large to record.
std::optional<std::uint64_t> porep_first_unsatisfied_row(const PorepParams& params,
                                                         const PorepPartitionProof& proof);

}  // namespace cuzk::filecoin
