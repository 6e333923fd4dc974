// Poseidon as neptune v11.0.0 defines it for BLS12-381 Fr (src/filecoin/poseidon*.hpp): the generated
// parameters against neptune's reference data, and the digests against neptune's and rust-fil-proofs'
// test vectors.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <random>
#include <regex>
#include <string>
#include <vector>

#include "filecoin/poseidon.hpp"
#include "gadgets/poseidon_constants.hpp"
#include "gadgets/poseidon_matrix.hpp"

namespace {

using cuzk::filecoin::Fr;
using cuzk::gadgets::FrMatrix;
using cuzk::gadgets::poseidon_constants;
using cuzk::gadgets::PoseidonConstants;

// A canonical integer given as four little-endian 64-bit limbs (neptune's `scalar_from_u64s`).
Fr fr(std::uint64_t l0, std::uint64_t l1, std::uint64_t l2, std::uint64_t l3) {
  return Fr::from_int(cuzk::ff::BigInt<4>{{l0, l1, l2, l3}});
}

std::string hex(const Fr& x) {
  const auto v = x.to_int();
  char buf[80];
  std::snprintf(buf, sizeof buf, "%016llx%016llx%016llx%016llx", static_cast<unsigned long long>(v.v[3]),
                static_cast<unsigned long long>(v.v[2]), static_cast<unsigned long long>(v.v[1]),
                static_cast<unsigned long long>(v.v[0]));
  return buf;
}

std::vector<Fr> random_frs(std::size_t n, std::mt19937_64& rng) {
  std::vector<Fr> out(n);
  for (auto& x : out) x = fr(rng(), rng(), rng(), rng() >> 2);  // below 2^254 < p
  return out;
}

// neptune src/round_numbers.rs test_round_numbers_against_known_values: R_F = 8 for all, R_P by width.
TEST(FilecoinPoseidon, RoundNumbersMatchNeptune) {
  const std::pair<std::size_t, std::size_t> cases[] = {
      {2, 55},  {3, 55},  {4, 56},  {5, 56},  {6, 56},  {7, 56},  {8, 57},  {9, 57},  {10, 57}, {11, 57},
      {12, 57}, {13, 57}, {14, 57}, {15, 57}, {16, 59}, {17, 59}, {25, 59}, {37, 60}, {65, 61}};
  for (auto [t, rp] : cases) {
    const auto [rf_got, rp_got] = cuzk::gadgets::poseidon_round_numbers(t);
    EXPECT_EQ(rf_got, 8u) << "t = " << t;
    EXPECT_EQ(rp_got, rp) << "t = " << t;
  }
}

// neptune parameters/round_constants-1-1-255-9-8-57-<p>.txt (output of the hadeshash script for t = 9):
// 585 constants. Spot values, and a fingerprint of all of them: Horner's Σ c_i·7^(584-i) mod p, computed
// from that file.
TEST(FilecoinPoseidon, GrainConstantsMatchNeptuneReferenceFile) {
  const auto rc = cuzk::gadgets::poseidon_grain_round_constants(1, 1, 255, 9, 8, 57);
  ASSERT_EQ(rc.size(), 585u);
  EXPECT_EQ(rc[0], fr(0x43984154f2f4c2f9, 0xc52b4ae7e48cd494, 0x8c3caddb776dd84a, 0x6ce90d12c4045fe0));
  EXPECT_EQ(rc[1], fr(0xa175504940bcec39, 0xb4fa6378d32e58f3, 0x25a75b52c8e89d80, 0x0ccd9b480c84022b));
  EXPECT_EQ(rc[292], fr(0x5c8982c2c97d3deb, 0x0560fd676193fd55, 0xad82102908e0b441, 0x04ba918fbedf5ca2));
  EXPECT_EQ(rc[584], fr(0x0c05e545519d9a8c, 0x1b8960063efe7467, 0xbcc4ab7e449e4a01, 0x3b3a75eb91b0f723));
  Fr fingerprint = Fr::zero();
  const Fr seven = Fr::from_u64(7);
  for (const Fr& c : rc) fingerprint = fingerprint * seven + c;
  EXPECT_EQ(fingerprint, fr(0xb8aa9e405593338b, 0xc27650168b1f57c8, 0x0b4cea80e9850411, 0x6eff670bdfe1fdc3));
  // The same constants are what the arity-8 parameters use.
  EXPECT_EQ(poseidon_constants(8).round_constants, rc);
}

// With CUZK_NEPTUNE_ROUND_CONSTANTS naming that file (e.g. from `git show v11.0.0:parameters/...`), every
// value is compared; skipped otherwise (the file is not part of this repository).
TEST(FilecoinPoseidon, GrainConstantsEqualWholeReferenceFileWhenGiven) {
  const char* path = std::getenv("CUZK_NEPTUNE_ROUND_CONSTANTS");
  if (!path) GTEST_SKIP() << "set CUZK_NEPTUNE_ROUND_CONSTANTS to neptune's t = 9 round-constants file";
  std::ifstream in(path);
  ASSERT_TRUE(in) << path;
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::regex value("0x([0-9a-fA-F]{64})");
  std::vector<Fr> expected;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), value); it != std::sregex_iterator(); ++it) {
    const std::string h = (*it)[1];
    cuzk::ff::BigInt<4> x{};
    for (int limb = 0; limb < 4; ++limb) x.v[limb] = std::stoull(h.substr(48 - 16 * limb, 16), nullptr, 16);
    expected.push_back(Fr::from_int(x));
  }
  ASSERT_EQ(expected.size(), 585u);
  EXPECT_EQ(cuzk::gadgets::poseidon_grain_round_constants(1, 1, 255, 9, 8, 57), expected);
}

