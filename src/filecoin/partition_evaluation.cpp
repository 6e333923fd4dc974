#include "filecoin/partition_evaluation.hpp"

#include "filecoin/lent_column.hpp"

namespace cuzk::filecoin {

namespace bp = groth16::bellperson;

bp::Assignment lent_assignment(std::uint64_t inputs, std::uint64_t aux, std::uint64_t prover_rows,
                               const io::bellperson_assignment::Lend& lend) {
  using io::bellperson_assignment::Part;
  std::optional<io::bellperson_assignment::LentMemory> abc, lent_aux;
  if (lend) abc = lend(Part::kAbc, 3 * prover_rows);
  if (lend) lent_aux = lend(Part::kAux, aux);
  bp::Assignment w;
  w.a = column_in(abc, 0, prover_rows);
  w.b = column_in(abc, prover_rows, prover_rows);
  w.c = column_in(abc, 2 * prover_rows, prover_rows);
  w.aux = column_in(lent_aux, 0, aux);
  w.inputs.resize(inputs);
  if (inputs) w.inputs[0] = bp::Fr::one();
  return w;
}

PartitionEvaluation::PartitionEvaluation(std::span<Fr> inputs, std::span<Fr> aux, std::span<Fr> a,
                                         std::span<Fr> b, std::span<Fr> c, std::uint64_t circuit_rows,
                                         std::string what)
    : inputs_(inputs),
      aux_(aux),
      a_(a),
      b_(b),
      c_(c),
      circuit_rows_(circuit_rows),
      what_(std::move(what)),
      values_{inputs.data(), aux.data()} {
  if (a.size() != circuit_rows + inputs.size() || b.size() != a.size() || c.size() != a.size())
    throw gadgets::SynthesisError(what_ + ": a, b, c hold " + std::to_string(a.size()) + " rows, not the " +
                                  std::to_string(circuit_rows + inputs.size()) + " the circuit has");
}

void PartitionEvaluation::finished(const gadgets::EvaluationSlice& cs, std::uint64_t inputs,
                                   std::uint64_t aux, std::uint64_t rows, std::uint64_t first_row,
                                   const std::string& part) {
  if (cs.inputs_written() != inputs || cs.aux_written() != aux || cs.rows_written() != rows)
    throw gadgets::SynthesisError(what_ + ": " + part + " allocated or enforced other than its shape");
  if (const auto row = cs.first_unsatisfied()) {
    std::uint64_t seen = first_unsatisfied_.load();
    while (first_row + *row < seen && !first_unsatisfied_.compare_exchange_weak(seen, first_row + *row)) {
    }
  }
}

std::optional<std::uint64_t> PartitionEvaluation::finish() {
  for (std::uint64_t i = 0; i < inputs_.size(); ++i) {
    a_[circuit_rows_ + i] = inputs_[i];
    b_[circuit_rows_ + i] = Fr::zero();
    c_[circuit_rows_ + i] = Fr::zero();
  }
  const std::uint64_t row = first_unsatisfied_.load();
  if (row == kNone) return std::nullopt;
  return row;
}

}  // namespace cuzk::filecoin
