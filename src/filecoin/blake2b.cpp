#include "filecoin/blake2b.hpp"

#include <bit>
#include <stdexcept>

namespace cuzk::filecoin {
namespace {

using u128 = unsigned __int128;

// BLAKE2b's IV is SHA-512's: the first 64 bits of the fractional parts of the square roots of the first
// 8 primes, i.e. the low 64 bits of floor(sqrt(p * 2^128)). That root is below 2^67, so its square is
// checked as hi * 2^128 + lo without overflowing.
constexpr bool square_at_most(u128 c, std::uint64_t p) {  // c^2 <= p * 2^128
  const std::uint64_t ch = std::uint64_t(c >> 64), cl = std::uint64_t(c);
  const u128 a = u128(cl) * cl;
  const u128 b = u128(2 * ch) * cl;  // ch < 16, so b < 2^69
  const u128 low = a + (b << 64);
  const u128 hi = u128(ch) * ch + (b >> 64) + (low < a ? 1 : 0);
  return hi < p || (hi == p && low == 0);
}

constexpr std::array<std::uint64_t, 8> make_iv() {
  constexpr std::uint64_t primes[8] = {2, 3, 5, 7, 11, 13, 17, 19};
  std::array<std::uint64_t, 8> iv{};
  for (int i = 0; i < 8; ++i) {
    u128 root = 0;
    for (int bit = 67; bit >= 0; --bit) {
      const u128 candidate = root | (u128(1) << bit);
      if (square_at_most(candidate, primes[i])) root = candidate;
    }
    iv[i] = std::uint64_t(root);
  }
  return iv;
}

constexpr std::array<std::uint64_t, 8> kIv = make_iv();
static_assert(kIv[0] == 0x6a09e667f3bcc908ull && kIv[7] == 0x5be0cd19137e2179ull);

// The message schedule of RFC 7693 section 2.7 (rounds 10 and 11 reuse rows 0 and 1). It is a
// specification table with no generating rule.
constexpr std::uint8_t kSigma[10][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
    {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4},
    {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
    {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13},
    {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
    {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11},
    {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
    {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5},
    {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
};

constexpr bool rows_are_permutations() {
  for (const auto& row : kSigma) {
    unsigned seen = 0;
    for (std::uint8_t s : row) seen |= 1u << s;
    if (seen != 0xffffu) return false;
  }
  return true;
}
static_assert(rows_are_permutations());

std::uint64_t load_le64(const std::uint8_t* p) {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = v << 8 | p[i];
  return v;
}

void mix(std::uint64_t* v, int a, int b, int c, int d, std::uint64_t x, std::uint64_t y) {
  v[a] = v[a] + v[b] + x;
  v[d] = std::rotr(v[d] ^ v[a], 32);
  v[c] = v[c] + v[d];
  v[b] = std::rotr(v[b] ^ v[c], 24);
  v[a] = v[a] + v[b] + y;
  v[d] = std::rotr(v[d] ^ v[a], 16);
  v[c] = v[c] + v[d];
  v[b] = std::rotr(v[b] ^ v[c], 63);
}

}  // namespace

Blake2b::Blake2b(std::size_t digest_bytes, std::span<const std::uint8_t> key) : digest_bytes_(digest_bytes) {
  if (digest_bytes == 0 || digest_bytes > kMaxDigestBytes) {
    throw std::invalid_argument("Blake2b: digest length must be 1..64 bytes");
  }
  if (key.size() > kMaxKeyBytes) throw std::invalid_argument("Blake2b: key longer than 64 bytes");
  h_ = kIv;
  // Parameter block word 0: digest length, key length, fanout 1, depth 1.
  h_[0] ^= 0x01010000ull ^ (std::uint64_t(key.size()) << 8) ^ digest_bytes;
  if (!key.empty()) {
    std::array<std::uint8_t, kBlockBytes> block{};
    std::copy(key.begin(), key.end(), block.begin());
    update(block);
  }
}

void Blake2b::compress(const std::uint8_t* block, bool last) {
  std::uint64_t m[16], v[16];
  for (int i = 0; i < 16; ++i) m[i] = load_le64(block + 8 * i);
  for (int i = 0; i < 8; ++i) {
    v[i] = h_[i];
    v[i + 8] = kIv[i];
  }
  v[12] ^= counter_;
  if (last) v[14] = ~v[14];
  for (int round = 0; round < 12; ++round) {
    const std::uint8_t* s = kSigma[round % 10];
    mix(v, 0, 4, 8, 12, m[s[0]], m[s[1]]);
    mix(v, 1, 5, 9, 13, m[s[2]], m[s[3]]);
    mix(v, 2, 6, 10, 14, m[s[4]], m[s[5]]);
    mix(v, 3, 7, 11, 15, m[s[6]], m[s[7]]);
    mix(v, 0, 5, 10, 15, m[s[8]], m[s[9]]);
    mix(v, 1, 6, 11, 12, m[s[10]], m[s[11]]);
    mix(v, 2, 7, 8, 13, m[s[12]], m[s[13]]);
    mix(v, 3, 4, 9, 14, m[s[14]], m[s[15]]);
  }
  for (int i = 0; i < 8; ++i) h_[i] ^= v[i] ^ v[i + 8];
}

Blake2b& Blake2b::update(std::span<const std::uint8_t> bytes) {
  if (finished_) throw std::logic_error("Blake2b::update after finish");
  for (std::uint8_t byte : bytes) {
    // A full buffer is compressed only once more input arrives: the last block must be flagged.
    if (buffered_ == kBlockBytes) {
      counter_ += kBlockBytes;
      compress(buffer_.data(), false);
      buffered_ = 0;
    }
    buffer_[buffered_++] = byte;
  }
  return *this;
}

std::vector<std::uint8_t> Blake2b::finish() {
  if (finished_) throw std::logic_error("Blake2b::finish called twice");
  counter_ += buffered_;
  std::fill(buffer_.begin() + buffered_, buffer_.end(), 0);
  compress(buffer_.data(), true);
  finished_ = true;
  std::vector<std::uint8_t> out(digest_bytes_);
  for (std::size_t i = 0; i < digest_bytes_; ++i) out[i] = std::uint8_t(h_[i / 8] >> (8 * (i % 8)));
  return out;
}

std::array<std::uint8_t, 64> Blake2b::hash512(std::span<const std::uint8_t> message) {
  const auto digest = Blake2b().update(message).finish();
  std::array<std::uint8_t, 64> out;
  std::copy(digest.begin(), digest.end(), out.begin());
  return out;
}

}  // namespace cuzk::filecoin
