// bellperson's SHA-256 circuit (gadgets/sha256.rs): the compression function with bellperson's order of
// allocations and rows (message expansion, 64 rounds with a and e kept as deferred sums, the final additions,
// then the MultiEq's packed row), and the padded hash. Bits are most significant first within each 32-bit
// word and each byte, as SHA-256 writes them.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "gadgets/boolean.hpp"
#include "gadgets/multieq.hpp"
#include "gadgets/uint32.hpp"

namespace cuzk::gadgets {

namespace sha256_detail {

constexpr bool is_prime(std::uint32_t n) {
  if (n < 2) return false;
  for (std::uint32_t d = 2; d * d <= n; ++d)
    if (n % d == 0) return false;
  return true;
}

// The largest r with r^k <= x (k = 2 or 3), x < 2^110.
constexpr unsigned __int128 iroot(unsigned __int128 x, int k) {
  unsigned __int128 lo = 0, hi = static_cast<unsigned __int128>(1) << (k == 2 ? 56 : 37);
  while (lo < hi) {
    const unsigned __int128 mid = (lo + hi + 1) / 2;
    unsigned __int128 p = mid;
    for (int i = 1; i < k; ++i) p *= mid;
    if (p <= x)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

// FIPS 180-4: the first 32 bits of the fractional part of the k-th root of each of the first N primes,
// i.e. floor(root(p · 2^(32k))) mod 2^32.
template <std::size_t N>
constexpr std::array<std::uint32_t, N> root_fractions(int k) {
  std::array<std::uint32_t, N> out{};
  std::size_t n = 0;
  for (std::uint32_t p = 2; n < N; ++p)
    if (is_prime(p))
      out[n++] = static_cast<std::uint32_t>(iroot(static_cast<unsigned __int128>(p) << (32 * k), k));
  return out;
}

}  // namespace sha256_detail

// The round constants K (cube roots of the first 64 primes) and the initial hash value (square roots of the
// first 8).
inline constexpr std::array<std::uint32_t, 64> kSha256RoundConstants = sha256_detail::root_fractions<64>(3);
inline constexpr std::array<std::uint32_t, 8> kSha256Iv = sha256_detail::root_fractions<8>(2);

inline std::array<UInt32, 8> get_sha256_iv() {
  std::array<UInt32, 8> iv;
  for (std::size_t i = 0; i < 8; ++i) iv[i] = UInt32::constant(kSha256Iv[i]);
  return iv;
}

namespace sha256_detail {

// a or e of the round state: a value, or the operands of a sum not yet enforced (bellperson's Maybe), which
// the next round adds in one addmany (or the final addition, with the current hash word appended).
struct Deferred {
  std::array<UInt32, 8> ops;
  std::size_t n = 0;  // 0: concrete, ops[0] is the value

  static Deferred concrete(const UInt32& v) {
    Deferred d;
    d.ops[0] = v;
    return d;
  }
  template <class CS>
  UInt32 compute(MultiEq<CS>& cs) const {
    if (n == 0) return ops[0];
    return UInt32::addmany(cs, std::span<const UInt32>(ops.data(), n));
  }
  // The final addition: the deferred operands and the current hash word (a and e are always deferred
  // after the 64 rounds).
  template <class CS>
  UInt32 compute_plus(MultiEq<CS>& cs, const UInt32& extra) {
    if (n == 0) return ops[0];  // as bellperson's Maybe::compute: a concrete value ignores the extra operand
    ops[n] = extra;
    return UInt32::addmany(cs, std::span<const UInt32>(ops.data(), n + 1));
  }
};

}  // namespace sha256_detail

// One SHA-256 compression of a 512-bit block (most significant bit of each word first) into the 8-word
// chaining value. The MultiEq's packed row is the last row it emits.
template <class CS>
std::array<UInt32, 8> sha256_compression_function(CS& outer, std::span<const Boolean> input,
                                                  std::span<const UInt32> current_hash_value) {
  if (input.size() != 512)
    throw SynthesisError("sha256 compression: the block has " + std::to_string(input.size()) +
                         " bits, not 512");
  if (current_hash_value.size() != 8)
    throw SynthesisError("sha256 compression: the chaining value has " +
                         std::to_string(current_hash_value.size()) + " words, not 8");
  using sha256_detail::Deferred;

  std::array<UInt32, 64> w;
  for (std::size_t i = 0; i < 16; ++i) w[i] = UInt32::from_bits_be(input.subspan(32 * i, 32));

  MultiEq<CS> cs(outer);

  for (std::size_t i = 16; i < 64; ++i) {
    UInt32 s0 = w[i - 15].rotr(7);
    s0 = s0.xor_(cs, w[i - 15].rotr(18));
    s0 = s0.xor_(cs, w[i - 15].shr(3));
    UInt32 s1 = w[i - 2].rotr(17);
    s1 = s1.xor_(cs, w[i - 2].rotr(19));
    s1 = s1.xor_(cs, w[i - 2].shr(10));
    const std::array<UInt32, 4> ops{w[i - 16], s0, w[i - 7], s1};
    w[i] = UInt32::addmany(cs, std::span<const UInt32>(ops));
  }

  Deferred a = Deferred::concrete(current_hash_value[0]);
  UInt32 b = current_hash_value[1], c = current_hash_value[2], d = current_hash_value[3];
  Deferred e = Deferred::concrete(current_hash_value[4]);
  UInt32 f = current_hash_value[5], g = current_hash_value[6], h = current_hash_value[7];

  for (std::size_t i = 0; i < 64; ++i) {
    const UInt32 new_e = e.compute(cs);
    UInt32 s1 = new_e.rotr(6);
    s1 = s1.xor_(cs, new_e.rotr(11));
    s1 = s1.xor_(cs, new_e.rotr(25));
    const UInt32 ch = UInt32::sha256_ch(cs, new_e, f, g);

    const UInt32 new_a = a.compute(cs);
    UInt32 s0 = new_a.rotr(2);
    s0 = s0.xor_(cs, new_a.rotr(13));
    s0 = s0.xor_(cs, new_a.rotr(22));
    const UInt32 maj = UInt32::sha256_maj(cs, new_a, b, c);

    // temp1 = h + S1 + ch + K[i] + w[i]; e = d + temp1; a = temp1 + S0 + maj (operands in this order).
    // The old a and e are spent: their storage takes the new operand lists.
    const UInt32 k = UInt32::constant(kSha256RoundConstants[i]);
    e.ops[0] = h, e.ops[1] = s1, e.ops[2] = ch, e.ops[3] = k, e.ops[4] = w[i], e.ops[5] = d;
    e.n = 6;
    a.ops[0] = h, a.ops[1] = s1, a.ops[2] = ch, a.ops[3] = k, a.ops[4] = w[i], a.ops[5] = s0, a.ops[6] = maj;
    a.n = 7;
    h = g;
    g = f;
    f = new_e;
    d = c;
    c = b;
    b = new_a;
  }

  std::array<UInt32, 8> out;
  auto add2 = [&](const UInt32& x, const UInt32& y) {
    const std::array<UInt32, 2> ops{x, y};
    return UInt32::addmany(cs, std::span<const UInt32>(ops));
  };
  out[0] = a.compute_plus(cs, current_hash_value[0]);
  out[1] = add2(current_hash_value[1], b);
  out[2] = add2(current_hash_value[2], c);
  out[3] = add2(current_hash_value[3], d);
  out[4] = e.compute_plus(cs, current_hash_value[4]);
  out[5] = add2(current_hash_value[5], f);
  out[6] = add2(current_hash_value[6], g);
  out[7] = add2(current_hash_value[7], h);
  cs.finish();
  return out;
}

// The 8 words' bits, most significant first: the digest's bits in SHA-256's order.
inline std::vector<Boolean> sha256_digest_bits(std::span<const UInt32> words) {
  std::vector<Boolean> out;
  out.reserve(32 * words.size());
  for (const UInt32& w : words) {
    const UInt32::Bits be = w.into_bits_be();
    out.insert(out.end(), be.begin(), be.end());
  }
  return out;
}

// One compression of exactly 512 bits from the IV, without padding.
template <class CS>
std::vector<Boolean> sha256_block_no_padding(CS& cs, std::span<const Boolean> input) {
  if (input.size() != 512)
    throw SynthesisError("sha256_block_no_padding: " + std::to_string(input.size()) + " bits, not 512");
  const std::array<UInt32, 8> iv = get_sha256_iv();
  return sha256_digest_bits(sha256_compression_function(cs, input, iv));
}

// SHA-256 of a whole number of bytes (bits most significant first per byte): padded with constants, one
// compression per 512-bit block.
template <class CS>
std::vector<Boolean> sha256(CS& cs, std::span<const Boolean> input) {
  if (input.size() % 8 != 0)
    throw SynthesisError("sha256: " + std::to_string(input.size()) + " bits is not whole bytes");
  std::vector<Boolean> padded(input.begin(), input.end());
  const std::uint64_t length = input.size();
  padded.push_back(Boolean::constant(true));
  while ((padded.size() + 64) % 512 != 0) padded.push_back(Boolean::constant(false));
  for (int i = 63; i >= 0; --i) padded.push_back(Boolean::constant((length >> i) & 1));

  std::array<UInt32, 8> cur = get_sha256_iv();
  for (std::size_t block = 0; block < padded.size(); block += 512)
    cur = sha256_compression_function(cs, std::span<const Boolean>(padded).subspan(block, 512), cur);
  return sha256_digest_bits(cur);
}

}  // namespace cuzk::gadgets
