#include "gadgets/poseidon_constants.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>
#include <span>
#include <stdexcept>
#include <string>
#include <tuple>

#include "gadgets/poseidon_matrix.hpp"

namespace cuzk::gadgets {
namespace {

// ---- round numbers ---------------------------------------------------------------------------------
// The security inequalities of the Poseidon paper as neptune evaluates them: in single-precision floats
// (the results depend on it at the boundaries), with a 256-bit "prime size" and 128-bit security.
constexpr float kPrimeBits = 256.0f;
constexpr float kSecurityBits = 128.0f;

// Rust's `f32 as usize` saturates: negative bounds count as 0 (a C++ cast of a negative float to an
// unsigned type would be undefined).
std::size_t ceil_to_size(float x) {
  const float c = std::ceil(x);
  return c <= 0.0f ? 0 : static_cast<std::size_t>(c);
}

bool round_numbers_are_secure(std::size_t width, std::size_t r_f, std::size_t r_p) {
  const float rp = static_cast<float>(r_p), t = static_cast<float>(width);
  const float n = kPrimeBits, m = kSecurityBits;
  const float rf_stat = m <= (n - 3.0f) * (t + 1.0f) ? 6.0f : 10.0f;
  const float rf_interp = 0.43f * m + std::log2(t) - rp;
  const float rf_grob_1 = 0.21f * n - rp;
  const float rf_grob_2 = (0.14f * n - 1.0f - rp) / (t - 1.0f);
  std::size_t rf_max = 0;
  for (float bound : {rf_stat, rf_interp, rf_grob_1, rf_grob_2})
    rf_max = std::max(rf_max, ceil_to_size(bound));
  return r_f >= rf_max;
}

// ---- Grain LFSR ------------------------------------------------------------------------------------
// The 80-bit self-shrinking Grain generator of the hadeshash script. Bit i of `state_` is the paper's b_i:
// a step appends b_80 = b_62 ⊕ b_51 ⊕ b_38 ⊕ b_23 ⊕ b_13 ⊕ b_0 and drops b_0.
class Grain {
 public:
  Grain(unsigned field, unsigned sbox, unsigned field_bits, std::size_t width, std::size_t r_f,
        std::size_t r_p) {
    append(2, field);
    append(4, sbox);
    append(12, field_bits);
    append(12, width);
    append(10, r_f);
    append(10, r_p);
    append(30, (1u << 30) - 1);
    for (int i = 0; i < 160; ++i) step();
  }

  // The self-shrinking output: bits are read in pairs; a pair whose first bit is 1 yields its second.
  bool next_bit() {
    while (!step()) step();
    return step();
  }

 private:
  // Appends the low `bits` bits of `value`, most significant first, as the next state bits.
  void append(int bits, std::uint64_t value) {
    if (value >> bits) throw std::invalid_argument("poseidon Grain: parameter does not fit its field");
    for (int i = bits - 1; i >= 0; --i)
      state_ |= static_cast<unsigned __int128>((value >> i) & 1) << filled_++;
  }
  bool step() {
    const unsigned __int128 s = state_;
    const bool bit = ((s >> 62) ^ (s >> 51) ^ (s >> 38) ^ (s >> 23) ^ (s >> 13) ^ s) & 1;
    state_ = (s >> 1) | (static_cast<unsigned __int128>(bit) << 79);
    return bit;
  }

