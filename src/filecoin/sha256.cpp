#include "filecoin/sha256.hpp"

#include <bit>
#include <stdexcept>

namespace cuzk::filecoin {
namespace {

using u128 = unsigned __int128;

constexpr std::array<std::uint32_t, 64> first_primes() {
  std::array<std::uint32_t, 64> primes{};
  std::size_t found = 0;
  for (std::uint32_t candidate = 2; found < primes.size(); ++candidate) {
    bool prime = true;
    for (std::size_t i = 0; i < found && primes[i] * primes[i] <= candidate; ++i) {
      if (candidate % primes[i] == 0) prime = false;
    }
    if (prime) primes[found++] = candidate;
  }
  return primes;
}

// floor(n^(1/e)) for e = 2 or 3, bit by bit from the top: exact, no floating point.
constexpr u128 integer_root(u128 n, int e) {
  u128 root = 0;
  for (int bit = 42; bit >= 0; --bit) {
    const u128 candidate = root | (u128(1) << bit);
    u128 power = candidate;
    for (int k = 1; k < e; ++k) power *= candidate;
    if (power <= n) root = candidate;
  }
  return root;
}

// The low 32 bits of floor(root(p) * 2^32) are the first 32 bits of root(p)'s fractional part.
constexpr Sha256::State make_initial_state() {
  const auto primes = first_primes();
  Sha256::State h{};
  for (std::size_t i = 0; i < h.size(); ++i) h[i] = std::uint32_t(integer_root(u128(primes[i]) << 64, 2));
  return h;
}

constexpr std::array<std::uint32_t, 64> make_round_constants() {
  const auto primes = first_primes();
  std::array<std::uint32_t, 64> k{};
  for (std::size_t i = 0; i < k.size(); ++i) k[i] = std::uint32_t(integer_root(u128(primes[i]) << 96, 3));
  return k;
}

constexpr Sha256::State kInitialState = make_initial_state();
constexpr std::array<std::uint32_t, 64> kRoundConstants = make_round_constants();
static_assert(kInitialState[0] == 0x6a09e667u && kRoundConstants[63] == 0xc67178f2u);

std::uint32_t load_be32(const std::uint8_t* p) {
  return std::uint32_t(p[0]) << 24 | std::uint32_t(p[1]) << 16 | std::uint32_t(p[2]) << 8 | p[3];
}

}  // namespace

const Sha256::State& Sha256::initial_state() {
  return kInitialState;
}
const std::array<std::uint32_t, 64>& Sha256::round_constants() {
  return kRoundConstants;
}

void Sha256::compress(State& state, const std::uint8_t* block) {
  std::array<std::uint32_t, 64> w;
  for (int t = 0; t < 16; ++t) w[t] = load_be32(block + 4 * t);
  for (int t = 16; t < 64; ++t) {
    const std::uint32_t s0 = std::rotr(w[t - 15], 7) ^ std::rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
    const std::uint32_t s1 = std::rotr(w[t - 2], 17) ^ std::rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
    w[t] = w[t - 16] + s0 + w[t - 7] + s1;
  }
  std::uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
  std::uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
  for (int t = 0; t < 64; ++t) {
    const std::uint32_t big_s1 = std::rotr(e, 6) ^ std::rotr(e, 11) ^ std::rotr(e, 25);
    const std::uint32_t ch = (e & f) ^ (~e & g);
    const std::uint32_t t1 = h + big_s1 + ch + kRoundConstants[t] + w[t];
    const std::uint32_t big_s0 = std::rotr(a, 2) ^ std::rotr(a, 13) ^ std::rotr(a, 22);
    const std::uint32_t maj = (a & b) ^ (a & c) ^ (b & c);
    const std::uint32_t t2 = big_s0 + maj;
    h = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  state[0] += a;
  state[1] += b;
  state[2] += c;
  state[3] += d;
  state[4] += e;
  state[5] += f;
  state[6] += g;
  state[7] += h;
}

Sha256Digest Sha256::digest_of(const State& state) {
  Sha256Digest out;
  for (std::size_t i = 0; i < state.size(); ++i) {
    for (int j = 0; j < 4; ++j) out[4 * i + j] = std::uint8_t(state[i] >> (24 - 8 * j));
  }
  return out;
}

std::vector<std::uint8_t> Sha256::padded(std::span<const std::uint8_t> message) {
  std::vector<std::uint8_t> out(message.begin(), message.end());
  const std::uint64_t bits = std::uint64_t(message.size()) * 8;
  out.push_back(0x80);
  while (out.size() % kBlockBytes != kBlockBytes - 8) out.push_back(0);
  for (int j = 7; j >= 0; --j) out.push_back(std::uint8_t(bits >> (8 * j)));
  return out;
}

Sha256& Sha256::update(std::span<const std::uint8_t> bytes) {
  if (finished_) throw std::logic_error("Sha256::update after finish");
  length_ += bytes.size();
  std::size_t i = 0;
  if (buffered_ > 0) {
    while (i < bytes.size() && buffered_ < kBlockBytes) buffer_[buffered_++] = bytes[i++];
    if (buffered_ < kBlockBytes) return *this;
    compress(state_, buffer_.data());
    buffered_ = 0;
  }
  for (; i + kBlockBytes <= bytes.size(); i += kBlockBytes) compress(state_, bytes.data() + i);
  while (i < bytes.size()) buffer_[buffered_++] = bytes[i++];
  return *this;
}

Sha256Digest Sha256::finish() {
  if (finished_) throw std::logic_error("Sha256::finish called twice");
  const std::uint64_t bits = length_ * 8;
  buffer_[buffered_++] = 0x80;
  if (buffered_ > kBlockBytes - 8) {
    while (buffered_ < kBlockBytes) buffer_[buffered_++] = 0;
    compress(state_, buffer_.data());
    buffered_ = 0;
  }
  while (buffered_ < kBlockBytes - 8) buffer_[buffered_++] = 0;
  for (int j = 7; j >= 0; --j) buffer_[buffered_++] = std::uint8_t(bits >> (8 * j));
  compress(state_, buffer_.data());
  finished_ = true;
  return digest_of(state_);
}

Sha256Digest Sha256::hash(std::span<const std::uint8_t> message) {
  return Sha256().update(message).finish();
}

}  // namespace cuzk::filecoin
