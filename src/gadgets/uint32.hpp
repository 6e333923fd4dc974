// bellperson's UInt32 (gadgets/uint32.rs): 32 Booleans, least significant first, and the u32 value when it
// is known (bellpepper's Option<u32>: unknown as soon as one bit is an allocated bit whose value is not, i.e.
// in shape and record modes; constants are always known). The value decides one folding: addmany of
// all-constant operands returns a constant only if the sum is known, as in bellpepper.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <span>

#include "gadgets/boolean.hpp"
#include "gadgets/multieq.hpp"

namespace cuzk::gadgets {

class UInt32 {
 public:
  using Bits = std::array<Boolean, 32>;

  UInt32() = default;  // the constant 0

  static UInt32 constant(std::uint32_t value) {
    UInt32 r;
    for (int i = 0; i < 32; ++i) r.bits_[i] = Boolean::constant((value >> i) & 1);
    r.value_ = value;
    return r;
  }

  // 32 AllocatedBit::alloc, bit 0 first. `value` is read only when CS computes values.
  template <class CS>
  static UInt32 alloc(CS& cs, std::uint32_t value) {
    UInt32 r;
    for (int i = 0; i < 32; ++i) r.bits_[i] = AllocatedBit::alloc(cs, (value >> i) & 1);
    if constexpr (CS::kWitness)
      r.value_ = value;
    else
      r.value_.reset();
    return r;
  }

  // Bit 0 (least significant) first.
  const Bits& into_bits() const { return bits_; }
  // Most significant first.
  Bits into_bits_be() const {
    Bits r;
    for (int i = 0; i < 32; ++i) r[i] = bits_[31 - i];
    return r;
  }
  // `bits` least significant first.
  static UInt32 from_bits(std::span<const Boolean> bits) { return from_lsb_first(bits, false); }
  // `bits` most significant first.
  static UInt32 from_bits_be(std::span<const Boolean> bits) { return from_lsb_first(bits, true); }

  const Bits& bits() const { return bits_; }
  std::optional<std::uint32_t> value() const { return value_; }

  UInt32 rotr(std::size_t by) const {
    by %= 32;
    UInt32 r;
    for (std::size_t i = 0; i < 32; ++i) r.bits_[i] = bits_[(i + by) % 32];
    r.value_ = value_ ? std::optional<std::uint32_t>(std::rotr(*value_, static_cast<int>(by))) : std::nullopt;
    return r;
  }

  // As bellpepper: the shift is taken mod 32 (shr(32) is the identity).
  UInt32 shr(std::size_t by) const {
    by %= 32;
    UInt32 r;
    for (std::size_t i = 0; i + by < 32; ++i) r.bits_[i] = bits_[i + by];
    r.value_ = value_ ? std::optional<std::uint32_t>(*value_ >> by) : std::nullopt;
    return r;
  }

  // Boolean::xor bit by bit, bit 0 first.
  template <class CS>
  UInt32 xor_(CS& cs, const UInt32& other) const {
    UInt32 r;
    for (int i = 0; i < 32; ++i) r.bits_[i] = Boolean::xor_(cs, bits_[i], other.bits_[i]);
    r.value_ = both(value_, other.value_, [](std::uint32_t a, std::uint32_t b) { return a ^ b; });
    return r;
  }

  // (a ∧ b) ⊕ (a ∧ c) ⊕ (b ∧ c), Boolean::sha256_maj bit by bit, bit 0 first.
  template <class CS>
  static UInt32 sha256_maj(CS& cs, const UInt32& a, const UInt32& b, const UInt32& c) {
    UInt32 r;
    for (int i = 0; i < 32; ++i) r.bits_[i] = Boolean::sha256_maj(cs, a.bits_[i], b.bits_[i], c.bits_[i]);
    if (a.value_ && b.value_ && c.value_)
      r.value_ = (*a.value_ & *b.value_) ^ (*a.value_ & *c.value_) ^ (*b.value_ & *c.value_);
    else
      r.value_.reset();
    return r;
  }

