// BLAKE2b (RFC 7693), our own implementation: the round function of the Feistel permutation that picks
// SDR expander parents (64-byte digests, unkeyed), and the keyed 32-byte PRF keys of synthetic PoRep
// challenges.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace cuzk::filecoin {

class Blake2b {
 public:
  static constexpr std::size_t kBlockBytes = 128;
  static constexpr std::size_t kMaxDigestBytes = 64;
  static constexpr std::size_t kMaxKeyBytes = 64;

  // digest_bytes in 1..64, key at most 64 bytes (empty: unkeyed). Throws std::invalid_argument.
  explicit Blake2b(std::size_t digest_bytes = kMaxDigestBytes, std::span<const std::uint8_t> key = {});
  Blake2b& update(std::span<const std::uint8_t> bytes);
  // The digest (digest_bytes long); the hasher is left finished (update after finish throws).
  std::vector<std::uint8_t> finish();

  static std::array<std::uint8_t, 64> hash512(std::span<const std::uint8_t> message);

 private:
  void compress(const std::uint8_t* block, bool last);

  std::array<std::uint64_t, 8> h_{};
  std::array<std::uint8_t, kBlockBytes> buffer_{};
  std::size_t buffered_ = 0;
  std::uint64_t counter_ = 0;  // bytes compressed so far (the high 64 bits of RFC 7693's t stay zero)
  std::size_t digest_bytes_;
  bool finished_ = false;
};

}  // namespace cuzk::filecoin
