// PoSt vanilla proofs in filecoin-proofs' bincode form (filecoin/post_vanilla.hpp): a 32 GiB sector's proof
// of 10 challenges is 24,960 bytes, the size of the one real proof known (Curio's testgolden/post.vproof);
// proofs round-trip, their decoded sectors satisfy the PoSt circuit with Filecoin's public inputs, and every
// kind of damage is a clear error.
#include <gtest/gtest.h>

#include <algorithm>

#include "filecoin/porep_vanilla_verify.hpp"
#include "filecoin/post_synthesis.hpp"
#include "filecoin/post_test_data.hpp"

namespace cuzk::filecoin {
namespace {

std::array<std::uint8_t, 32> randomness(std::uint8_t fill) {
  std::array<std::uint8_t, 32> r{};
  for (std::size_t i = 0; i < r.size(); ++i) r[i] = static_cast<std::uint8_t>(fill + 7 * i);
  r[31] &= 0x3f;  // a canonical domain value, as the chain's randomness is taken
  return r;
}

TEST(PostVanilla, A32GibSectorsProofIsTheGoldenFilesSize) {
  const auto params = post_params_for(PostKind::kWindow, "32GiB");
  const auto v = make_test_post_vanilla_proof(params, randomness(1), 1, 5);
  EXPECT_EQ(encode_post_vanilla_proof(v, params).size(), 24'960u);
  // 64 GiB: a top level (a 2-ary path element: 8 + 32 + 8 bytes, and its u64 count) in each inclusion proof.
  const auto p64 = post_params_for(PostKind::kWindow, "64GiB");
  EXPECT_EQ(encode_post_vanilla_proof(make_test_post_vanilla_proof(p64, randomness(2), 3, 5), p64).size(),
            24'960u + 10 * (8 + 8 + 32 + 8));
}

TEST(PostVanilla, ProofsRoundTripAndSatisfyTheCircuit) {
  for (const char* size : {"2KiB", "8MiB", "512MiB", "32GiB", "64GiB"}) {
    auto params = post_params_for(PostKind::kWindow, size);
    params.sectors = 2;  // two sectors' proofs make the circuit's sectors (all of them at the test sizes)
    const auto r = randomness(9);
    std::vector<PostSectorProof> sectors;
    std::vector<Fr> expected_inputs{Fr::one()};
    for (std::uint64_t id : {11u, 12u}) {
      const auto v = make_test_post_vanilla_proof(params, r, id, 3);
      const auto bytes = encode_post_vanilla_proof(v, params);
      const auto d = decode_post_vanilla_proof(bytes, params, "proof");
      EXPECT_EQ(d.sector_id, id);
      EXPECT_EQ(d.comm_r, v.comm_r);
      ASSERT_EQ(d.sectors.size(), 1u);
      EXPECT_EQ(d.sectors[0].leafs, v.sectors[0].leafs);
      EXPECT_EQ(d.sectors[0].comm_c, v.sectors[0].comm_c);
      EXPECT_EQ(d.sectors[0].comm_r_last, v.sectors[0].comm_r_last);
      const auto challenges = post_challenges(r, id, params.nodes, params.challenges);
      EXPECT_EQ(d.challenged_leaves[0], challenges) << size;
      EXPECT_EQ(encode_post_vanilla_proof(d, params), bytes);
      sectors.push_back(d.sectors[0]);
      expected_inputs.push_back(v.comm_r);
      for (std::uint64_t c : challenges) expected_inputs.push_back(Fr::from_u64(c));
    }
    EXPECT_EQ(post_first_unsatisfied(params, sectors), -1) << size;
    EXPECT_EQ(post_witness(params, sectors).inputs, expected_inputs) << size;
  }
}

TEST(PostVanilla, ChallengesAreInTheSectorAndDependOnEverything) {
  const std::uint64_t nodes = std::uint64_t{1} << 30;
  const auto a = post_challenges(randomness(1), 7, nodes, 10);
  EXPECT_EQ(a.size(), 10u);
  for (std::uint64_t c : a) EXPECT_LT(c, nodes);
  EXPECT_EQ(post_challenges(randomness(1), 7, nodes, 10), a);
  EXPECT_NE(post_challenges(randomness(2), 7, nodes, 10), a);
  EXPECT_NE(post_challenges(randomness(1), 8, nodes, 10), a);
  EXPECT_EQ(post_challenges(randomness(1), 7, nodes, 3),
            std::vector<std::uint64_t>(a.begin(), a.begin() + 3));
  for (std::uint64_t c : post_challenges(randomness(1), 7, 64, 50)) EXPECT_LT(c, 64u);
}

// A partition with fewer sectors than it holds is padded with the last one, and still satisfies the circuit
// with the last sector's inputs repeated; WinningPoSt's one proof of 66 challenges is its 66 sectors.
TEST(PostVanilla, PartitionsArePaddedAndWinningIsSplitAsFilecoinDoes) {
  auto params = post_params_for(PostKind::kWindow, "512MiB");
  params.sectors = 5;  // a partition of 5 sectors, proved with 2
  const auto r = randomness(3);
  const std::vector<PostVanillaProof> two{make_test_post_vanilla_proof(params, r, 1, 2),
                                          make_test_post_vanilla_proof(params, r, 2, 2)};
  const auto sectors = post_circuit_sectors(params, two, r);
  ASSERT_EQ(sectors.size(), 5u);
  for (std::size_t i = 2; i < 5; ++i) EXPECT_EQ(sectors[i].leafs, two[1].sectors[0].leafs);
  EXPECT_EQ(post_first_unsatisfied(params, sectors), -1);
  const auto inputs = post_witness(params, sectors).inputs;
  const std::size_t each = 1 + params.challenges;
  for (std::size_t i = 2; i < 5; ++i)
    EXPECT_TRUE(std::equal(inputs.begin() + 1 + i * each, inputs.begin() + 1 + (i + 1) * each,
                           inputs.begin() + 1 + each));
  // Other randomness: the leaves are not the challenged ones.
  EXPECT_THROW(post_circuit_sectors(params, two, randomness(4)), PostVanillaError);
  const std::vector<PostVanillaProof> six(6, two[0]);
  EXPECT_THROW(post_circuit_sectors(params, six, r), PostVanillaError);  // more than the partition holds

  const auto winning = post_params_for(PostKind::kWinning, "32GiB");
  auto one_sector = winning;
  one_sector.challenges = 66;  // how the vanilla proof is made: one sector, 66 challenges
  const std::vector<PostVanillaProof> win{make_test_post_vanilla_proof(one_sector, r, 9, 4)};
  const auto split = post_circuit_sectors(winning, win, r);
  ASSERT_EQ(split.size(), 66u);
  EXPECT_EQ(post_first_unsatisfied(winning, split), -1);
  EXPECT_EQ(post_witness(winning, split).inputs[2],
            Fr::from_u64(post_challenges(r, 9, winning.nodes, 66)[0]));
}

void expect_error(const std::vector<std::uint8_t>& bytes, const PostParams& params, const std::string& part) {
  try {
    decode_post_vanilla_proof(bytes, params, "vproof");
    ADD_FAILURE() << "accepted; expected an error with '" << part << "'";
  } catch (const PostVanillaError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("vproof: "), std::string::npos) << m;
    EXPECT_NE(m.find(part), std::string::npos) << m;
  }
}

TEST(PostVanilla, DamageIsAClearError) {
  const auto params = post_params_for(PostKind::kWindow, "32GiB");
  const auto v = make_test_post_vanilla_proof(params, randomness(4), 42, 1);
  const auto good = encode_post_vanilla_proof(v, params);
  for (std::size_t cut :
       {std::size_t(0), std::size_t(7), std::size_t(40), std::size_t(1000), good.size() - 1})
    expect_error(std::vector<std::uint8_t>(good.begin(), good.begin() + cut), params, "truncated");
  auto bad = good;
  bad.push_back(0);
  expect_error(bad, params, "1 bytes after the proof");
  bad = good;
  bad[56] = 5;  // the first inclusion proof's variant (after sector_id, comm_r and two counts)
  expect_error(bad, params, "unknown MerkleProof variant 5");
  expect_error(good, post_params_for(PostKind::kWindow, "64GiB"), "MerkleProof variant 1 for a 64GiB sector");
  bad = good;
  std::fill(bad.end() - 32, bad.end(), 0xff);  // comm_r_last
  expect_error(bad, params, "comm_r_last is not a canonical field element");
  bad = good;
  bad[8 + 32] = 0;  // no sector proofs
  expect_error(bad, params, "no sector proofs");
  bad = good;
  bad[8 + 32 + 1] = 0xff;  // more sector proofs than bytes
  expect_error(bad, params, "more than this proof can hold");
  // A path index ≥ arity: the first element's index (after the variant, the base path count, the first
  // element's hash count and its 7 hashes).
  bad = good;
  bad[60 + 8 + 8 + 7 * 32] = 8;
  expect_error(bad, params, "index 8 ≥ arity 8");
  // Another leaf: the path no longer leads to comm_r_last.
  auto other = v;
  other.sectors[0].leafs[3] += Fr::one();
  expect_error(encode_post_vanilla_proof(other, params), params, "inclusion proof 3: the path does not lead");
  other = v;
  other.comm_r += Fr::one();
  expect_error(encode_post_vanilla_proof(other, params), params,
               "comm_r is not Poseidon(comm_c, comm_r_last)");
}

}  // namespace
}  // namespace cuzk::filecoin
