// bellpepper-core's field-element gadgets (gadgets/num.rs, 0.2.1): AllocatedNum (a variable and its value)
// and Num (a linear combination and its value), with bellpepper's allocations and rows in order.
//
// Values are computed only when the constraint system computes them (CS::kWitness); a Num keeps its linear
// combination only when the constraint system builds rows, so witness synthesis never assembles one.
#pragma once

#include <concepts>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "gadgets/boolean.hpp"

namespace cuzk::gadgets {

class AllocatedNum {
 public:
  AllocatedNum() = default;
  AllocatedNum(Variable var, const Fr& value, bool known) : var_(var), value_(value), known_(known) {}

  // An aux variable; `value` (a callable returning Fr, or an Fr) is used only when CS computes values.
  template <class CS, class F>
  requires std::is_invocable_r_v<Fr, F>
  static AllocatedNum alloc(CS& cs, F&& value) {
    Fr v{};
    const Variable var = cs.alloc([&]() -> const Fr& {
      v = value();
      return v;
    });
    return {var, v, CS::kWitness};
  }
  template <class CS>
  static AllocatedNum alloc(CS& cs, const Fr& value) {
    return alloc(cs, [&] { return value; });
  }
  // A public input.
  template <class CS, class F>
  requires std::is_invocable_r_v<Fr, F>
  static AllocatedNum alloc_input(CS& cs, F&& value) {
    Fr v{};
    const Variable var = cs.alloc_input([&]() -> const Fr& {
      v = value();
      return v;
    });
    return {var, v, CS::kWitness};
  }
  template <class CS>
  static AllocatedNum alloc_input(CS& cs, const Fr& value) {
    return alloc_input(cs, [&] { return value; });
  }

  Variable variable() const { return var_; }
  // Meaningful only when known() (witness modes).
  const Fr& value() const { return value_; }
  bool known() const { return known_; }
  std::optional<Fr> get_value() const { return known_ ? std::optional<Fr>(value_) : std::nullopt; }

  // A public input equal to this: alloc_input, then input·1 = self.
  template <class CS>
  void inputize(CS& cs) const {
    const Variable input = cs.alloc_input([this]() -> const Fr& { return value_; });
    cs.enforce([&](LC& a) { a.add(input); }, [](LC& b) { b.add(kOne); }, [&](LC& c) { c.add(var_); });
  }

  // The 255 bits of the value, least significant first, and 0·0 = Σ 2^i·bit_i - self. Not a range check: the
  // bits of value + r pass too (bellpepper's non-strict decomposition, the one Filecoin uses).
  template <class CS>
  std::vector<Boolean> to_bits_le(CS& cs) const {
    const std::vector<AllocatedBit> bits = field_into_allocated_bits_le(cs, value_);
    enforce_unpacking(cs, bits);
    return {bits.begin(), bits.end()};
  }

  // The bits of the value, least significant first, constrained to be at most r - 1 (bellpepper's strict
  // decomposition: runs of ones of r - 1 are AND-ed, and a bit where r - 1 has a zero must be zero while the
  // higher bits equal r - 1's). Filecoin's circuits do not use it.
  template <class CS>
  std::vector<Boolean> to_bits_le_strict(CS& cs) const {
    ff::BigInt<4> r_minus_1 = Fr::modulus();
    r_minus_1.v[0] -= 1;  // the low limb of r is odd
    ff::BigInt<4> a{};
    if constexpr (CS::kWitness) a = value_.to_int();
    auto bit = [](const ff::BigInt<4>& x, std::size_t i) { return ((x.v[i / 64] >> (i % 64)) & 1) != 0; };

    std::vector<AllocatedBit> result;  // most significant first
    result.reserve(kFrNumBits);
    std::vector<AllocatedBit> current_run;
    std::optional<AllocatedBit> last_run;
    std::size_t top = 255;
    while (!bit(r_minus_1, top)) --top;
    for (std::size_t i = top + 1; i-- > 0;) {
      const bool a_bit = bit(a, i);
      if (bit(r_minus_1, i)) {
        const AllocatedBit x = AllocatedBit::alloc(cs, a_bit);
        current_run.push_back(x);
        result.push_back(x);
        continue;
      }
      if (!current_run.empty()) {
        if (last_run) current_run.push_back(*last_run);
        AllocatedBit cur = current_run[0];
        for (std::size_t k = 1; k < current_run.size(); ++k)
          cur = AllocatedBit::and_(cs, cur, current_run[k]);
        last_run = cur;
        current_run.clear();
      }
      result.push_back(AllocatedBit::alloc_conditionally(cs, a_bit, *last_run));
    }
    std::vector<AllocatedBit> le(result.rbegin(), result.rend());
    enforce_unpacking(cs, le);
    return {le.begin(), le.end()};
  }

  // self·other = product
  template <class CS>
  AllocatedNum mul(CS& cs, const AllocatedNum& other) const {
    const AllocatedNum p = alloc(cs, [&] { return value_ * other.value_; });
    cs.enforce([&](LC& a) { a.add(var_); }, [&](LC& b) { b.add(other.var_); }, [&](LC& c) { c.add(p.var_); });
    return p;
  }

