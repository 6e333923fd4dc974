// ChaCha (D. J. Bernstein), our own implementation, in the two forms Filecoin uses:
// - ChaCha8Rng: rand_chacha 0.3's ChaCha8Rng::from_seed, the RNG that samples SDR's DRG parents
//   (8 rounds, the seed as key, 64-bit block counter from 0, 64-bit stream id 0);
// - ChaCha20: RFC 8439 (the chacha20 crate's ChaCha20), the PRF of synthetic PoRep challenges
//   (20 rounds, 96-bit nonce, 32-bit block counter from 0).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

namespace cuzk::filecoin {

using ChaChaBlock = std::array<std::uint32_t, 16>;

// The block function: `rounds` (even) rounds over `input`, then input added word by word. Input words:
// 0..3 "expand 32-byte k", 4..11 the key (little-endian words), 12..15 counter and nonce.
ChaChaBlock chacha_block(const ChaChaBlock& input, int rounds);
// Words 0..11 of the input for a 32-byte key; 12..15 left zero.
ChaChaBlock chacha_key_setup(std::span<const std::uint8_t, 32> key);

class ChaCha8Rng {
 public:
  explicit ChaCha8Rng(std::span<const std::uint8_t, 32> seed);
  // The keystream as little-endian u32 words, in order.
  std::uint32_t next_u32();
  // Two consecutive words, the first one low (rand_core's BlockRng::next_u64; the same across refills).
  std::uint64_t next_u64();

 private:
  ChaChaBlock input_;
  ChaChaBlock block_{};
  std::size_t used_ = 16;  // words of block_ already returned
};

class ChaCha20 {
 public:
  ChaCha20(std::span<const std::uint8_t, 32> key, std::span<const std::uint8_t, 12> nonce);
  // Moves to keystream byte `offset` (the chacha20 crate's try_seek). Throws std::out_of_range past the
  // 2^32 blocks of the 32-bit counter.
  void seek(std::uint64_t offset);
  // XORs the keystream into `bytes` and advances (on zeros this writes the keystream itself).
  void apply_keystream(std::span<std::uint8_t> bytes);

 private:
  ChaChaBlock input_;
  std::uint64_t position_ = 0;  // keystream byte offset
};

}  // namespace cuzk::filecoin
