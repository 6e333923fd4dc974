// filecoin-proofs-api's RegisteredSealProof table against rust-filecoin-proofs-api registry.rs (ids, names,
// versions, features, sector sizes, partitions) and the parameter file names published in rust-fil-proofs
// parameters.json (computed here from the circuit's identifier, compared with the published names).
#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>

#include "filecoin/registered_proof.hpp"

namespace cuzk::filecoin {
namespace {

TEST(RegisteredSealProof, TheTwentyProofTypes) {
  const auto proofs = registered_seal_proofs();
  ASSERT_EQ(proofs.size(), 20u);
  // registry.rs REGISTERED_PROOF_IDS, in order.
  const char* names[20] = {
      "StackedDrg2KiBV1",
      "StackedDrg8MiBV1",
      "StackedDrg512MiBV1",
      "StackedDrg32GiBV1",
      "StackedDrg64GiBV1",
      "StackedDrg2KiBV1_1",
      "StackedDrg8MiBV1_1",
      "StackedDrg512MiBV1_1",
      "StackedDrg32GiBV1_1",
      "StackedDrg64GiBV1_1",
      "StackedDrg2KiBV1_1_Feat_SyntheticPoRep",
      "StackedDrg8MiBV1_1_Feat_SyntheticPoRep",
      "StackedDrg512MiBV1_1_Feat_SyntheticPoRep",
      "StackedDrg32GiBV1_1_Feat_SyntheticPoRep",
      "StackedDrg64GiBV1_1_Feat_SyntheticPoRep",
      "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep",
      "StackedDrg8MiBV1_2_Feat_NonInteractivePoRep",
      "StackedDrg512MiBV1_2_Feat_NonInteractivePoRep",
      "StackedDrg32GiBV1_2_Feat_NonInteractivePoRep",
      "StackedDrg64GiBV1_2_Feat_NonInteractivePoRep",
  };
  const std::uint64_t bytes[5] = {2048, 8388608, 536870912, 34359738368ull, 68719476736ull};
  const char* variants[5] = {"StackedDrg2KiBV1", "StackedDrg8MiBV1", "StackedDrg512MiBV1",
                             "StackedDrg32GiBV1", "StackedDrg64GiBV1"};
  for (std::uint64_t id = 0; id < 20; ++id) {
    const RegisteredSealProof& p = proofs[id];
    SCOPED_TRACE(names[id]);
    EXPECT_EQ(p.id, id);
    EXPECT_EQ(p.name, names[id]);
    EXPECT_EQ(p.sector_bytes, bytes[id % 5]);
    EXPECT_EQ(p.params().sector_bytes, bytes[id % 5]);
    EXPECT_EQ(p.vanilla_proof_variant(), variants[id % 5]);
    const ApiVersion versions[4] = {ApiVersion::V1_0_0, ApiVersion::V1_1_0, ApiVersion::V1_2_0,
                                    ApiVersion::V1_2_0};
    const PorepFeature features[4] = {PorepFeature::kNone, PorepFeature::kNone, PorepFeature::kSyntheticPoRep,
                                      PorepFeature::kNonInteractivePoRep};
    EXPECT_EQ(p.api_version, versions[id / 5]);
    EXPECT_EQ(p.feature, features[id / 5]);
    // POREP_PARTITIONS and get_porep_non_interactive_partitions (filecoin-proofs constants.rs).
    const bool production = id % 5 >= 3;
    const unsigned partitions = id >= 15 ? (production ? 126 : 13) : (production ? 10 : 1);
    EXPECT_EQ(p.partitions, partitions);
    // ceil(minimum challenges / partitions): interactive 176 / 10 and NI 2253 / 126 are both 18; the test
    // sizes 2 / 1 and 26 / 13 both 2.
    EXPECT_EQ(p.params().challenges_per_partition, production ? 18u : 2u);
    EXPECT_EQ(p.total_challenges(), std::uint64_t{partitions} * (production ? 18 : 2));
    // porep_id: the id as u64 LE, nonce 0.
    PorepId expected{};
    expected[0] = static_cast<std::uint8_t>(id);
    EXPECT_EQ(p.porep_id, expected);
    EXPECT_EQ(find_registered_seal_proof(id), &p);
    EXPECT_EQ(find_registered_seal_proof(p.name), &p);
    EXPECT_EQ(&registered_seal_proof_by_id(id), &p);
    EXPECT_EQ(&registered_seal_proof_by_name(names[id]), &p);
    EXPECT_EQ(&registered_seal_proof_for(p.params(), p.api_version, p.feature), &p);
    EXPECT_EQ(porep_graph(p).api_version(), p.api_version);
    EXPECT_EQ(porep_graph(p).nodes(), bytes[id % 5] / 32);
  }
}

TEST(RegisteredSealProof, LookupsNameWhatIsKnown) {
  EXPECT_EQ(find_registered_seal_proof(std::uint64_t{20}), nullptr);
  EXPECT_EQ(find_registered_seal_proof("StackedDrg32GiBV1_2"), nullptr);
  EXPECT_EQ(find_registered_seal_proof("stackeddrg32gibv1_1"), nullptr);  // serde names are exact
  try {
    registered_seal_proof_by_name("StackedDrg16GiBV1_1");
    ADD_FAILURE() << "accepted";
  } catch (const std::invalid_argument& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("\"StackedDrg16GiBV1_1\""), std::string::npos) << m;
    EXPECT_NE(m.find("StackedDrg2KiBV1 (0)"), std::string::npos) << m;
    EXPECT_NE(m.find("StackedDrg64GiBV1_2_Feat_NonInteractivePoRep (19)"), std::string::npos) << m;
  }
  EXPECT_THROW(registered_seal_proof_by_id(99), std::invalid_argument);
  EXPECT_THROW(
      registered_seal_proof_for(porep_params_for("2KiB"), ApiVersion::V1_1_0, PorepFeature::kSyntheticPoRep),
      std::invalid_argument);
  PorepParams odd = porep_params_for("2KiB");
  odd.sector_bytes = 4096;
  EXPECT_THROW(registered_seal_proof_v1_1(odd), std::invalid_argument);
  EXPECT_THROW(vanilla_seal_proof_variant(odd), std::invalid_argument);
}

TEST(RegisteredSealProof, V1_1Ids) {
  const char* sizes[5] = {"2KiB", "8MiB", "512MiB", "32GiB", "64GiB"};
  for (std::uint64_t s = 0; s < 5; ++s)
    EXPECT_EQ(registered_seal_proof_v1_1(porep_params_for(sizes[s])), 5 + s);
}

TEST(RegisteredSealProof, ParameterFilesAsPublished) {
  // rust-fil-proofs parameters.json (lines 172-217): the .params/.vk names and their sector_size.
  const struct {
    const char* size;
    const char* stem;
  } published[] = {
      {"2KiB",
       "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
       "032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f"},
      {"8MiB",
       "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
       "ecd683648512ab1765faa2a5f14bab48f676e633467f0aa8aad4b55dcb0652bb"},
      {"512MiB",
       "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
       "6babf46ce344ae495d558e7770a585b2382d54f225af8ed0397b8be7c3fcd472"},
      {"32GiB",
       "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-0-sha256_hasher-"
       "82a357d2f2ca81dc61bb45f4a762807aedee1b0a53fd6c4e77b46a01bfef7820"},
      {"64GiB",
       "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-2-sha256_hasher-"
       "96f1b4a04c5c51e4759bbf224bbc2ef5a42c7100f16ec0637123f16a845ddfb2"},
  };
  std::set<std::string> stems;
  for (const auto& [size, stem] : published) {
    const PorepParams& params = porep_params_for(size);
    EXPECT_EQ(porep_parameter_file_stem(params), stem) << size;
    stems.insert(stem);
  }
  EXPECT_EQ(
      porep_parameter_identifier(porep_params_for("2KiB")),
      "layered_drgporep::PublicParams{ graph: stacked_graph::StackedGraph{expansion_degree: 8 base_graph: "
      "drgraph::BucketGraph{size: 64; degree: 6; hasher: poseidon_hasher} }, challenges: LayerChallenges "
      "{ layers: 2, max_count: 2 }, tree: merkletree-poseidon_hasher-8-0-0 }");
  // Every proof type of a size shares the file (NI's partition counts keep 18 / 2 challenges per partition).
  for (const RegisteredSealProof& p : registered_seal_proofs()) {
    EXPECT_EQ(p.parameter_file_stem(), porep_parameter_file_stem(p.params())) << p.name;
    EXPECT_TRUE(stems.count(p.parameter_file_stem())) << p.name;
  }
}

}  // namespace
}  // namespace cuzk::filecoin