  // self·self = square
  template <class CS>
  AllocatedNum square(CS& cs) const {
    const AllocatedNum s = alloc(cs, [&] { return value_.sqr(); });
    cs.enforce([&](LC& a) { a.add(var_); }, [&](LC& b) { b.add(var_); }, [&](LC& c) { c.add(s.var_); });
    return s;
  }

  // self·inverse = 1 (the inverse allocated first; a zero value is a SynthesisError).
  template <class CS>
  void assert_nonzero(CS& cs) const {
    const Variable inv = cs.alloc([&] {
      if (value_.is_zero())
        throw SynthesisError("AllocatedNum::assert_nonzero: the value is zero (division by zero)");
      return value_.inverse();
    });
    cs.enforce([&](LC& a) { a.add(var_); }, [&](LC& b) { b.add(inv); }, [](LC& c) { c.add(kOne); });
  }

  // (b, a) if condition, else (a, b): c = alloc, (a - b)·cond = a - c; d = alloc, (b - a)·cond = b - d.
  template <class CS>
  static std::pair<AllocatedNum, AllocatedNum> conditionally_reverse(CS& cs, const AllocatedNum& a,
                                                                     const AllocatedNum& b,
                                                                     const Boolean& condition) {
    const AllocatedNum c = alloc(cs, [&] { return condition.value() ? b.value_ : a.value_; });
    cs.enforce([&](LC& l) { l.add(a.var_).sub(b.var_); }, [&](LC& l) { condition.add_lc(l); },
               [&](LC& l) { l.add(a.var_).sub(c.var_); });
    const AllocatedNum d = alloc(cs, [&] { return condition.value() ? a.value_ : b.value_; });
    cs.enforce([&](LC& l) { l.add(b.var_).sub(a.var_); }, [&](LC& l) { condition.add_lc(l); },
               [&](LC& l) { l.add(b.var_).sub(d.var_); });
    return {c, d};
  }

 private:
  // 0·0 = Σ 2^i·bits[i] - self
  template <class CS>
  void enforce_unpacking(CS& cs, const std::vector<AllocatedBit>& bits) const {
    cs.enforce([](LC&) {}, [](LC&) {},
               [&](LC& c) {
                 for (std::size_t i = 0; i < bits.size(); ++i) c.add(bits[i].variable(), kPow2[i]);
                 c.sub(var_);
               });
  }

  Variable var_;
  Fr value_{};
  bool known_ = false;
};

// A linear combination with its value, for the constraint system CS: the combination exists only when CS
// builds rows, the value is meaningful only when it is known.
template <class CS>
class Num {
 public:
  static constexpr bool kRows = kBuildsRows<CS>;

  // Num::zero(): value 0 (known), no terms.
  Num() = default;
  static Num zero() { return {}; }
  explicit Num(const AllocatedNum& n) : value_(n.value()), known_(n.known()) {
    if constexpr (kRows) lc_.add(n.variable());
  }

  std::optional<Fr> get_value() const { return known_ ? std::optional<Fr>(value_) : std::nullopt; }
  const Fr& value() const { return value_; }
  bool known() const { return known_; }

  // self + coeff·bit
  Num& add_bool_with_coeff(const Boolean& bit, const Fr& coeff) {
    if (known_ && bit.known()) {
      if (bit.value()) value_ += coeff;
    } else {
      known_ = false;
    }
    if constexpr (kRows) bit.add_lc(lc_, coeff);
    return *this;
  }

  // self + other. As bellpepper-core 0.2.1: the value is known when either is (0.3 made it unknown unless
  // both).
  Num& add(const Num& other) {
    if (known_ && other.known_)
      value_ += other.value_;
    else if (other.known_)
      value_ = other.value_, known_ = true;
    if constexpr (kRows) lc_.add(other.lc_);
    return *this;
  }

  // Every coefficient and the value times `scalar`.
  Num& scale(const Fr& scalar) {
    if (known_) value_ *= scalar;
    if constexpr (kRows) {
      LC scaled(kCoefficientsOf<CS>);
      scaled.add(scalar, lc_);
      lc_ = std::move(scaled);
    }
    return *this;
  }

  // lc += coeff·self (bellpepper's `lc + (coeff, &num.lc)`; Num::lc(coeff) is this on an empty one). Call it
  // inside enforce's callbacks only: without rows there is no combination.
  void add_lc(LC& lc, const Fr& coeff) const {
    if constexpr (kRows) lc.add(coeff, lc_);
  }
  void add_lc(LC& lc) const { add_lc(lc, kFrOne); }
  const LC& lc() const requires kRows { return lc_; }

 private:
  struct NoLc {};
  Fr value_{};
  bool known_ = true;
  [[no_unique_address]] std::conditional_t<kRows, LC, NoLc> lc_ = [] {
    if constexpr (kRows)
      return LC(kCoefficientsOf<CS>);
    else
      return NoLc{};
  }();
};

}  // namespace cuzk::gadgets
