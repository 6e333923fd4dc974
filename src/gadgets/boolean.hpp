// bellpepper-core's boolean gadgets (gadgets/boolean.rs, version 0.2.1 as bellperson 0.27 uses it): every
// allocation and row in bellpepper's order, with its coefficients, and its constant folding (operations on
// constants allocate nothing). Facts and orders: docs/porting/bellpepper-gadgets.md.
//
// Values: an allocated bit's value is known only when the constraint system computes values (CS::kWitness);
// constants are always known, as in bellpepper's keygen (where every witness value is None). The folding
// depends only on which operands are constants, so every mode allocates and enforces the same.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <type_traits>
#include <vector>

#include "gadgets/constraint_system.hpp"

namespace cuzk::gadgets {

// Scalar::CAPACITY of BLS12-381's Fr: the bits any value of that many bits is sure to fit in (NUM_BITS - 1).
inline constexpr std::size_t kFrNumBits = 255;
inline constexpr std::size_t kFrCapacity = 254;

// Whether `cs.enforce` runs its callbacks, i.e. whether a gadget should assemble linear combinations that it
// keeps across calls (MultiEq, Num). A constraint system may say so with `static constexpr bool kRows`; the
// ones without it build rows unless they only compute values, except the recorder that keeps values too.
template <class CS>
inline constexpr bool kBuildsRows = [] {
  if constexpr (requires { CS::kRows; })
    return static_cast<bool>(CS::kRows);
  else if constexpr (std::is_same_v<CS, RecordCS<true>>)
    return true;
  else
    return !CS::kWitness;
}();

inline constexpr const Fr& fr_bool(bool b) {
  return b ? kFrOne : kFrZero;
}

// −2 … 2: every value a bit gadget's row can take (a difference or a double of bits).
inline constexpr std::array<Fr, 5> kSmallFr = {-Fr::one().dbl(), -Fr::one(), Fr::zero(), Fr::one(),
                                               Fr::one().dbl()};
inline const Fr& small_fr(int v) {
  return kSmallFr[static_cast<std::size_t>(v + 2)];
}

// Whether a constraint system takes rows as values the gadget computed (EvaluationSlice::enforce_computed).
// The bit gadgets then write each of their rows' a, b and c from the bits' values, without building the
// row's combinations or checking it: every such row holds by construction, its result bit computed from
// the same bits. (A SHA-256-heavy synthesis spends most of its time in those combinations otherwise.) Rows
// that compare values from different sources (Boolean::enforce_equal, alloc_conditionally) always go
// through enforce and its check.
template <class CS>
concept ComputedRows = requires(CS& cs, const Fr& x) {
  cs.enforce_computed(x, x, x);
};

// 2^i for i < 256: the packing coefficients of every bit gadget.
inline constexpr std::array<Fr, 256> kPow2 = [] {
  std::array<Fr, 256> t{};
  t[0] = Fr::one();
  for (std::size_t k = 1; k < t.size(); ++k) t[k] = t[k - 1].dbl();
  return t;
}();

// A variable constrained to 0 or 1.
class AllocatedBit {
 public:
  Variable variable() const { return var_; }
  // The variable's value; meaningful only when known (witness modes).
  bool value() const { return value_; }
  bool known() const { return known_; }
  std::optional<bool> get_value() const { return known_ ? std::optional<bool>(value_) : std::nullopt; }

  // (1 - x)·x = 0
  template <class CS>
  static AllocatedBit alloc(CS& cs, bool value) {
    const Variable x = alloc_var(cs, value);
    if constexpr (ComputedRows<CS>)
      cs.enforce_computed(fr_bool(!value), fr_bool(value), kFrZero);
    else
      cs.enforce([&](LC& a) { a.add(kOne).sub(x); }, [&](LC& b) { b.add(x); }, [](LC&) {});
    return {x, value, CS::kWitness};
  }

  // (1 - must_be_false - x)·x = 0: a boolean that must be 0 when must_be_false is 1.
  template <class CS>
  static AllocatedBit alloc_conditionally(CS& cs, bool value, const AllocatedBit& must_be_false) {
    const Variable x = alloc_var(cs, value);
    cs.enforce([&](LC& a) { a.add(kOne).sub(must_be_false.var_).sub(x); }, [&](LC& b) { b.add(x); },
               [](LC&) {});
    return {x, value, CS::kWitness};
  }

