// bellperson's multipack (gadgets/multipack.rs): bits packed into field elements, 254 (Fr's capacity) to an
// element, least significant first, as public inputs (pack_into_inputs, with compute_multipacking giving the
// verifier's side) or as one aux number (pack_bits).
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "gadgets/boolean.hpp"
#include "gadgets/num.hpp"

namespace cuzk::gadgets {

namespace multipack_detail {

template <class CS>
Num<CS> pack(std::span<const Boolean> bits) {
  Num<CS> num;
  for (std::size_t i = 0; i < bits.size(); ++i) num.add_bool_with_coeff(bits[i], kPow2[i]);
  return num;
}

}  // namespace multipack_detail

// Per 254-bit chunk: a public input equal to Σ 2^i·bit_i, and the row (Σ 2^i·bit_i)·1 = input.
template <class CS>
void pack_into_inputs(CS& cs, std::span<const Boolean> bits) {
  for (std::size_t start = 0; start < bits.size(); start += kFrCapacity) {
    const Num<CS> num =
        multipack_detail::pack<CS>(bits.subspan(start, std::min(kFrCapacity, bits.size() - start)));
    const Variable input = cs.alloc_input([&]() -> const Fr& { return num.value(); });
    cs.enforce([&](LC& a) { num.add_lc(a); }, [](LC& b) { b.add(kOne); }, [&](LC& c) { c.add(input); });
  }
}

// The first 254 bits (any beyond are ignored, as in bellperson) as one aux number, with the row
// (Σ 2^i·bit_i)·1 = number.
template <class CS>
AllocatedNum pack_bits(CS& cs, std::span<const Boolean> bits) {
  const Num<CS> num = multipack_detail::pack<CS>(bits.first(std::min(kFrCapacity, bits.size())));
  const AllocatedNum n = AllocatedNum::alloc(cs, [&] { return num.value(); });
  cs.enforce([&](LC& a) { num.add_lc(a); }, [](LC& b) { b.add(kOne); }, [&](LC& c) { c.add(n.variable()); });
  return n;
}

// Each byte's bits, most significant first.
inline std::vector<bool> bytes_to_bits(std::span<const std::uint8_t> bytes) {
  std::vector<bool> out;
  out.reserve(8 * bytes.size());
  for (std::uint8_t b : bytes)
    for (int i = 7; i >= 0; --i) out.push_back((b >> i) & 1);
  return out;
}

// Each byte's bits, least significant first.
inline std::vector<bool> bytes_to_bits_le(std::span<const std::uint8_t> bytes) {
  std::vector<bool> out;
  out.reserve(8 * bytes.size());
  for (std::uint8_t b : bytes)
    for (int i = 0; i < 8; ++i) out.push_back((b >> i) & 1);
  return out;
}

// The public inputs pack_into_inputs creates for these bits.
inline std::vector<Fr> compute_multipacking(const std::vector<bool>& bits) {
  std::vector<Fr> out;
  for (std::size_t start = 0; start < bits.size(); start += kFrCapacity) {
    Fr cur = Fr::zero();
    for (std::size_t i = start; i < std::min(bits.size(), start + kFrCapacity); ++i)
      if (bits[i]) cur += kPow2[i - start];
    out.push_back(cur);
  }
  return out;
}

}  // namespace cuzk::gadgets
