// The PoRep circuit of one partition in each mode, its challenges synthesized in parallel: every challenge
// has the same shape, so once the first has run its variable counts place every other one, each in its own
// constraint system, and the parts are joined in order (the result is the same as one sequential run's:
// tests compare them). The witness and evaluation modes go further: every section of every challenge
// (porep_circuit.hpp) at its own numbers, ~29 tasks per challenge, so one partition fills a host's cores.
#pragma once

#include <array>
#include <optional>
#include <span>
#include <vector>

#include "filecoin/porep_circuit.hpp"
#include "filecoin/porep_params.hpp"
#include "filecoin/porep_vanilla.hpp"
#include "gadgets/assignment.hpp"
#include "gadgets/constraint_system.hpp"

namespace cuzk::filecoin {

// Where each part of a partition's circuit puts its variables: the top part (replica id, commitments),
// then the challenges, all of one size. From a shape run of the top part and one challenge, once per
// parameter set and process.
struct PorepLayout {
  std::uint64_t top_inputs = 0, top_aux = 0, top_rows = 0;  // ONE included in top_inputs
  std::uint64_t challenge_inputs = 0, challenge_aux = 0, challenge_rows = 0;
  unsigned challenges = 0;
  // A challenge's sections (porep_circuit.hpp) in circuit order, where each starts from the challenge's
  // first input, aux and row, and what it allocates and enforces; and the sections of each stage.
  struct Section {
    PorepSection section;
    std::uint64_t input_at = 0, inputs = 0, aux_at = 0, aux = 0, row_at = 0, rows = 0;
  };
  std::vector<Section> sections;
  std::array<std::vector<unsigned>, 3> stages;
  std::uint64_t inputs() const { return top_inputs + challenges * challenge_inputs; }
  std::uint64_t aux() const { return top_aux + challenges * challenge_aux; }
  std::uint64_t rows() const { return top_rows + challenges * challenge_rows; }  // the circuit's own
  // What the bellperson prover takes: the circuit's rows, then one `input · 0 = 0` row per input.
  std::uint64_t prover_rows() const { return rows() + inputs(); }
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

// The synthesis a bellperson prover runs (evaluation mode, gadgets/evaluation_slice.hpp): the assignments and
// every row's A·w, B·w, C·w, written into the caller's arrays (sized by the layout: inputs(), aux(), and
// prover_rows() for a, b, c, whose input rows are filled too). No matrix is built. Every row is checked as
// it is evaluated, except those the gadgets write as computed, which hold by construction
// (gadgets/boolean.hpp ComputedRows): the result is the first row (in circuit order) with a·b ≠ c, if any.
// Throws gadgets::SynthesisError when the proof does not have the partition's shape or an array has the wrong
// size.
struct PorepEvaluation {
  std::span<Fr> inputs, aux, a, b, c;
};
std::optional<std::uint64_t> porep_evaluate(const PorepParams& params, const PorepPartitionProof& proof,
                                            const PorepEvaluation& out);

// The first row with a·b ≠ c (rows in parallel), if any: every row's check from an evaluation's a, b, c
// (porep_evaluate checks them as it goes; this is the independent pass tests compare it with).
std::optional<std::uint64_t> porep_first_unsatisfied_abc(std::span<const Fr> a, std::span<const Fr> b,
                                                         std::span<const Fr> c);

// Synthesizes with the values and checks every row as it goes, without keeping the matrices: the first
// row (in circuit order) that does not hold, if any. For circuits too large to record.
std::optional<std::uint64_t> porep_first_unsatisfied_row(const PorepParams& params,
                                                         const PorepPartitionProof& proof);

}  // namespace cuzk::filecoin
