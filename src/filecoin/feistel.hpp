// The Feistel permutation behind SDR's expander parents (storage-proofs-core crypto/feistel.rs): a
// 3-round balanced Feistel network on an even number of bits, cycle-walked into [0, num_elements).
#pragma once

#include <array>
#include <cstdint>

namespace cuzk::filecoin {

inline constexpr int kFeistelRounds = 3;
// Four keys are derived (sdr_graph's derive_feistel_keys); the three rounds use keys[0..2].
using FeistelKeys = std::array<std::uint64_t, 4>;

struct FeistelParams {
  std::uint64_t left_mask;
  std::uint64_t right_mask;
  unsigned half_bits;
};

// half_bits = the smallest h >= 1 with 4^h >= num_elements: indices are split into two h-bit halves.
FeistelParams feistel_precompute(std::uint64_t num_elements);

// One pass of the network over 2 * half_bits bits (a permutation of [0, 4^half_bits)). Round i:
// (L, R) <- (R, L ^ F(R, keys[i])), F(R, K) = the first 8 bytes of BLAKE2b-512(R as u64 BE || K as u64 BE),
// read big-endian, masked to half_bits bits.
std::uint64_t feistel_encode(std::uint64_t index, const FeistelKeys& keys, const FeistelParams& params);
std::uint64_t feistel_decode(std::uint64_t index, const FeistelKeys& keys, const FeistelParams& params);

// encode, repeated until the value falls below num_elements (so a permutation of [0, num_elements)).
std::uint64_t feistel_permute(std::uint64_t num_elements, std::uint64_t index, const FeistelKeys& keys,
                              const FeistelParams& params);
std::uint64_t feistel_invert_permute(std::uint64_t num_elements, std::uint64_t index, const FeistelKeys& keys,
                                     const FeistelParams& params);

}  // namespace cuzk::filecoin
