// One partition's evaluation-mode synthesis in parts (porep_synthesis.cpp, post_assignment.cpp,
// update_assignment.cpp): the arrays the bellperson prover takes, in lent memory or their own
// (lent_assignment), and a PartitionEvaluation over them that runs each part in its own slice at the numbers
// the circuit's layout gives it, checks that the part wrote exactly those, and keeps the first unsatisfied
// row over parts that run in parallel.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "gadgets/evaluation_slice.hpp"
#include "groth16/bellperson.hpp"
#include "io/bellperson_assignment.hpp"

namespace cuzk::filecoin {

// Inputs (inputs[0] = ONE), aux, and a, b, c of `prover_rows` each, in the memory `lend` gives (asked for
// kAbc, 3 · prover_rows, then kAux) or in their own. Every value but ONE is left for the synthesis to write.
groth16::bellperson::Assignment lent_assignment(std::uint64_t inputs, std::uint64_t aux,
                                                std::uint64_t prover_rows,
                                                const io::bellperson_assignment::Lend& lend);

class PartitionEvaluation {
 public:
  using Fr = groth16::bellperson::Fr;
  // `circuit_rows`: the circuit's own rows, which bellperson's input rows follow; `what` begins errors.
  PartitionEvaluation(std::span<Fr> inputs, std::span<Fr> aux, std::span<Fr> a, std::span<Fr> b,
                      std::span<Fr> c, std::uint64_t circuit_rows, std::string what);
  explicit PartitionEvaluation(groth16::bellperson::Assignment& w, std::uint64_t circuit_rows,
                               std::string what)
      : PartitionEvaluation(w.inputs, w.aux, w.a, w.b, w.c, circuit_rows, std::move(what)) {}

  // Runs `synthesize(cs)` on a slice of the given inputs, aux and rows (on this thread, in an EvaluationScope
  // over the partition's values), then checks that it wrote every one of them (throws SynthesisError naming
  // `part` otherwise) and notes its first unsatisfied row. Parts may run at once.
  template <class F>
  void run(std::uint64_t first_input, std::uint64_t inputs, std::uint64_t first_aux, std::uint64_t aux,
           std::uint64_t first_row, std::uint64_t rows, const std::string& part, F&& synthesize) {
    const gadgets::EvaluationScope scope(&values_);
    gadgets::EvaluationSlice cs(gadgets::WitnessSlice(inputs_.subspan(first_input, inputs), first_input,
                                                      aux_.subspan(first_aux, aux), first_aux),
                                a_.subspan(first_row, rows), b_.subspan(first_row, rows),
                                c_.subspan(first_row, rows));
    synthesize(cs);
    finished(cs, inputs, aux, rows, first_row, part);
  }

  // Writes bellperson's input rows (input_i · 0 = 0, after the circuit's) and returns the first row, in
  // circuit order, with a·b ≠ c, if any.
  std::optional<std::uint64_t> finish();

 private:
  void finished(const gadgets::EvaluationSlice& cs, std::uint64_t inputs, std::uint64_t aux,
                std::uint64_t rows, std::uint64_t first_row, const std::string& part);

  static constexpr std::uint64_t kNone = ~std::uint64_t{0};
  std::span<Fr> inputs_, aux_, a_, b_, c_;
  std::uint64_t circuit_rows_;
  std::string what_;
  gadgets::VariableValues values_;
  std::atomic<std::uint64_t> first_unsatisfied_{kNone};
};

}  // namespace cuzk::filecoin