  // (a ∧ b) ⊕ (¬a ∧ c), Boolean::sha256_ch bit by bit, bit 0 first.
  template <class CS>
  static UInt32 sha256_ch(CS& cs, const UInt32& a, const UInt32& b, const UInt32& c) {
    UInt32 r;
    for (int i = 0; i < 32; ++i) r.bits_[i] = Boolean::sha256_ch(cs, a.bits_[i], b.bits_[i], c.bits_[i]);
    if (a.value_ && b.value_ && c.value_)
      r.value_ = (*a.value_ & *b.value_) ^ (~*a.value_ & *c.value_);
    else
      r.value_.reset();
    return r;
  }

  // The sum mod 2^32 of 2 to 10 operands. Unless all are constants (then a constant), allocates the
  // bit_width(n·(2^32 - 1)) bits of the full sum, bit 0 first, and enforces Σ operands = Σ 2^i·bit_i
  // through the MultiEq; the carries beyond bit 31 stay allocated and are dropped.
  template <class CS>
  static UInt32 addmany(MultiEq<CS>& cs, std::span<const UInt32> operands) {
    if (operands.size() < 2 || operands.size() > 10)
      throw SynthesisError("UInt32::addmany: " + std::to_string(operands.size()) +
                           " operands (2 to 10 allowed)");
    const std::uint64_t max_value = operands.size() * std::uint64_t{0xffffffff};
    std::uint64_t sum = 0;
    bool sum_known = true;
    bool all_constants = true;
    for (const UInt32& op : operands) {
      if (op.value_)
        sum += *op.value_;
      else
        sum_known = false;
      for (const Boolean& b : op.bits_) all_constants &= b.is_constant();
    }
    if (all_constants && sum_known) return constant(static_cast<std::uint32_t>(sum));

    const std::size_t n_bits = static_cast<std::size_t>(std::bit_width(max_value));
    std::array<Variable, 64> result{};
    UInt32 r;
    for (std::size_t i = 0; i < n_bits; ++i) {
      const AllocatedBit b = AllocatedBit::alloc(cs, (sum >> i) & 1);
      result[i] = b.variable();
      if (i < 32) r.bits_[i] = b;
    }
    if constexpr (ComputedRows<CS>) {
      // The sum is known (values are computed): both sides of the equality are it.
      if (!sum_known)
        throw SynthesisError("UInt32::addmany: an operand's value is unknown while computing rows");
      cs.enforce_equal_known(n_bits, sum);
    } else {
      cs.enforce_equal(
          n_bits,
          [&](LC& lhs) {
            for (const UInt32& op : operands)
              for (std::size_t i = 0; i < 32; ++i) op.bits_[i].add_lc(lhs, kPow2[i]);
          },
          [&](LC& rhs) {
            for (std::size_t i = 0; i < n_bits; ++i) rhs.add(result[i], kPow2[i]);
          });
    }
    if (sum_known)
      r.value_ = static_cast<std::uint32_t>(sum);
    else
      r.value_.reset();
    return r;
  }

 private:
  template <class F>
  static std::optional<std::uint32_t> both(std::optional<std::uint32_t> a, std::optional<std::uint32_t> b,
                                           F f) {
    if (a && b) return f(*a, *b);
    return std::nullopt;
  }

  static UInt32 from_lsb_first(std::span<const Boolean> bits, bool msb_first) {
    if (bits.size() != 32)
      throw SynthesisError("UInt32::from_bits: " + std::to_string(bits.size()) + " bits, not 32");
    UInt32 r;
    std::uint32_t v = 0;
    bool known = true;
    for (int i = 0; i < 32; ++i) {
      const Boolean& b = bits[msb_first ? 31 - i : i];
      r.bits_[i] = b;
      if (!b.known())
        known = false;
      else if (b.value())
        v |= std::uint32_t{1} << i;
    }
    if (known)
      r.value_ = v;
    else
      r.value_.reset();
    return r;
  }

  Bits bits_{};
  std::optional<std::uint32_t> value_ = 0;
};

}  // namespace cuzk::gadgets
