#include "filecoin/chacha.hpp"

#include <bit>
#include <stdexcept>

namespace cuzk::filecoin {
namespace {

std::uint32_t load_le32(const std::uint8_t* p) {
  return std::uint32_t(p[0]) | std::uint32_t(p[1]) << 8 | std::uint32_t(p[2]) << 16 |
         std::uint32_t(p[3]) << 24;
}

void quarter_round(ChaChaBlock& x, int a, int b, int c, int d) {
  x[a] += x[b];
  x[d] = std::rotl(x[d] ^ x[a], 16);
  x[c] += x[d];
  x[b] = std::rotl(x[b] ^ x[c], 12);
  x[a] += x[b];
  x[d] = std::rotl(x[d] ^ x[a], 8);
  x[c] += x[d];
  x[b] = std::rotl(x[b] ^ x[c], 7);
}

}  // namespace

ChaChaBlock chacha_block(const ChaChaBlock& input, int rounds) {
  if (rounds <= 0 || rounds % 2 != 0) throw std::invalid_argument("chacha_block: rounds must be even");
  ChaChaBlock x = input;
  for (int r = 0; r < rounds; r += 2) {
    quarter_round(x, 0, 4, 8, 12);  // columns
    quarter_round(x, 1, 5, 9, 13);
    quarter_round(x, 2, 6, 10, 14);
    quarter_round(x, 3, 7, 11, 15);
    quarter_round(x, 0, 5, 10, 15);  // diagonals
    quarter_round(x, 1, 6, 11, 12);
    quarter_round(x, 2, 7, 8, 13);
    quarter_round(x, 3, 4, 9, 14);
  }
  for (int i = 0; i < 16; ++i) x[i] += input[i];
  return x;
}

ChaChaBlock chacha_key_setup(std::span<const std::uint8_t, 32> key) {
  static constexpr char kSigma[] = "expand 32-byte k";
  ChaChaBlock input{};
  for (int i = 0; i < 4; ++i) input[i] = load_le32(reinterpret_cast<const std::uint8_t*>(kSigma) + 4 * i);
  for (int i = 0; i < 8; ++i) input[4 + i] = load_le32(key.data() + 4 * i);
  return input;
}

ChaCha8Rng::ChaCha8Rng(std::span<const std::uint8_t, 32> seed) : input_(chacha_key_setup(seed)) {}

std::uint32_t ChaCha8Rng::next_u32() {
  if (used_ == block_.size()) {
    block_ = chacha_block(input_, 8);
    // Words 12 and 13 are the 64-bit block counter (low word first); 14 and 15 the stream id, 0.
    if (++input_[12] == 0) ++input_[13];
    used_ = 0;
  }
  return block_[used_++];
}

std::uint64_t ChaCha8Rng::next_u64() {
  const std::uint64_t low = next_u32();
  return low | std::uint64_t(next_u32()) << 32;
}

ChaCha20::ChaCha20(std::span<const std::uint8_t, 32> key, std::span<const std::uint8_t, 12> nonce)
    : input_(chacha_key_setup(key)) {
  // Word 12 is the 32-bit block counter; 13..15 the nonce.
  for (int i = 0; i < 3; ++i) input_[13 + i] = load_le32(nonce.data() + 4 * i);
}

void ChaCha20::seek(std::uint64_t offset) {
  if (offset > (std::uint64_t(1) << 32) * 64) throw std::out_of_range("ChaCha20::seek: past the keystream");
  position_ = offset;
}

void ChaCha20::apply_keystream(std::span<std::uint8_t> bytes) {
  if (position_ + bytes.size() > (std::uint64_t(1) << 32) * 64) {
    throw std::out_of_range("ChaCha20: keystream exhausted");
  }
  std::size_t i = 0;
  while (i < bytes.size()) {
    ChaChaBlock input = input_;
    input[12] = std::uint32_t(position_ / 64);
    const ChaChaBlock block = chacha_block(input, 20);
    for (std::size_t in_block = position_ % 64; in_block < 64 && i < bytes.size(); ++in_block, ++i) {
      bytes[i] ^= std::uint8_t(block[in_block / 4] >> (8 * (in_block % 4)));
      ++position_;
    }
  }
}

}  // namespace cuzk::filecoin