  // (a + a)·b = a + b - c
  template <class CS>
  static AllocatedBit xor_(CS& cs, const AllocatedBit& a, const AllocatedBit& b) {
    const bool v = a.value_ != b.value_;
    const Variable c = alloc_var(cs, v);
    if constexpr (ComputedRows<CS>)  // a + b − (a ⊕ b) = 2ab
      cs.enforce_computed(small_fr(2 * a.value_), fr_bool(b.value_), small_fr(2 * (a.value_ && b.value_)));
    else
      cs.enforce([&](LC& l) { l.add(a.var_).add(a.var_); }, [&](LC& l) { l.add(b.var_); },
                 [&](LC& l) { l.add(a.var_).add(b.var_).sub(c); });
    return {c, v, CS::kWitness};
  }

  // a·b = c
  template <class CS>
  static AllocatedBit and_(CS& cs, const AllocatedBit& a, const AllocatedBit& b) {
    const bool v = a.value_ && b.value_;
    const Variable c = alloc_var(cs, v);
    if constexpr (ComputedRows<CS>)
      cs.enforce_computed(fr_bool(a.value_), fr_bool(b.value_), fr_bool(v));
    else
      cs.enforce([&](LC& l) { l.add(a.var_); }, [&](LC& l) { l.add(b.var_); }, [&](LC& l) { l.add(c); });
    return {c, v, CS::kWitness};
  }

  // a·(1 - b) = c: a and not b
  template <class CS>
  static AllocatedBit and_not(CS& cs, const AllocatedBit& a, const AllocatedBit& b) {
    const bool v = a.value_ && !b.value_;
    const Variable c = alloc_var(cs, v);
    if constexpr (ComputedRows<CS>)
      cs.enforce_computed(fr_bool(a.value_), fr_bool(!b.value_), fr_bool(v));
    else
      cs.enforce([&](LC& l) { l.add(a.var_); }, [&](LC& l) { l.add(kOne).sub(b.var_); },
                 [&](LC& l) { l.add(c); });
    return {c, v, CS::kWitness};
  }

  // (1 - a)·(1 - b) = c: not a and not b
  template <class CS>
  static AllocatedBit nor(CS& cs, const AllocatedBit& a, const AllocatedBit& b) {
    const bool v = !a.value_ && !b.value_;
    const Variable c = alloc_var(cs, v);
    if constexpr (ComputedRows<CS>)
      cs.enforce_computed(fr_bool(!a.value_), fr_bool(!b.value_), fr_bool(v));
    else
      cs.enforce([&](LC& l) { l.add(kOne).sub(a.var_); }, [&](LC& l) { l.add(kOne).sub(b.var_); },
                 [&](LC& l) { l.add(c); });
    return {c, v, CS::kWitness};
  }

  AllocatedBit() = default;
  AllocatedBit(Variable var, bool value, bool known) : var_(var), value_(value), known_(known) {}

 private:
  template <class CS>
  static Variable alloc_var(CS& cs, bool value) {
    return cs.alloc([value]() -> const Fr& { return fr_bool(value); });
  }

  Variable var_;
  bool value_ = false;
  bool known_ = false;
};

// A constant, or a view (itself or its negation) of an allocated bit.
class Boolean {
 public:
  enum class Kind : std::uint8_t { kConstant, kIs, kNot };

  Boolean() = default;  // Constant(false)
  Boolean(const AllocatedBit& b)
      : var_(b.variable()), value_(b.value()), known_(b.known()), kind_(Kind::kIs) {}
  static Boolean constant(bool b) {
    Boolean r;
    r.value_ = b;
    return r;
  }

  Kind kind() const { return kind_; }
  bool is_constant() const { return kind_ == Kind::kConstant; }
  bool is_true_constant() const { return kind_ == Kind::kConstant && value_; }
  bool is_false_constant() const { return kind_ == Kind::kConstant && !value_; }
  // The allocated bit behind an Is or a Not view.
  AllocatedBit bit() const { return {var_, value_, known_}; }
  Variable variable() const { return var_; }
  bool known() const { return kind_ == Kind::kConstant || known_; }
  // The boolean's value (a Not view negates its bit); meaningful only when known().
  bool value() const { return kind_ == Kind::kNot ? !value_ : value_; }
  std::optional<bool> get_value() const { return known() ? std::optional<bool>(value()) : std::nullopt; }

  Boolean not_() const {
    Boolean r = *this;
    if (kind_ == Kind::kConstant)
      r.value_ = !value_;
    else
      r.kind_ = kind_ == Kind::kIs ? Kind::kNot : Kind::kIs;
    return r;
  }

