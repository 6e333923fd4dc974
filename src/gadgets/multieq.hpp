// bellperson's MultiEq (gadgets/multieq.rs): many equalities lhs_k = rhs_k of at most `bits_k`-bit values
// packed into one row Σ 2^{o_k}·lhs_k · 1 = Σ 2^{o_k}·rhs_k, o_k the bits used before k, while the total
// stays below Fr's capacity (254 bits). UInt32::addmany enforces its sums through one.
//
// It wraps a constraint system: allocations and rows pass through in order. A packed row is emitted when the
// next equality would reach the capacity (inside that enforce_equal, before the equality is added), and by
// finish(), which stands for the Rust value's drop: call it where bellpepper's MultiEq goes out of scope (the
// destructor flushes too, if finish() was not called and no exception is unwinding).
#pragma once

#include <exception>
#include <string>
#include <utility>

#include "gadgets/boolean.hpp"

namespace cuzk::gadgets {

template <class CS>
class MultiEq {
 public:
  static constexpr bool kWitness = CS::kWitness;
  static constexpr bool kRows = kBuildsRows<CS>;
  static constexpr bool kCoefficients = kCoefficientsOf<CS> == Coefficients::kKept;

  explicit MultiEq(CS& cs) : cs_(cs), exceptions_(std::uncaught_exceptions()) {}
  MultiEq(const MultiEq&) = delete;
  MultiEq& operator=(const MultiEq&) = delete;
  ~MultiEq() {
    if (std::uncaught_exceptions() == exceptions_) finish();
  }

  template <class F>
  Variable alloc(F&& value) {
    return cs_.alloc(std::forward<F>(value));
  }
  template <class F>
  Variable alloc_input(F&& value) {
    return cs_.alloc_input(std::forward<F>(value));
  }
  template <class FA, class FB, class FC>
  void enforce(FA&& fa, FB&& fb, FC&& fc) {
    cs_.enforce(std::forward<FA>(fa), std::forward<FB>(fb), std::forward<FC>(fc));
  }
  void enforce_computed(const Fr& a, const Fr& b, const Fr& c) requires ComputedRows<CS> {
    cs_.enforce_computed(a, b, c);
  }

  // lhs = rhs, both below 2^num_bits. `lhs` and `rhs` add their terms to an empty combination; they run only
  // when the constraint system builds rows.
  template <class FL, class FR>
  void enforce_equal(std::size_t num_bits, FL&& lhs, FR&& rhs) {
    if (num_bits >= kFrCapacity)
      throw SynthesisError("MultiEq::enforce_equal: " + std::to_string(num_bits) +
                           " bits do not fit in one row of a 254-bit field");
    if (kFrCapacity <= bits_used_ + num_bits) accumulate();
    if constexpr (kRows) {
      has_terms_ = true;
      const Fr& shift = kPow2[bits_used_];
      scratch_.clear();
      lhs(scratch_);
      lhs_.add(shift, scratch_);
      scratch_.clear();
      rhs(scratch_);
      rhs_.add(shift, scratch_);
    }
    bits_used_ += num_bits;
  }

  // lhs = rhs where both sides are known to be `value` (< 2^num_bits): UInt32::addmany's sum, whose result
  // bits the gadget allocated from that sum. Where rows are computed, the packed row's sides are then
  // integers shifted into place, and the row one conversion into the field; the caller makes the same
  // equality with enforce_equal where they are not.
  void enforce_equal_known(std::size_t num_bits, std::uint64_t value) requires ComputedRows<CS> {
    if (num_bits >= kFrCapacity || num_bits > 64)
      throw SynthesisError("MultiEq::enforce_equal_known: " + std::to_string(num_bits) + " bits");
    if (kFrCapacity <= bits_used_ + num_bits) accumulate();
    // known_ += value·2^bits_used_ (the pieces do not overlap: each is below 2^num_bits).
    const std::size_t word = bits_used_ / 64, shift = bits_used_ % 64;
    ff::u128 sum = static_cast<ff::u128>(known_.v[word]) + (static_cast<ff::u128>(value) << shift);
    known_.v[word] = static_cast<std::uint64_t>(sum);
    for (std::size_t w = word + 1; w < 4; ++w) {
      sum = static_cast<ff::u128>(known_.v[w]) + static_cast<std::uint64_t>(sum >> 64);
      known_.v[w] = static_cast<std::uint64_t>(sum);
    }
    has_known_ = true;
    bits_used_ += num_bits;
  }

  // Emits the pending packed row, if any (bellpepper's Drop).
  void finish() {
    if (bits_used_ > 0) accumulate();
  }

  // Packed rows emitted so far.
  std::size_t rows_emitted() const { return ops_; }

 private:
  void accumulate() {
    bool emitted = false;
    if constexpr (ComputedRows<CS>) {
      if (has_known_) {
        const Fr known = Fr::from_int(known_);
        if (!has_terms_)
          cs_.enforce_computed(known, kFrOne, known);  // only known equalities: holds by construction
        else
          cs_.enforce([&](LC& a) { a.add(lhs_).add(kOne, known); }, [](LC& b) { b.add(kOne); },
                      [&](LC& c) { c.add(rhs_).add(kOne, known); });
        known_ = {};
        has_known_ = false;
        emitted = true;
      }
    }
    if (!emitted)
      cs_.enforce([&](LC& a) { a.add(lhs_); }, [](LC& b) { b.add(kOne); }, [&](LC& c) { c.add(rhs_); });
    lhs_.clear();
    rhs_.clear();
    has_terms_ = false;
    bits_used_ = 0;
    ++ops_;
  }

  CS& cs_;
  int exceptions_;
  std::size_t bits_used_ = 0;
  std::size_t ops_ = 0;
  // Where rows are computed: the known equalities' packed value, and which kinds the pending row holds.
  ff::BigInt<4> known_{};
  bool has_known_ = false, has_terms_ = false;
  LC lhs_{kCoefficientsOf<CS>}, rhs_{kCoefficientsOf<CS>}, scratch_{kCoefficientsOf<CS>};
};

}  // namespace cuzk::gadgets
