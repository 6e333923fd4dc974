// PoRep challenge derivation: synthetic challenges against storage-proofs-porep challenges.rs
// test_synth_challenges_against_hardcoded, ChaCha20 against RFC 8439, and the interactive and
// non-interactive recipes against values computed from the same recipe with Python's hashlib.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "filecoin/chacha.hpp"
#include "filecoin/challenges.hpp"
#include "filecoin_test_util.hpp"

namespace cuzk::filecoin {
namespace {

using testing::hex;

Bytes32 small_field_element(std::uint8_t value) {  // Fr::from(value).to_repr()
  Bytes32 b{};
  b[0] = value;
  return b;
}

// RFC 8439 section 2.3.2: key 00..1f, nonce 00 00 00 09 00 00 00 4a 00 00 00 00, block counter 1.
TEST(FilecoinChaCha20, Rfc8439BlockAndSeeking) {
  std::array<std::uint8_t, 32> key;
  for (int i = 0; i < 32; ++i) key[i] = std::uint8_t(i);
  const std::array<std::uint8_t, 12> nonce = {0, 0, 0, 9, 0, 0, 0, 0x4a, 0, 0, 0, 0};
  ChaCha20 c(key, nonce);
  c.seek(64);
  std::vector<std::uint8_t> block(64, 0);
  c.apply_keystream(block);
  EXPECT_EQ(hex(block),
            "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4ed2826446079faa0914c2d705d98b02a2"
            "b5129cd"
            "1de164eb9cbd083e8a2503c4e");
  // The same bytes read from offset 0 in uneven pieces.
  ChaCha20 d(key, nonce);
  std::vector<std::uint8_t> stream(128, 0);
  d.apply_keystream(std::span(stream).first(7));
  d.apply_keystream(std::span(stream).subspan(7, 70));
  d.apply_keystream(std::span(stream).subspan(77));
  EXPECT_TRUE(std::equal(block.begin(), block.end(), stream.begin() + 64));
  // apply_keystream XORs.
  ChaCha20 e(key, nonce);
  e.seek(64);
  e.apply_keystream(block);
  EXPECT_EQ(block, std::vector<std::uint8_t>(64, 0));
}

TEST(FilecoinChallenges, FromLittleEndianBytes) {
  const std::array<std::uint8_t, 32> ones = [] {
    std::array<std::uint8_t, 32> a;
    a.fill(0xff);
    return a;
  }();
  EXPECT_EQ(challenge_from_le_bytes(ones, 2048), 8u);  // (2^256 - 1) mod 2047 + 1
  EXPECT_EQ(challenge_from_le_bytes(ones, std::uint64_t(1) << 31), 256u);
  EXPECT_EQ(challenge_from_le_bytes(ones, 2), 1u);
  EXPECT_EQ(challenge_from_le_bytes(std::array<std::uint8_t, 32>{}, 64), 1u);
  EXPECT_THROW(challenge_from_le_bytes(ones, 1), std::invalid_argument);
}

// challenges.rs test_synth_challenges_against_hardcoded: 2^10 nodes, replica_id = 55, comm_r = 101,
// 21 synthetic challenges, 10 porep challenges with randomness [1; 32].
TEST(FilecoinChallenges, SynthAgainstHardcoded) {
  const SynthChallenges synth(1 << 10, small_field_element(55), small_field_element(101), 21);
  const std::vector<std::uint64_t> expected_synth = {178, 297, 869, 211, 875, 477, 94,  781, 124, 332, 856,
                                                     801, 176, 692, 429, 691, 290, 204, 986, 210, 973};
  EXPECT_EQ(synth.all(), expected_synth);
  for (std::size_t i = 21; i-- > 0;) EXPECT_EQ(synth.challenge(i), expected_synth[i]);
  EXPECT_THROW(synth.challenge(21), std::out_of_range);

  Bytes32 rand;
  rand.fill(1);
  const std::vector<std::uint64_t> expected_porep = {176, 781, 801, 986, 290, 211, 692, 856, 986, 332};
  EXPECT_EQ(synth.partition_challenges(10, rand, 0), expected_porep);
  // Partitions are consecutive windows of one selection stream.
  const auto all_indexes = synth.partition_indexes(10, rand, 0);
  const auto second = synth.partition_indexes(5, rand, 1);
  EXPECT_EQ(second, std::vector<std::size_t>(all_indexes.begin() + 5, all_indexes.end()));
}

TEST(FilecoinChallenges, SynthDefaultCount) {
  EXPECT_EQ(SynthChallenges(1 << 10, small_field_element(1), small_field_element(2)).count(), 1u << 10);
  EXPECT_EQ(SynthChallenges(std::uint64_t(1) << 30, small_field_element(1), small_field_element(2)).count(),
            std::size_t(1) << 18);
}

// Expected values: SHA-256 over the documented preimages, reduced as in bigint_to_challenge, in Python.
TEST(FilecoinChallenges, InteractiveAndNonInteractiveRecipes) {
  ReplicaId replica_id;
  replica_id.fill(9);
  Bytes32 seed, comm_r;
  for (int i = 0; i < 32; ++i) seed[i] = std::uint8_t(i);
  comm_r.fill(3);
  const std::uint64_t nodes = std::uint64_t(1) << 30;

  const auto p0 = interactive_challenges(nodes, replica_id, seed, 18, 0);
  ASSERT_EQ(p0.size(), 18u);
  EXPECT_EQ(p0[0], 92863021u);
  EXPECT_EQ(p0[1], 86112106u);
  EXPECT_EQ(p0[2], 398849363u);
  const auto p3 = interactive_challenges(nodes, replica_id, seed, 18, 3);
  EXPECT_EQ(p3[0], 568463830u);
  EXPECT_EQ(p3[17], 518300656u);

  const auto ni0 = non_interactive_challenges(nodes, replica_id, comm_r, 18, 0);
  EXPECT_EQ(ni0[0], 124916476u);
  EXPECT_EQ(ni0[1], 105915635u);
  EXPECT_EQ(non_interactive_challenges(nodes, replica_id, comm_r, 18, 125)[17], 256596265u);

  // challenges.rs challenge_partition_equivalence: k partitions of n equal one partition of k * n.
  const auto one = interactive_challenges(nodes, replica_id, seed, 90, 0);
  std::vector<std::uint64_t> many;
  for (std::uint8_t k = 0; k < 5; ++k) {
    const auto part = interactive_challenges(nodes, replica_id, seed, 18, k);
    many.insert(many.end(), part.begin(), part.end());
  }
  EXPECT_EQ(one, many);
  for (std::uint64_t c : one) {
    EXPECT_GE(c, 1u);
    EXPECT_LT(c, nodes);
  }
}

}  // namespace
}  // namespace cuzk::filecoin