  // lc += coeff·self (bellpepper's `lc + &self.lc(one, coeff)`).
  void add_lc(LC& lc, const Fr& coeff) const {
    switch (kind_) {
      case Kind::kConstant:
        if (value_) lc.add(kOne, coeff);
        break;
      case Kind::kIs:
        lc.add(var_, coeff);
        break;
      case Kind::kNot:
        lc.add(kOne, coeff).sub(var_, coeff);
        break;
    }
  }
  void add_lc(LC& lc) const { add_lc(lc, kFrOne); }
  // lc -= coeff·self
  void sub_lc(LC& lc, const Fr& coeff) const { add_lc(lc, -coeff); }
  void sub_lc(LC& lc) const { add_lc(lc, kFrMinusOne); }

  // Constant(false) ⊕ x = x, Constant(true) ⊕ x = ¬x; a ⊕ ¬b = ¬(a ⊕ b); ¬a ⊕ ¬b = a ⊕ b.
  template <class CS>
  static Boolean xor_(CS& cs, const Boolean& a, const Boolean& b) {
    if (a.is_false_constant()) return b;
    if (b.is_false_constant()) return a;
    if (a.is_true_constant()) return b.not_();
    if (b.is_true_constant()) return a.not_();
    if (a.kind_ == b.kind_) return AllocatedBit::xor_(cs, a.bit(), b.bit());
    // The Is side is AllocatedBit::xor's first (doubled) operand.
    const Boolean& is = a.kind_ == Kind::kIs ? a : b;
    const Boolean& nt = a.kind_ == Kind::kIs ? b : a;
    return Boolean(AllocatedBit::xor_(cs, is.bit(), nt.bit())).not_();
  }

  template <class CS>
  static Boolean and_(CS& cs, const Boolean& a, const Boolean& b) {
    if (a.is_false_constant() || b.is_false_constant()) return constant(false);
    if (a.is_true_constant()) return b;
    if (b.is_true_constant()) return a;
    if (a.kind_ == Kind::kIs && b.kind_ == Kind::kNot) return AllocatedBit::and_not(cs, a.bit(), b.bit());
    if (a.kind_ == Kind::kNot && b.kind_ == Kind::kIs) return AllocatedBit::and_not(cs, b.bit(), a.bit());
    if (a.kind_ == Kind::kNot) return AllocatedBit::nor(cs, a.bit(), b.bit());
    return AllocatedBit::and_(cs, a.bit(), b.bit());
  }

  // bellpepper-core ≥ 0.3 only (not in the 0.2.1 Filecoin runs): ¬(¬a ∧ ¬b).
  template <class CS>
  static Boolean or_(CS& cs, const Boolean& a, const Boolean& b) {
    return and_(cs, a.not_(), b.not_()).not_();
  }

  // Enforces a = b with one row 0·0 = lc(a) - lc(b) (no row for two constants; unequal constants throw).
  template <class CS>
  static void enforce_equal(CS& cs, const Boolean& a, const Boolean& b) {
    if (a.is_constant() && b.is_constant()) {
      if (a.value_ != b.value_)
        throw SynthesisError("Boolean::enforce_equal: unequal constants (unsatisfiable)");
      return;
    }
    auto none = [](LC&) {};
    if (a.is_true_constant() || b.is_true_constant()) {
      const Boolean& x = a.is_true_constant() ? b : a;
      cs.enforce(none, none, [&](LC& c) {
        c.add(kOne);
        x.sub_lc(c);
      });
    } else if (a.is_false_constant() || b.is_false_constant()) {
      const Boolean& x = a.is_false_constant() ? b : a;
      cs.enforce(none, none, [&](LC& c) { x.add_lc(c); });
    } else {
      cs.enforce(none, none, [&](LC& c) {
        a.add_lc(c);
        b.sub_lc(c);
      });
    }
  }

