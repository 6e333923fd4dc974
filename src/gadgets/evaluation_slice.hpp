// A witness slice that also evaluates every row: the synthesis a bellperson prover runs (its
// ProvingAssignment), which hands the prover a, b, c = A·w, B·w, C·w per row beside the assignments, with
// no matrix ever built. The pre-compiled alternative (record the matrices once, then an SpMV per partition)
// reads 26 GB of matrices per 32 GiB PoRep partition and must keep them resident; here each row costs only
// the additions and products its terms need, on values the synthesis has just written.
//
// Combinations are evaluated (linear_combination.hpp, EvaluationScope): construct the slice, and run the
// circuit, on one thread, inside an EvaluationScope over the whole circuit's values (the arrays the
// WitnessSlice windows belong to). Rows go to [first_row, first_row + rows) of the circuit's a, b, c, and
// each is checked (a·b = c) as it is written.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>

#include "gadgets/constraint_system.hpp"

namespace cuzk::gadgets {

class EvaluationSlice {
 public:
  static constexpr bool kWitness = true;
  static constexpr bool kRows = true;
  static constexpr bool kEvaluates = true;  // its combinations are values (gadgets may pass values as ONE·v)

  // `a`, `b`, `c`: this part's rows. Throws SynthesisError unless an EvaluationScope is active.
  EvaluationSlice(WitnessSlice values, std::span<Fr> a, std::span<Fr> b, std::span<Fr> c)
      : values_(std::move(values)), a_(a), b_(b), c_(c) {
    if (!lc_a_.evaluated())
      throw SynthesisError("evaluation slice: constructed outside an EvaluationScope (no values to read)");
  }

  template <class F>
  Variable alloc(F&& value) {
    return values_.alloc(std::forward<F>(value));
  }
  template <class F>
  Variable alloc_input(F&& value) {
    return values_.alloc_input(std::forward<F>(value));
  }
  template <class FA, class FB, class FC>
  void enforce(FA&& fa, FB&& fb, FC&& fc) {
    if (row_ == a_.size())
      throw SynthesisError("evaluation slice: more rows than the circuit's shape gives this part");
    lc_a_.clear(), lc_b_.clear(), lc_c_.clear();
    fa(lc_a_), fb(lc_b_), fc(lc_c_);
    const Fr &va = lc_a_.value(), &vb = lc_b_.value(), &vc = lc_c_.value();
    // The row's check, while its values are at hand: a pass over a, b, c afterwards reads them from memory
    // again (12.5 GB per 32 GiB PoRep partition).
    if (!first_unsatisfied_ && bit_aware_product(va, vb) != vc) first_unsatisfied_ = row_;
    a_[row_] = va;
    b_[row_] = vb;
    c_[row_] = vc;
    ++row_;
  }

  // A row whose values the gadget computed itself, c as a·b from these same values (the bit gadgets' rows,
  // gadgets/boolean.hpp ComputedRows; Poseidon's S-box rows, gadgets/poseidon_circuit.hpp): written without
  // the check, which could only redo the product c was made from. Rows that relate values of different
  // origin (a Merkle root and its public input, a number and its bits) always come through enforce and are
  // checked.
  void enforce_computed(const Fr& va, const Fr& vb, const Fr& vc) {
    if (row_ == a_.size())
      throw SynthesisError("evaluation slice: more rows than the circuit's shape gives this part");
    a_[row_] = va;
    b_[row_] = vb;
    c_[row_] = vc;
    ++row_;
  }

  // This part's first row (counted from its first) with a·b ≠ c, if any.
  std::optional<std::uint64_t> first_unsatisfied() const { return first_unsatisfied_; }

  std::uint64_t inputs_written() const { return values_.inputs_written(); }
  std::uint64_t aux_written() const { return values_.aux_written(); }
  std::uint64_t rows_written() const { return row_; }

 private:
  WitnessSlice values_;
  std::span<Fr> a_, b_, c_;
  std::uint64_t row_ = 0;
  std::optional<std::uint64_t> first_unsatisfied_;
  LinearCombination lc_a_, lc_b_, lc_c_;  // evaluated: built under the caller's scope
};

}  // namespace cuzk::gadgets
