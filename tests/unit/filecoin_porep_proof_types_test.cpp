// Every PoRep proof type Curio can send, from a generated C1 output to a satisfied circuit: synthetic PoRep
// (the seed's selection of the synthetic challenges of replica_id and comm_r) and non-interactive PoRep
// (challenges from comm_r, 13 partitions at the test sizes) on a 2 KiB sector generated whole, as those
// types are sealed. Each C1 output goes through the writer and the reader (which re-derives every
// challenge and every parent as the type's own graph gives them), then every partition's circuit is
// synthesized as the daemon does it: every row holds and the public inputs are the challenges'. A C1 output
// of one type relabelled as another is refused naming the challenge.
#include <gtest/gtest.h>

#include <string>

#include "filecoin/c1_output.hpp"
#include "filecoin/c1_test_data.hpp"
#include "filecoin/porep_assignment.hpp"
#include "filecoin/porep_c2.hpp"
#include "filecoin/porep_test_data.hpp"
#include "filecoin/porep_vanilla_verify.hpp"
#include "sanitizer_skip.hpp"

namespace cuzk::filecoin {
namespace {

const RegisteredSealProof& proof_2kib(PorepFeature feature) {
  return registered_seal_proof_for(porep_params_for("2KiB"), ApiVersion::V1_2_0, feature);
}

std::vector<std::uint8_t> bytes_of(const std::string& s) {
  return {s.begin(), s.end()};
}

// The C1 output of `proof`, written and read back as the daemon reads it, and every partition synthesized.
void expect_every_partition_satisfied(const RegisteredSealProof& proof, std::uint64_t seed) {
  const C1Output c1 = make_test_c1_output(proof, seed);
  ASSERT_EQ(c1.registered_proof, &proof);
  ASSERT_EQ(c1.partitions.size(), proof.partitions);
  const std::string json = write_seal_commit_phase1_output(c1);
  EXPECT_NE(json.find("\"registered_proof\":\"" + std::string(proof.name) + "\""), std::string::npos);
  const PorepC2Input in = read_porep_c1(bytes_of(json), "c1.json");
  ASSERT_EQ(in.proof, &proof);
  ASSERT_EQ(in.partitions.size(), proof.partitions);
  const SdrGraph graph = porep_graph(proof);
  for (unsigned k = 0; k < proof.partitions; ++k) {
    const std::string what = std::string(proof.name) + " partition " + std::to_string(k);
    // The challenges are the type's, and the vanilla proof is a sector's (the independent vanilla check).
    const auto expected = c1_partition_challenges(proof, c1.replica_id, c1.seed, c1.comm_r, k);
    ASSERT_EQ(in.partitions[k].challenges.size(), expected.size()) << what;
    for (std::size_t i = 0; i < expected.size(); ++i)
      EXPECT_EQ(in.partitions[k].challenges[i].challenge, expected[i]) << what << " challenge " << i;
    EXPECT_NO_THROW(verify_porep_vanilla(in.params(), graph, in.partitions[k])) << what;
    const auto w = checked_porep_prover_assignment(in.params(), in.partitions[k], what);
    ASSERT_EQ(w.inputs.size(), in.public_inputs[k].size() + 1) << what;
    EXPECT_TRUE(std::equal(in.public_inputs[k].begin(), in.public_inputs[k].end(), w.inputs.begin() + 1))
        << what;
  }
}

TEST(PorepProofTypes, SyntheticPoRepAt2KiB) {
  const RegisteredSealProof& proof = proof_2kib(PorepFeature::kSyntheticPoRep);
  EXPECT_EQ(proof.partitions, 1u);
  expect_every_partition_satisfied(proof, 31);
}

TEST(PorepProofTypes, NonInteractivePoRepAt2KiBHas13Partitions) {
  CUZK_SKIP_UNDER_SANITIZER("13 partitions of the 2 KiB circuit");
  const RegisteredSealProof& proof = proof_2kib(PorepFeature::kNonInteractivePoRep);
  EXPECT_EQ(proof.partitions, 13u);
  expect_every_partition_satisfied(proof, 32);
}

TEST(PorepProofTypes, AnotherTypesChallengesAreRefused) {
  const RegisteredSealProof& synthetic = proof_2kib(PorepFeature::kSyntheticPoRep);
  const std::string json = write_seal_commit_phase1_output(make_test_c1_output(synthetic, 33));
  // The same sector claimed as interactive V1_1: its porep_id, graph and challenges are another type's.
  std::string relabelled = json;
  const std::string name = "\"" + std::string(synthetic.name) + "\"";
  relabelled.replace(relabelled.find(name), name.size(), "\"StackedDrg2KiBV1_1\"");
  try {
    read_porep_c1(bytes_of(relabelled), "c1.json");
    ADD_FAILURE() << "a synthetic sector was accepted as StackedDrg2KiBV1_1";
  } catch (const C1Error& e) {
    EXPECT_NE(std::string(e.what()).find("challenge"), std::string::npos) << e.what();
  }
}

TEST(PorepProofTypes, WholeSectorsOnlyWhereTheyFit) {
  // Challenges from comm_r need the whole sector generated: 8 MiB (2^18 nodes) is the largest test size.
  const RegisteredSealProof& big = registered_seal_proof_for(porep_params_for("512MiB"), ApiVersion::V1_2_0,
                                                             PorepFeature::kSyntheticPoRep);
  try {
    make_test_porep_sector(big, 1);
    ADD_FAILURE() << "a 512 MiB sector was generated whole";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("8 MiB"), std::string::npos) << e.what();
  }
  // The interactive type is unchanged: the sparse generator, same data as before for a seed.
  const PorepParams& p = porep_params_for("2KiB");
  const PorepTestSector a = make_test_porep_sector(p, 34);
  const PorepTestSector b =
      make_test_porep_sector(registered_seal_proof_by_id(registered_seal_proof_v1_1(p)), 34);
  ASSERT_EQ(a.partitions.size(), 1u);
  EXPECT_EQ(a.partitions[0].proof.comm_r, b.partitions[0].proof.comm_r);
  EXPECT_EQ(a.partitions[0].challenges, b.partitions[0].challenges);
  EXPECT_EQ(a.partitions[0].public_inputs, make_test_porep_partition(p, 34).public_inputs);
}

}  // namespace
}  // namespace cuzk::filecoin