  // (a ∧ b) ⊕ (¬a ∧ c)
  template <class CS>
  static Boolean sha256_ch(CS& cs, const Boolean& a, const Boolean& b, const Boolean& c) {
    if (a.is_constant() && b.is_constant() && c.is_constant())
      return constant(ch(a.value(), b.value(), c.value()));
    if (a.is_false_constant()) return c;
    if (b.is_false_constant()) return and_(cs, a.not_(), c);
    if (c.is_false_constant()) return and_(cs, a, b);
    if (c.is_true_constant()) return and_(cs, a, b.not_()).not_();
    if (b.is_true_constant()) return and_(cs, a.not_(), c.not_()).not_();
    // a is Constant(true) or allocated, b and c allocated.
    const bool v = ch(a.value(), b.value(), c.value());
    const Variable chv = cs.alloc([v]() -> const Fr& { return fr_bool(v); });
    // a·(b - c) = ch - c
    if constexpr (ComputedRows<CS>) {
      cs.enforce_computed(small_fr(int{b.value()} - int{c.value()}), fr_bool(a.value()),
                          small_fr(int{v} - int{c.value()}));
      return AllocatedBit(chv, v, CS::kWitness);
    }
    cs.enforce(
        [&](LC& l) {
          b.add_lc(l);
          c.sub_lc(l);
        },
        [&](LC& l) { a.add_lc(l); },
        [&](LC& l) {
          l.add(chv);
          c.sub_lc(l);
        });
    return AllocatedBit(chv, v, CS::kWitness);
  }

  // (a ∧ b) ⊕ (a ∧ c) ⊕ (b ∧ c)
  template <class CS>
  static Boolean sha256_maj(CS& cs, const Boolean& a, const Boolean& b, const Boolean& c) {
    if (a.is_constant() && b.is_constant() && c.is_constant())
      return constant(maj(a.value(), b.value(), c.value()));
    if (a.is_false_constant()) return and_(cs, b, c);
    if (b.is_false_constant()) return and_(cs, a, c);
    if (c.is_false_constant()) return and_(cs, a, b);
    if (c.is_true_constant()) return and_(cs, a.not_(), b.not_()).not_();
    if (b.is_true_constant()) return and_(cs, a.not_(), c.not_()).not_();
    if (a.is_true_constant()) return and_(cs, b.not_(), c.not_()).not_();
    const bool v = maj(a.value(), b.value(), c.value());
    // bellpepper allocates maj before its helper b ∧ c.
    const Variable majv = cs.alloc([v]() -> const Fr& { return fr_bool(v); });
    const Boolean bc = and_(cs, b, c);
    // (2bc - b - c)·a = bc - maj
    if constexpr (ComputedRows<CS>) {
      cs.enforce_computed(small_fr(2 * int{bc.value()} - int{b.value()} - int{c.value()}), fr_bool(a.value()),
                          small_fr(int{bc.value()} - int{v}));
      return AllocatedBit(majv, v, CS::kWitness);
    }
    cs.enforce(
        [&](LC& l) {
          bc.add_lc(l);
          bc.add_lc(l);
          b.sub_lc(l);
          c.sub_lc(l);
        },
        [&](LC& l) { a.add_lc(l); },
        [&](LC& l) {
          bc.add_lc(l);
          l.sub(majv);
        });
    return AllocatedBit(majv, v, CS::kWitness);
  }

 private:
  static bool ch(bool a, bool b, bool c) { return (a && b) != (!a && c); }
  static bool maj(bool a, bool b, bool c) { return ((a && b) != (a && c)) != (b && c); }

  Variable var_;
  bool value_ = false;  // the constant, or the allocated bit's value (before a Not)
  bool known_ = false;  // the allocated bit's value is known
  Kind kind_ = Kind::kConstant;
};

// 64 allocated bits of `value`, least significant first.
template <class CS>
std::vector<Boolean> u64_into_boolean_vec_le(CS& cs, std::uint64_t value) {
  std::vector<Boolean> bits;
  bits.reserve(64);
  for (int i = 0; i < 64; ++i) bits.push_back(AllocatedBit::alloc(cs, (value >> i) & 1));
  return bits;
}

// The 255 bits of `value`'s canonical integer, allocated least significant first (no range check).
template <class CS>
std::vector<AllocatedBit> field_into_allocated_bits_le(CS& cs, const Fr& value) {
  std::vector<AllocatedBit> bits;
  bits.reserve(kFrNumBits);
  ff::BigInt<4> v{};
  if constexpr (CS::kWitness) v = value.to_int();
  for (std::size_t i = 0; i < kFrNumBits; ++i)
    bits.push_back(AllocatedBit::alloc(cs, (v.v[i / 64] >> (i % 64)) & 1));
  return bits;
}

template <class CS>
std::vector<Boolean> field_into_boolean_vec_le(CS& cs, const Fr& value) {
  const std::vector<AllocatedBit> bits = field_into_allocated_bits_le(cs, value);
  return {bits.begin(), bits.end()};
}

}  // namespace cuzk::gadgets