TEST(FilecoinPoseidon, ParameterShapesAndAlgebra) {
  for (std::size_t arity : {2, 8, 11}) {
    SCOPED_TRACE("arity " + std::to_string(arity));
    const PoseidonConstants& c = poseidon_constants(arity);
    const std::size_t t = arity + 1;
    EXPECT_EQ(c.width, t);
    EXPECT_EQ(c.full_rounds, 8u);
    EXPECT_EQ(c.half_full_rounds, 4u);
    EXPECT_EQ(c.partial_rounds, arity == 2 ? 55u : 57u);
    EXPECT_EQ(c.domain_tag, Fr::from_u64((1u << arity) - 1));
    EXPECT_EQ(c.round_constants.size(), (c.full_rounds + c.partial_rounds) * t);
    EXPECT_EQ(c.compressed_round_constants.size(), c.full_rounds * t + c.partial_rounds);
    ASSERT_EQ(c.sparse_matrices.size(), c.partial_rounds);
    // M[i][j] = 1/(i + t + j), symmetric, M·M⁻¹ = I.
    EXPECT_EQ(c.mds[1][2] * Fr::from_u64(1 + t + 2), Fr::one());
    EXPECT_EQ(c.mds[2][1], c.mds[1][2]);
    EXPECT_TRUE(cuzk::gadgets::matrix::is_identity(cuzk::gadgets::matrix::multiply(c.mds, c.mds_inverse)));
    // The last partial round's factor: M = M'·M'' with M' = [1 0; 0 M̂] (neptune's
    // test_mds_matrices_creation).
    const auto& last = c.sparse_matrices.back();
    ASSERT_EQ(last.w_hat.size(), t);
    ASSERT_EQ(last.v_rest.size(), t - 1);
    FrMatrix dense = cuzk::gadgets::matrix::identity(t), prime = cuzk::gadgets::matrix::identity(t);
    for (std::size_t i = 0; i < t; ++i) dense[i][0] = last.w_hat[i];
    for (std::size_t j = 1; j < t; ++j) dense[0][j] = last.v_rest[j - 1];
    for (std::size_t i = 1; i < t; ++i)
      for (std::size_t j = 1; j < t; ++j) prime[i][j] = c.mds[i][j];
    EXPECT_EQ(cuzk::gadgets::matrix::multiply(prime, dense), c.mds);
  }
}

// neptune src/poseidon.rs hash_values (Strength::Standard): the digest of [0, 1, ..., arity-1] with the
// MerkleTree constants, by the optimised and the textbook permutation.
TEST(FilecoinPoseidon, DigestsOfCountingPreimageMatchNeptune) {
  struct Case {
    std::size_t arity;
    Fr expected;
  };
  const Case cases[] = {
      {2, fr(0x2e203c369a02e7ff, 0xa6fba9339d05a69d, 0x739e0fd902efe161, 0x396508d75e76a56b)},
      {4, fr(0x019814ff6662075d, 0xfb6b4605bf1327ec, 0x00db3c6579229399, 0x58a54b10a9e5848a)},
      {8, fr(0x2a9934f56d38a5e6, 0x4b682e9d9cc4aed9, 0x1201004211677077, 0x2394611da3a5de55)},
      {11, fr(0xcee3bbc32b693163, 0x09f3dcd8ccb08fc1, 0x6ca537e232ebe87a, 0x0c0fc1b2e5227f28)},
      {16, fr(0x1291c74060266d37, 0x5b8dbc6d30680a6f, 0xc1c2fb5a6f871e63, 0x2d3ae2663381ae8a)},
      {24, fr(0xd7ef3569f585b321, 0xc3e779f6468815b1, 0x066f39bf783f3d9f, 0x63beb8831f11ae15)},
      {36, fr(0x4473606dfa4e8140, 0x75cd368df8a8ac3c, 0x540a30e03c10bbaa, 0x699303082a6e5d5f)},
  };
  for (const auto& [arity, expected] : cases) {
    SCOPED_TRACE("arity " + std::to_string(arity));
    std::vector<Fr> preimage;
    for (std::size_t i = 0; i < arity; ++i) preimage.push_back(Fr::from_u64(i));
    EXPECT_EQ(hex(cuzk::filecoin::poseidon_hash(preimage)), hex(expected));
    EXPECT_EQ(hex(cuzk::filecoin::poseidon_hash_correct(poseidon_constants(arity), preimage)), hex(expected));
  }
}

