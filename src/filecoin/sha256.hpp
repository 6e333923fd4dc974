// SHA-256 (FIPS 180-4), our own implementation: the hash behind SDR labels, comm_d's tree, the DRG and
// Feistel seeds, replica ids and PoRep challenges. The compression function is exposed on its own
// because the circuit generator needs the intermediate states of multi-block messages.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace cuzk::filecoin {

using Sha256Digest = std::array<std::uint8_t, 32>;

class Sha256 {
 public:
  static constexpr std::size_t kBlockBytes = 64;
  static constexpr std::size_t kDigestBytes = 32;
  // The eight working words; the digest is these words written big-endian.
  using State = std::array<std::uint32_t, 8>;

  // H(0): the first 32 bits of the fractional parts of the square roots of the first 8 primes.
  static const State& initial_state();
  // K: the first 32 bits of the fractional parts of the cube roots of the first 64 primes.
  static const std::array<std::uint32_t, 64>& round_constants();

  // One compression: state <- state + rounds(state, block). The block's 16 words are read big-endian.
  static void compress(State& state, const std::uint8_t* block);
  // The digest bytes of a state (each word big-endian, word 0 first).
  static Sha256Digest digest_of(const State& state);
  // The message followed by FIPS 180-4 padding (0x80, zeros, the bit length as a big-endian u64): a
  // whole number of blocks.
  static std::vector<std::uint8_t> padded(std::span<const std::uint8_t> message);

  Sha256() = default;
  Sha256& update(std::span<const std::uint8_t> bytes);
  // Pads and returns the digest; the hasher is left finished (update after finish throws).
  Sha256Digest finish();

  // Bytes absorbed so far.
  std::uint64_t length() const { return length_; }

  static Sha256Digest hash(std::span<const std::uint8_t> message);

 private:
  State state_ = initial_state();
  std::array<std::uint8_t, kBlockBytes> buffer_{};
  std::size_t buffered_ = 0;
  std::uint64_t length_ = 0;
  bool finished_ = false;
};

}  // namespace cuzk::filecoin
