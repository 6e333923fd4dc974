// SnapDeals' proof types and parameter files: RegisteredUpdateProof ids as go-state-types numbers them, the
// built-in circuits snap-2k … snap-64g, and their parameter file names exactly as rust-fil-proofs'
// parameters.json publishes them (v28-empty-sector-update-<tree>-<SHA-256 of the identifier>).
#include <gtest/gtest.h>

#include "filecoin/circuit_catalog.hpp"
#include "filecoin/sector_size.hpp"
#include "filecoin/update_job.hpp"
#include "filecoin/update_params.hpp"

namespace cuzk::filecoin {
namespace {

TEST(UpdateTypes, ParameterFilesAsPublished) {
  const std::pair<const char*, const char*> published[] = {
      {"2KiB", "8-0-0-fb9e095bebdd77511c0269b967b4d87ba8b8a525edaa0e165de23ba454510194"},
      {"8MiB", "8-0-0-92180959e1918d26350b8e6cfe217bbdd0a2d8de51ebec269078b364b715ad63"},
      {"512MiB", "8-0-0-61fa69f38b9cc771ba27b670124714b4ea77fbeae05e377fb859c4a43b73a30c"},
      {"32GiB", "8-8-0-3b7f44a9362e3985369454947bc94022e118211e49fd672d52bec1cbfd599d18"},
      {"64GiB", "8-8-2-102e1444a7e9a97ebf1e3d6855dcc77e66c011ea66f936d9b2c508f87f2f83a7"},
  };
  for (const auto& [size, tail] : published) {
    const UpdateParams& params = update_params_for(size);
    EXPECT_EQ(update_parameter_file_stem(params),
              std::string("v28-empty-sector-update-merkletree-poseidon_hasher-") + tail)
        << size;
    EXPECT_EQ(update_circuit(params.sector_bytes).parameter_file,
              update_parameter_file_stem(params) + ".params");
  }
  EXPECT_EQ(update_parameter_identifier(update_params_for("32GiB")),
            "empty_sector_update::PublicParams{ sector_nodes: 1073741824 }");
}

TEST(UpdateTypes, BuiltInCircuitsAndProofTypes) {
  const FilecoinCircuit* snap = find_filecoin_circuit("snap-32g");
  ASSERT_NE(snap, nullptr);
  EXPECT_EQ(snap->kind, CircuitKind::kSnapDeals);
  ASSERT_NE(snap->update, nullptr);
  EXPECT_EQ(snap->partitions, 16u);
  EXPECT_EQ(find_filecoin_circuit("snap-2k")->partitions, 1u);
  EXPECT_EQ(find_filecoin_circuit("snap-16k"), nullptr);  // test sizes have no proof type, so no circuit
  EXPECT_THROW(update_circuit(16 << 10), std::invalid_argument);
  EXPECT_STREQ(to_string(CircuitKind::kSnapDeals), "snap_deals");
  EXPECT_STREQ(registered_update_proof_name(3), "StackedDrg32GiBV1");
  EXPECT_EQ(registered_update_proof_sector_bytes(4), std::uint64_t{64} << 30);
  EXPECT_EQ(registered_update_proof_name(5), nullptr);
}

TEST(UpdateTypes, SectorSizesAsOperatorsWriteThem) {
  EXPECT_EQ(parse_sector_size("32GiB"), std::uint64_t{32} << 30);
  EXPECT_EQ(parse_sector_size("32g"), std::uint64_t{32} << 30);
  EXPECT_EQ(parse_sector_size("32GB"), std::uint64_t{32} << 30);
  EXPECT_EQ(parse_sector_size("2kib"), 2048u);
  EXPECT_EQ(parse_sector_size("2048"), 2048u);
  EXPECT_EQ(parse_sector_size("16MiB"), std::uint64_t{16} << 20);
  EXPECT_FALSE(parse_sector_size("GiB"));
  EXPECT_FALSE(parse_sector_size("32TiB"));
  EXPECT_FALSE(parse_sector_size("99999999999999999999"));
  EXPECT_FALSE(parse_sector_size("17179869184G"));  // overflows 64 bits
  EXPECT_EQ(sector_size_name(std::uint64_t{512} << 20), "512MiB");
  EXPECT_EQ(sector_size_name(1024), "1KiB");
  EXPECT_EQ(sector_size_name(1000), "1000");
  EXPECT_EQ(update_params_for("1kib").name, "1KiB");
}

}  // namespace
}  // namespace cuzk::filecoin
