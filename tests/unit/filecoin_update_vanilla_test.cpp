// SnapDeals partition proofs (filecoin/update_vanilla.hpp): bincode PartitionProof read and written exactly
// (the byte count its layout gives, 562 KB a partition at 32 GiB as the original daemon's notes say), the
// challenges comm_r_new gives, and every kind of damage or inconsistency refused with a message that says
// what — before any circuit is synthesized.
#include <gtest/gtest.h>

#include "filecoin/poseidon.hpp"
#include "filecoin/update_assignment.hpp"
#include "filecoin/update_synthesis.hpp"
#include "filecoin/update_test_data.hpp"
#include "filecoin/update_vanilla.hpp"
#include "unit/sanitizer_skip.hpp"

namespace cuzk::filecoin {
namespace {

// bincode's size of one MerkleProof of a tree (variant, root, leaf, each path: its length, per element a
// hash count, the hashes, an index).
std::size_t merkle_proof_bytes(const TreeShape& t) {
  auto path = [](unsigned levels, unsigned arity) { return 8 + levels * (8 + 32 * (arity - 1) + 8); };
  std::size_t n = 4 + 64 + path(t.base_levels, t.base);
  if (t.sub) n += path(1, t.sub);
  if (t.top) n += path(1, t.top);
  return n;
}

std::size_t partition_bytes(const UpdateParams& p) {
  return 32 + 8 + 32 * p.apex_leaves + 8 +
         p.challenges * (2 * merkle_proof_bytes(p.tree) + merkle_proof_bytes(update_tree_d_shape(p)));
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const UpdateVanillaError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(UpdateVanilla, PartitionProofsRoundTripAtTheirBincodeSize) {
  CUZK_SKIP_UNDER_SANITIZER("an 8 MiB sector generated whole");
  for (const char* size : {"2KiB", "8MiB", "32KiB"}) {
    const UpdateParams& params = update_params_for(size);
    const UpdateTestSector sector = make_test_update_sector(params, 21);
    for (const UpdateVanillaProof& p : sector.partitions) {
      const std::vector<std::uint8_t> bytes = encode_update_vanilla_proof(p, params);
      EXPECT_EQ(bytes.size(), partition_bytes(params)) << size;
      const UpdateVanillaProof back = decode_update_vanilla_proof(bytes, params, "p");
      EXPECT_EQ(encode_update_vanilla_proof(back, params), bytes);
    }
  }
}

TEST(UpdateVanilla, ThirtyTwoGibSectorUpdatesAreGeneratedAndCheckedWhole) {
  const UpdateParams& params = update_params_for("32GiB");
  EXPECT_EQ(partition_bytes(params), 561'768u);  // "16 × 562 KB"
  const UpdateTestSector sector = make_test_update_sector(params, 4, {0, 15});
  ASSERT_EQ(sector.partitions.size(), 2u);
  const std::vector<std::uint64_t> ks{0, 15};
  for (std::size_t i = 0; i < 2; ++i) {
    const auto bytes = encode_update_vanilla_proof(sector.partitions[i], params);
    EXPECT_EQ(bytes.size(), partition_bytes(params));
    const UpdateVanillaProof back = decode_update_vanilla_proof(bytes, params, "p");
    const UpdatePartitionProof circuit =
        update_circuit_proof(params, ks[i], 10, sector.commitments, back, "p");
    EXPECT_EQ(circuit.challenges.size(), 86u);
    check_update_proof_shape(params, circuit);
    for (std::uint64_t c : update_challenges(params, sector.commitments.comm_r_new, ks[i]))
      EXPECT_EQ(c >> 26, ks[i]);  // partition k's nodes
  }
}

TEST(UpdateVanilla, ChallengesFollowFromCommRNew) {
  const UpdateParams& params = update_params_for("32GiB");
  const Fr a = Fr::from_u64(12345), b = Fr::from_u64(12346);
  const auto ca = update_challenges(params, a, 3), cb = update_challenges(params, b, 3);
  EXPECT_EQ(ca.size(), 86u);
  EXPECT_NE(ca, cb);
  EXPECT_EQ(update_challenges(params, a, 3), ca);  // deterministic
  for (std::uint64_t c : ca) EXPECT_LT(c, params.nodes);
  EXPECT_THROW(update_challenges(params, a, 16), std::invalid_argument);
  // The GEN_RANDOMNESS hashes are not the tree's (another domain tag).
  const std::array<Fr, 2> pre{a, b};
  EXPECT_NE(update_phi(a, b), poseidon_hash(pre));
}

TEST(UpdateVanilla, DamagedBytesAreRefusedWithWhatAndWhere) {
  const UpdateParams& params = update_params_for("2KiB");
  const UpdateTestSector sector = make_test_update_sector(params, 8);
  const std::vector<std::uint8_t> good = encode_update_vanilla_proof(sector.partitions[0], params);
  auto decode = [&](std::vector<std::uint8_t> b) {
    return error_of([&] { decode_update_vanilla_proof(b, params, "partition proof 0"); });
  };
  EXPECT_NE(decode({good.begin(), good.begin() + 1000}).find("truncated"), std::string::npos);
  auto longer = good;
  longer.push_back(0);
  EXPECT_NE(decode(longer).find("1 bytes after the proof"), std::string::npos);
  auto apex = good;
  apex[32] = 7;  // 7 apex leaves
  EXPECT_NE(decode(apex).find("7 apex leaves"), std::string::npos);
  auto challenges = good;
  challenges[40 + 32 * 8] = 9;
  EXPECT_NE(decode(challenges).find("9 challenge proofs"), std::string::npos);
  auto variant = good;
  variant[48 + 32 * 8] = 1;  // the first MerkleProof: "sub" for a tree without one
  EXPECT_NE(decode(variant).find("MerkleProof variant 1 for tree R old"), std::string::npos);
  auto element = good;
  for (int i = 0; i < 32; ++i) element[i] = 0xff;  // comm_c ≥ r
  EXPECT_NE(decode(element).find("comm_c is not a canonical field element"), std::string::npos);
  EXPECT_NE(decode(good).find("(no error)"), std::string::npos);
}

TEST(UpdateVanilla, InconsistentProofsAreRefusedBeforeTheCircuit) {
  const UpdateParams& params = update_params_for("16KiB");  // 2 partitions
  const UpdateTestSector sector = make_test_update_sector(params, 9);
  const UpdateVanillaProof& p1 = sector.partitions[1];
  auto check = [&](const UpdateVanillaProof& p, std::uint64_t k = 1, UpdateCommitments c = {},
                   unsigned h = 0) {
    if (c.comm_r_old == Fr::zero()) c = sector.commitments;
    return error_of([&] { update_circuit_proof(params, k, h ? h : sector.h, c, p, "partition proof"); });
  };
  EXPECT_EQ(check(p1), "(no error)");
  EXPECT_NE(check(p1, 0).find("not the node comm_r_new challenges"), std::string::npos) << check(p1, 0);
  UpdateCommitments other = sector.commitments;
  other.comm_r_old += Fr::one();
  EXPECT_NE(check(p1, 1, other).find("comm_r_old is not Poseidon"), std::string::npos);
  other = sector.commitments;
  other.comm_r_new += Fr::one();
  EXPECT_NE(check(p1, 1, other).find("comm_r_new is not Poseidon"), std::string::npos);
  other = sector.commitments;
  other.comm_d_new += Fr::one();
  EXPECT_NE(check(p1, 1, other).find("root is not the partition's"), std::string::npos);
  UpdateVanillaProof leaf = p1;
  leaf.challenges[3].r_new.leaf += Fr::one();
  EXPECT_NE(check(leaf).find("challenge 3"), std::string::npos);
  UpdateVanillaProof apex = p1;
  apex.apex_leafs[100] += Fr::one();
  EXPECT_NE(check(apex).find("apex"), std::string::npos) << check(apex);
  UpdateVanillaProof data = p1;
  data.challenges[5].d_new.leaf += Fr::one();
  EXPECT_NE(check(data).find("does not lead from its leaf"), std::string::npos) << check(data);
  EXPECT_NE(check(p1, 2).find("partition 2 of 2"), std::string::npos);
  EXPECT_NE(check(p1, 1, {}, 7).find("h = 7"), std::string::npos);
}

// The prover's assignment from evaluation mode is the sequential witness, every row checked.
TEST(UpdateVanilla, TheProverAssignmentIsTheWitnessAndChecksEveryRow) {
  const UpdateParams& params = update_params_for("2KiB");
  const UpdateTestSector sector = make_test_update_sector(params, 12);
  const UpdatePartitionProof proof =
      update_circuit_proof(params, 0, sector.h, sector.commitments, sector.partitions[0], "p");
  const auto w = checked_update_prover_assignment(params, proof, "p");
  const UpdateWitness expected = update_witness(params, proof);
  ASSERT_EQ(w.inputs.size(), expected.inputs.size());
  EXPECT_TRUE(std::equal(w.inputs.begin(), w.inputs.end(), expected.inputs.begin()));
  ASSERT_EQ(w.aux.size(), expected.aux.size());
  EXPECT_TRUE(std::equal(w.aux.begin(), w.aux.end(), expected.aux.begin()));
  EXPECT_EQ(w.a.size(), update_layout(params).prover_rows());
  UpdatePartitionProof bad = proof;
  bad.challenges[7].path_r_old.levels[0].siblings[2] += Fr::one();
  EXPECT_THROW(checked_update_prover_assignment(params, bad, "p"), UnsatisfiedCircuit);
  UpdatePartitionProof apex = proof;  // caught in the apex tree's rows, evaluated in parallel
  apex.apex_leafs[5] += Fr::one();
  EXPECT_THROW(checked_update_prover_assignment(params, apex, "p"), UnsatisfiedCircuit);
}

}  // namespace
}  // namespace cuzk::filecoin
