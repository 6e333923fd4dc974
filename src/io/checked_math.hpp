// Overflow-safe size arithmetic for values taken from untrusted files.
//
// Counts in snarkjs files are u32 and sizes u64; a product such as count × pointSize or a sum such as
// offset + size can wrap around and turn a hostile file into an out-of-bounds read. Every such
// computation in the readers goes through these helpers, which return nullopt on overflow.
#pragma once

#include <cstdint>
#include <optional>

namespace cuzk::io {

inline std::optional<std::uint64_t> checked_mul(std::uint64_t a, std::uint64_t b) {
  std::uint64_t r;
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}

inline std::optional<std::uint64_t> checked_add(std::uint64_t a, std::uint64_t b) {
  std::uint64_t r;
  if (__builtin_add_overflow(a, b, &r)) return std::nullopt;
  return r;
}

}  // namespace cuzk::io
