// PoSt proof types and parameter files: the 15 RegisteredPoStProof types as filecoin-proofs-api numbers
// them, the parameter file names rust-fil-proofs' parameters.json publishes (computed here from the
// circuit's identifier), the built-in circuit ids, and how each API version numbers a sector's challenges.
#include <gtest/gtest.h>

#include "filecoin/circuit_catalog.hpp"
#include "filecoin/post_params.hpp"
#include "filecoin/registered_post_proof.hpp"

namespace cuzk::filecoin {
namespace {

TEST(RegisteredPostProof, FifteenTypesInFfiOrder) {
  const auto all = registered_post_proofs();
  ASSERT_EQ(all.size(), 15u);
  for (std::size_t i = 0; i < all.size(); ++i) EXPECT_EQ(all[i].id, i);
  EXPECT_EQ(all[0].name, "StackedDrgWinning2KiBV1");
  EXPECT_EQ(all[3].name, "StackedDrgWinning32GiBV1");
  EXPECT_EQ(all[8].name, "StackedDrgWindow32GiBV1");  // Curio's golden proof's PoStProof 8
  EXPECT_EQ(all[13].name, "StackedDrgWindow32GiBV1_2");
  EXPECT_EQ(all[14].name, "StackedDrgWindow64GiBV1_2");
  EXPECT_EQ(all[3].kind, PostKind::kWinning);
  EXPECT_EQ(all[8].kind, PostKind::kWindow);
  EXPECT_EQ(all[8].api_version, ApiVersion::V1_0_0);
  EXPECT_EQ(all[13].api_version, ApiVersion::V1_2_0);
  EXPECT_EQ(all[9].sector_bytes, std::uint64_t{64} << 30);
  EXPECT_EQ(find_registered_post_proof(15), nullptr);
  EXPECT_EQ(latest_registered_post_proof(PostKind::kWindow, std::uint64_t{32} << 30).id, 13u);
  EXPECT_EQ(latest_registered_post_proof(PostKind::kWinning, 2048).id, 0u);
  EXPECT_THROW(latest_registered_post_proof(PostKind::kWindow, 4096), std::invalid_argument);
}

TEST(RegisteredPostProof, ParameterFilesAsPublished) {
  // rust-fil-proofs parameters.json: every v28-proof-of-spacetime-fallback-… name, by its sector_size.
  const struct {
    PostKind kind;
    const char* size;
    const char* tail;
  } published[] = {
      {PostKind::kWindow, "2KiB", "8-0-0-0170db1f394b35d995252228ee359194b13199d259380541dc529fb0099096b0"},
      {PostKind::kWindow, "8MiB", "8-0-0-5294475db5237a2e83c3e52fd6c2b03859a1831d45ed08c4f35dbf9a803165a9"},
      {PostKind::kWindow, "512MiB", "8-0-0-0cfb4f178bbb71cf2ecfcd42accce558b27199ab4fb59cb78f2483fe21ef36d9"},
      {PostKind::kWindow, "32GiB", "8-8-0-0377ded656c6f524f1618760bffe4e0a1c51d5a70c4509eedae8a27555733edc"},
      {PostKind::kWindow, "64GiB", "8-8-2-2627e4006b67f99cef990c0a47d5426cb7ab0a0ad58fc1061547bf2d28b09def"},
      {PostKind::kWinning, "2KiB", "8-0-0-3ea05428c9d11689f23529cde32fd30aabd50f7d2c93657c1d3650bca3e8ea9e"},
      {PostKind::kWinning, "8MiB", "8-0-0-50c7368dea9593ed0989e70974d28024efa9d156d585b7eea1be22b2e753f331"},
      {PostKind::kWinning, "512MiB",
       "8-0-0-7d739b8cf60f1b0709eeebee7730e297683552e4b69cab6984ec0285663c5781"},
      {PostKind::kWinning, "32GiB", "8-8-0-559e581f022bb4e4ec6e719e563bf0e026ad6de42e56c18714a2c692b1b88d7e"},
      {PostKind::kWinning, "64GiB", "8-8-2-b62098629d07946e9028127e70295ed996fe3ed25b0f9f88eb610a0ab4385a3c"},
  };
  for (const auto& p : published) {
    const PostParams params = post_params_for(p.kind, p.size);
    EXPECT_EQ(post_parameter_file_stem(params),
              std::string("v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-") + p.tail)
        << to_string(p.kind) << " " << p.size;
    EXPECT_EQ(post_circuit(p.kind, params.sector_bytes).parameter_file,
              post_parameter_file_stem(params) + ".params");
  }
  EXPECT_EQ(post_parameter_identifier(post_params_for(PostKind::kWinning, "32GiB")),
            "FallbackPoSt::PublicParams{sector_size: 34359738368, challenge_count: 1, sector_count: 66}");
}

TEST(RegisteredPostProof, BuiltInCircuitIds) {
  const FilecoinCircuit* w = find_filecoin_circuit("wpost-32g");
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->kind, CircuitKind::kWindowPost);
  ASSERT_TRUE(w->post.has_value());
  EXPECT_EQ(w->post->sectors, 2349u);
  EXPECT_EQ(w->partitions, 1u);
  const FilecoinCircuit* win = find_filecoin_circuit("winning-2k");
  ASSERT_NE(win, nullptr);
  EXPECT_EQ(win->kind, CircuitKind::kWinningPost);
  EXPECT_EQ(win->post->sectors, 66u);
  EXPECT_EQ(find_filecoin_circuit("porep-32g")->kind, CircuitKind::kPorep);
  EXPECT_EQ(find_filecoin_circuit("wpost-16g"), nullptr);
  EXPECT_EQ(filecoin_circuits().size(), 20u);  // PoRep, WindowPoSt, WinningPoSt, SnapDeals: 5 sizes each
}

TEST(RegisteredPostProof, ChallengeNumbersPerApiVersion) {
  const PostParams window = post_params_for(PostKind::kWindow, "32GiB");
  // 1.2: every sector's challenges count from 0.
  EXPECT_EQ(post_challenge_index(ApiVersion::V1_2_0, window, 3, 7, 4), 4u);
  // 1.0 / 1.1: across the proof, (partition · sectors + sector) · challenges + challenge.
  EXPECT_EQ(post_challenge_index(ApiVersion::V1_0_0, window, 0, 0, 4), 4u);
  EXPECT_EQ(post_challenge_index(ApiVersion::V1_0_0, window, 3, 7, 4), (3u * 2349 + 7) * 10 + 4);
  EXPECT_EQ(post_challenge_index(ApiVersion::V1_1_0, window, 0, 2, 9), 29u);
  const PostParams winning = post_params_for(PostKind::kWinning, "32GiB");
  EXPECT_EQ(post_challenge_index(ApiVersion::V1_0_0, winning, 0, 5, 3), 3u);
}

}  // namespace
}  // namespace cuzk::filecoin
