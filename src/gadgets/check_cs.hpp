// A constraint system that checks every row as it is enforced, with the values, and keeps nothing else:
// satisfiability of a circuit too large to record (a 32 GiB PoRep partition's matrices are 26 GB; this needs
// only its 4 GB of values). A part of a circuit (numbered from first_input / first_aux) reads the values of
// the variables before it from the system it follows.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "gadgets/constraint_system.hpp"

namespace cuzk::gadgets {

class CheckCS {
 public:
  static constexpr bool kWitness = true;
  static constexpr bool kRows = true;

  CheckCS() = default;
  CheckCS(const CheckCS* before, std::uint64_t first_input, std::uint64_t first_aux)
      : before_(before), values_(first_input, first_aux) {}

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
    a_.clear(), b_.clear(), c_.clear();
    fa(a_), fb(b_), fc(c_);
    if (!first_failure_ && eval(a_) * eval(b_) != eval(c_)) first_failure_ = rows_;
    ++rows_;
  }

  std::uint64_t next_input() const { return values_.next_input(); }
  std::uint64_t next_aux() const { return values_.next_aux(); }
  std::uint64_t num_constraints() const { return rows_; }
  // The first row (counted within this system) that did not hold.
  std::optional<std::uint64_t> first_failure() const { return first_failure_; }
  std::span<const Fr> input_values() const { return values_.input_values(); }
  std::span<const Fr> aux_values() const { return values_.aux_values(); }

  const Fr& value(Variable v) const {
    if (v.is_input()) {
      if (v.index() >= values_.first_input()) return input_values()[v.index() - values_.first_input()];
    } else if (v.index() >= values_.first_aux()) {
      return aux_values()[v.index() - values_.first_aux()];
    }
    if (!before_) throw SynthesisError("check: a row uses a variable that was never allocated");
    return before_->value(v);
  }

 private:
  Fr eval(const LinearCombination& lc) const {
    Fr acc = Fr::zero();
    for (const Term& t : lc.inputs()) acc += value(Variable::input(t.index)) * t.coeff;
    for (const Term& t : lc.aux()) acc += value(Variable::aux(t.index)) * t.coeff;
    return acc;
  }

  const CheckCS* before_ = nullptr;
  WitnessCS values_;  // ONE first in a whole circuit; a part's own variables
  std::uint64_t rows_ = 0;
  std::optional<std::uint64_t> first_failure_;
  LinearCombination a_, b_, c_;
};

}  // namespace cuzk::gadgets