// rust-fil-proofs filecoin-hashers/src/poseidon.rs test_poseidon_hasher: a binary Merkle tree over the
// leaves [1, 0, 0, 1]; node 4 = H(1, 0), root = H(H(1, 0), H(0, 1)).
TEST(FilecoinPoseidon, BinaryTreeMatchesFilecoinHashers) {
  const Fr one = Fr::one(), zero = Fr::zero();
  const Fr left[] = {one, zero}, right[] = {zero, one};
  const Fr n4 = cuzk::filecoin::poseidon_hash(left);
  const Fr n5 = cuzk::filecoin::poseidon_hash(right);
  EXPECT_EQ(n4, fr(0xb339ff6079800b5e, 0xec5907b3dc3094af, 0x93c003cc74a24f26, 0x042f94ffbe786bc3));
  const Fr children[] = {n4, n5};
  EXPECT_EQ(cuzk::filecoin::poseidon_hash(children),
            fr(0xefbb8be3e291e671, 0x77cc72b8cb2b5ad2, 0x30eb6385ae6b74ae, 0x1effebb7b26ad9eb));
}

// rust-fil-proofs test_hash_md: hash_md of 71 ones at arity 36, i.e. two chained permutations
// H(1 × 36) then H(previous, 1 × 35).
TEST(FilecoinPoseidon, HashMdArity36MatchesFilecoinHashers) {
  std::vector<Fr> block(36, Fr::one());
  const Fr first = cuzk::filecoin::poseidon_hash(block);
  block[0] = first;
  EXPECT_EQ(cuzk::filecoin::poseidon_hash(block),
            fr(0x351c54133b332c90, 0xc26f6d625f4e8195, 0x5fd9623643ed9622, 0x59f42220e09ff6f7));
}

TEST(FilecoinPoseidon, OptimisedEqualsTextbookOnRandomPreimages) {
  std::mt19937_64 rng(29);
  for (std::size_t arity : {1, 2, 3, 8, 11, 16}) {
    const PoseidonConstants& c = poseidon_constants(arity);
    for (int k = 0; k < 20; ++k) {
      const auto preimage = random_frs(arity, rng);
      ASSERT_EQ(cuzk::filecoin::poseidon_hash(c, preimage),
                cuzk::filecoin::poseidon_hash_correct(c, preimage))
          << "arity " << arity;
    }
  }
}

TEST(FilecoinPoseidon, DigestDependsOnEveryInput) {
  std::mt19937_64 rng(7);
  for (std::size_t arity : {2, 8, 11}) {
    auto preimage = random_frs(arity, rng);
    const Fr base = cuzk::filecoin::poseidon_hash(preimage);
    for (std::size_t i = 0; i < arity; ++i) {
      auto changed = preimage;
      changed[i] += Fr::one();
      EXPECT_NE(cuzk::filecoin::poseidon_hash(changed), base) << "arity " << arity << " input " << i;
    }
  }
}

TEST(FilecoinPoseidon, RejectsUnsupportedArityAndWrongPreimageSize) {
  EXPECT_THROW(poseidon_constants(0), std::invalid_argument);
  EXPECT_THROW(poseidon_constants(37), std::invalid_argument);
  const std::vector<Fr> three(3, Fr::one());
  EXPECT_THROW(cuzk::filecoin::poseidon_hash(poseidon_constants(2), three), std::invalid_argument);
  EXPECT_THROW(cuzk::filecoin::poseidon_hash(std::vector<Fr>(40, Fr::one())), std::invalid_argument);
}

}  // namespace