  unsigned __int128 state_ = 0;
  int filled_ = 0;
};

// ---- MDS and its sparse factorisation ----------------------------------------------------------------
// The Cauchy matrix 1 / (x_i + y_j) with x = 0..t-1, y = t..2t-1: symmetric, every minor non-singular.
FrMatrix cauchy_mds(std::size_t width) {
  FrMatrix m(width, std::vector<Fr>(width));
  for (std::size_t i = 0; i < width; ++i)
    for (std::size_t j = 0; j < width; ++j) m[i][j] = Fr::from_u64(i + width + j).inverse();
  return m;
}

// Neptune's `factor_to_sparse_matrixes`: each partial round's M is split as M' · M'' with M'' sparse;
// the M' is pushed into the round before (M · M'), working backwards from the last partial round. What
// remains after `rounds` steps is the pre-sparse matrix used by the last first-half full round.
void factor_sparse(const FrMatrix& mds, std::size_t rounds, FrMatrix& pre_sparse,
                   std::vector<PoseidonSparseMatrix>& sparse) {
  const std::size_t t = mds.size();
  FrMatrix current = mds;
  sparse.clear();
  sparse.reserve(rounds);
  for (std::size_t r = 0; r < rounds; ++r) {
    // M'' keeps the first row of `current` and, below the corner, the first column w mapped through the
    // inverse of the minor: ŵ = w · M̂⁻¹.
    const FrMatrix hat_inverse = matrix::inverse(matrix::minor(current, 0, 0));
    std::vector<Fr> w(t - 1);
    for (std::size_t i = 1; i < t; ++i) w[i - 1] = current[i][0];
    const std::vector<Fr> w_hat = matrix::row_times(w, hat_inverse);
    PoseidonSparseMatrix s;
    s.w_hat.reserve(t);
    s.w_hat.push_back(current[0][0]);
    s.w_hat.insert(s.w_hat.end(), w_hat.begin(), w_hat.end());
    s.v_rest.assign(current[0].begin() + 1, current[0].end());
    sparse.push_back(std::move(s));
    // M' = [1 0; 0 M̂]: the identity's first row over `current` without its first column.
    FrMatrix prime(t, std::vector<Fr>(t, Fr::zero()));
    prime[0][0] = Fr::one();
    for (std::size_t i = 1; i < t; ++i)
      for (std::size_t j = 1; j < t; ++j) prime[i][j] = current[i][j];
    current = matrix::multiply(mds, prime);
  }
  std::reverse(sparse.begin(), sparse.end());
  pre_sparse = std::move(current);
}

// Neptune's `compress_round_constants` with every partial round preprocessed: constants are moved behind
// the linear layers so that, after the first addition, each S-box is followed by one addition (a full
// round adds t constants, a partial round one, the terminal round none).
std::vector<Fr> compress_round_constants(const PoseidonConstants& c) {
  const std::size_t t = c.width, half = c.half_full_rounds, partial = c.partial_rounds;
  auto round_keys = [&](std::size_t r) { return std::span<const Fr>(c.round_constants).subspan(r * t, t); };
  std::vector<Fr> out;
  out.reserve(c.full_rounds * t + partial);
  auto append = [&](std::span<const Fr> v) { out.insert(out.end(), v.begin(), v.end()); };

  append(round_keys(0));
  // First-half full rounds but the last: the next round's constants, pulled back through M.
  for (std::size_t i = 0; i + 1 < half; ++i) append(matrix::row_times(round_keys(i + 1), c.mds_inverse));

  // The partial rounds, from the last back to the first: pulled back through M, the first component is
  // that round's single post-S-box constant and the others fold into the round before.
  std::vector<Fr> partial_keys;
  partial_keys.reserve(partial);
  const std::size_t final_round = half + partial;
  std::vector<Fr> acc(round_keys(final_round).begin(), round_keys(final_round).end());
  for (std::size_t i = 0; i < partial; ++i) {
    std::vector<Fr> inverted = matrix::row_times(acc, c.mds_inverse);
    partial_keys.push_back(inverted[0]);
    inverted[0] = Fr::zero();
    const auto previous = round_keys(final_round - i - 1);
    for (std::size_t j = 0; j < t; ++j) acc[j] = previous[j] + inverted[j];
  }
  append(matrix::row_times(acc, c.mds_inverse));  // after the last first-half full round
  out.insert(out.end(), partial_keys.rbegin(), partial_keys.rend());

  // Second-half full rounds but the terminal one.
  for (std::size_t i = 1; i < half; ++i)
    append(matrix::row_times(round_keys(final_round + i), c.mds_inverse));
  return out;
}

}  // namespace

std::pair<std::size_t, std::size_t> poseidon_round_numbers(std::size_t width) {
  if (width < 2) throw std::invalid_argument("poseidon_round_numbers: width must be at least 2");
  std::size_t best_rf = 0, best_rp = 0, best_cost = std::numeric_limits<std::size_t>::max();
  for (std::size_t rf_test = 2; rf_test <= 1000; rf_test += 2) {
    for (std::size_t rp_test = 4; rp_test < 200; ++rp_test) {
      if (!round_numbers_are_secure(width, rf_test, rp_test)) continue;
      // Neptune's security margin: two more full rounds, 7.5 % more partial rounds.
      const std::size_t rf = rf_test + 2;
      const std::size_t rp = ceil_to_size(1.075f * static_cast<float>(rp_test));
      const std::size_t cost = width * rf + rp;
      if (cost < best_cost || (cost == best_cost && rf < best_rf)) {
        best_rf = rf;
        best_rp = rp;
        best_cost = cost;
      }
    }
  }
  return {best_rf, best_rp};
}

std::vector<Fr> poseidon_grain_round_constants(unsigned field, unsigned sbox, unsigned field_bits,
                                               std::size_t width, std::size_t r_f, std::size_t r_p) {
  if (field != 1) throw std::invalid_argument("poseidon Grain: only prime fields (field = 1) are supported");
  if (field_bits != Fr::bits())
    throw std::invalid_argument("poseidon Grain: field_bits must be Fr's " + std::to_string(Fr::bits()));
  Grain grain(field, sbox, field_bits, width, r_f, r_p);
  const std::size_t count = (r_f + r_p) * width;
  std::vector<Fr> out;
  out.reserve(count);
  const auto p = Fr::modulus();
  while (out.size() < count) {
    // field_bits bits, most significant first (neptune reads 7 bits, then 31 bytes, big-endian).
    ff::BigInt<4> x{};
    for (std::size_t i = field_bits; i-- > 0;)
      if (grain.next_bit()) x.v[i / 64] |= std::uint64_t{1} << (i % 64);
    if (ff::bigint_less(x, p)) out.push_back(Fr::from_int(x));
  }
  return out;
}

PoseidonConstants generate_poseidon_constants(std::size_t arity) {
  if (arity < kPoseidonMinArity || arity > kPoseidonMaxArity)
    throw std::invalid_argument("poseidon: unsupported arity " + std::to_string(arity) +
                                " (supported: " + std::to_string(kPoseidonMinArity) + ".." +
                                std::to_string(kPoseidonMaxArity) + ")");
  PoseidonConstants c;
  c.arity = arity;
  c.width = arity + 1;
  std::tie(c.full_rounds, c.partial_rounds) = poseidon_round_numbers(c.width);
  c.half_full_rounds = c.full_rounds / 2;
  c.domain_tag = Fr::from_u64((std::uint64_t{1} << arity) - 1);
  // Neptune's FIELD = 1 (GF(p)), SBOX = 1 (its code for x^5), field size F::NUM_BITS = 255.
  c.round_constants = poseidon_grain_round_constants(1, 1, static_cast<unsigned>(Fr::bits()), c.width,
                                                     c.full_rounds, c.partial_rounds);
  c.mds = cauchy_mds(c.width);
  c.mds_inverse = matrix::inverse(c.mds);
  c.compressed_round_constants = compress_round_constants(c);
  factor_sparse(c.mds, c.partial_rounds, c.pre_sparse_matrix, c.sparse_matrices);
  return c;
}

const PoseidonConstants& poseidon_constants(std::size_t arity) {
  static std::array<std::once_flag, kPoseidonMaxArity + 1> once;
  static std::array<std::unique_ptr<const PoseidonConstants>, kPoseidonMaxArity + 1> cache;
  if (arity < kPoseidonMinArity || arity > kPoseidonMaxArity) generate_poseidon_constants(arity);  // throws
  std::call_once(once[arity], [arity] {
    cache[arity] = std::make_unique<const PoseidonConstants>(generate_poseidon_constants(arity));
  });
  return *cache[arity];
}

}  // namespace cuzk::gadgets
