// storage-proofs-core's UInt64 (gadgets/uint64.rs): 64 Booleans, least significant first. The PoRep circuit
// allocates the challenged node as one and packs it into a public input; the label hash reads it big-endian.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "gadgets/boolean.hpp"
#include "gadgets/multipack.hpp"

namespace cuzk::gadgets {

class UInt64 {
 public:
  using Bits = std::array<Boolean, 64>;

  static UInt64 constant(std::uint64_t value) {
    UInt64 r;
    for (int i = 0; i < 64; ++i) r.bits_[i] = Boolean::constant((value >> i) & 1);
    return r;
  }
  // 64 AllocatedBit::alloc, bit 0 first; `value` is read only when CS computes values.
  template <class CS>
  static UInt64 alloc(CS& cs, std::uint64_t value) {
    UInt64 r;
    for (int i = 0; i < 64; ++i) r.bits_[i] = AllocatedBit::alloc(cs, CS::kWitness && ((value >> i) & 1));
    return r;
  }

  const Bits& to_bits_le() const { return bits_; }
  Bits to_bits_be() const {
    Bits r;
    for (int i = 0; i < 64; ++i) r[i] = bits_[63 - i];
    return r;
  }
  // One public input (the 64 bits fit one 254-bit chunk) and its packing row.
  template <class CS>
  void pack_into_input(CS& cs) const {
    pack_into_inputs(cs, std::span<const Boolean>(bits_));
  }

 private:
  Bits bits_{};
};

}  // namespace cuzk::gadgets
