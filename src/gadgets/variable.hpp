// A variable of a bellpepper-style constraint system: an input (public, ONE is input 0) or an aux (private)
// variable, each numbered in allocation order. Bellperson's prover lays the witness out as inputs then aux,
// so a variable's column in the matrices is known only once synthesis has ended (the input count is final).
#pragma once

#include <cstdint>

#include "ff/bls12_381.hpp"

namespace cuzk::gadgets {

// Filecoin's circuits are over BLS12-381's scalar field.
using Fr = ff::bls12_381::Fr;

// As constants: Fr::one() evaluated where it is called (a default argument, say) computes R = 2^256 mod r
// by 256 modular doublings.
inline constexpr Fr kFrZero = Fr::zero();
inline constexpr Fr kFrOne = Fr::one();
inline constexpr Fr kFrMinusOne = -Fr::one();

class Variable {
 public:
  static constexpr std::uint32_t kInputBit = 1u << 31;

  constexpr Variable() = default;
  static constexpr Variable input(std::uint32_t i) { return Variable(i | kInputBit); }
  static constexpr Variable aux(std::uint32_t i) { return Variable(i); }

  constexpr bool is_input() const { return (raw_ & kInputBit) != 0; }
  constexpr std::uint32_t index() const { return raw_ & ~kInputBit; }
  // Inputs and aux in one number space (the input bit set for inputs): what the recorder stores until the
  // final input count is known.
  constexpr std::uint32_t raw() const { return raw_; }
  constexpr bool operator==(const Variable&) const = default;

 private:
  constexpr explicit Variable(std::uint32_t raw) : raw_(raw) {}
  std::uint32_t raw_ = 0;
};

// bellpepper's CS::one(): input 0, allocated by every constraint system before the circuit runs.
inline constexpr Variable kOne = Variable::input(0);

}  // namespace cuzk::gadgets
