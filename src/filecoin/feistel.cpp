#include "filecoin/feistel.hpp"

#include <stdexcept>

#include "filecoin/blake2b.hpp"

namespace cuzk::filecoin {
namespace {

std::uint64_t round_function(std::uint64_t right, std::uint64_t key, std::uint64_t right_mask) {
  std::array<std::uint8_t, 16> data;
  for (int i = 0; i < 8; ++i) {
    data[i] = std::uint8_t(right >> (56 - 8 * i));
    data[8 + i] = std::uint8_t(key >> (56 - 8 * i));
  }
  const auto hash = Blake2b::hash512(data);
  std::uint64_t r = 0;
  for (int i = 0; i < 8; ++i) r = r << 8 | hash[i];
  return r & right_mask;
}

}  // namespace

FeistelParams feistel_precompute(std::uint64_t num_elements) {
  if (num_elements > (std::uint64_t(1) << 62)) throw std::invalid_argument("feistel: too many elements");
  std::uint64_t next_pow4 = 4;
  unsigned log4 = 1;
  while (next_pow4 < num_elements) {
    next_pow4 *= 4;
    ++log4;
  }
  const std::uint64_t right_mask = (std::uint64_t(1) << log4) - 1;
  return FeistelParams{right_mask << log4, right_mask, log4};
}

std::uint64_t feistel_encode(std::uint64_t index, const FeistelKeys& keys, const FeistelParams& params) {
  std::uint64_t left = (index & params.left_mask) >> params.half_bits;
  std::uint64_t right = index & params.right_mask;
  for (int i = 0; i < kFeistelRounds; ++i) {
    const std::uint64_t next_right = left ^ round_function(right, keys[i], params.right_mask);
    left = right;
    right = next_right;
  }
  return left << params.half_bits | right;
}

std::uint64_t feistel_decode(std::uint64_t index, const FeistelKeys& keys, const FeistelParams& params) {
  std::uint64_t left = (index & params.left_mask) >> params.half_bits;
  std::uint64_t right = index & params.right_mask;
  for (int i = kFeistelRounds - 1; i >= 0; --i) {
    const std::uint64_t next_left = right ^ round_function(left, keys[i], params.right_mask);
    right = left;
    left = next_left;
  }
  return left << params.half_bits | right;
}

std::uint64_t feistel_permute(std::uint64_t num_elements, std::uint64_t index, const FeistelKeys& keys,
                              const FeistelParams& params) {
  std::uint64_t u = feistel_encode(index, keys, params);
  while (u >= num_elements) u = feistel_encode(u, keys, params);
  return u;
}

std::uint64_t feistel_invert_permute(std::uint64_t num_elements, std::uint64_t index, const FeistelKeys& keys,
                                     const FeistelParams& params) {
  std::uint64_t u = feistel_decode(index, keys, params);
  while (u >= num_elements) u = feistel_decode(u, keys, params);
  return u;
}

}  // namespace cuzk::filecoin
