// A constraint system that checks every row as it is enforced, with the values, and keeps nothing else:
// satisfiability of a circuit too large to record (a 32 GiB PoRep partition's matrices are 26 GB; this needs
// only its 4 GB of values). A part of a circuit (numbered from first_input / first_aux) reads the values of
// the variables before it from the system it follows.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "gadgets/constraint_system.hpp"

namespace cuzk::gadgets {

class CheckCS {
 public:
  static constexpr bool kWitness = true;
  static constexpr bool kRows = true;

  CheckCS() { inputs_.push_back(Fr::one()); }
  CheckCS(const CheckCS* before, std::uint64_t first_input, std::uint64_t first_aux)
      : before_(before), first_input_(first_input), first_aux_(first_aux) {}

  template <class F>
  Variable alloc(F&& value) {
    aux_.push_back(value());
    return Variable::aux(static_cast<std::uint32_t>(first_aux_ + aux_.size() - 1));
  }
  template <class F>
  Variable alloc_input(F&& value) {
    inputs_.push_back(value());
    return Variable::input(static_cast<std::uint32_t>(first_input_ + inputs_.size() - 1));
  }
  template <class FA, class FB, class FC>
  void enforce(FA&& fa, FB&& fb, FC&& fc) {
    a_.clear(), b_.clear(), c_.clear();
    fa(a_), fb(b_), fc(c_);
    if (!first_failure_ && eval(a_) * eval(b_) != eval(c_)) first_failure_ = rows_;
    ++rows_;
  }

  std::uint64_t next_input() const { return first_input_ + inputs_.size(); }
  std::uint64_t next_aux() const { return first_aux_ + aux_.size(); }
  std::uint64_t num_constraints() const { return rows_; }
  // The first row (counted within this system) that did not hold.
  std::optional<std::uint64_t> first_failure() const { return first_failure_; }
  std::span<const Fr> input_values() const { return inputs_; }
  std::span<const Fr> aux_values() const { return aux_; }

  const Fr& value(Variable v) const {
    if (v.is_input()) {
      if (v.index() >= first_input_) return inputs_.at(v.index() - first_input_);
    } else if (v.index() >= first_aux_) {
      return aux_.at(v.index() - first_aux_);
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
  std::uint64_t first_input_ = 0, first_aux_ = 0;
  std::vector<Fr> inputs_, aux_;
  std::uint64_t rows_ = 0;
  std::optional<std::uint64_t> first_failure_;
  LinearCombination a_, b_, c_;
};

}  // namespace cuzk::gadgets
