// The PoRep parameters of the production sector sizes, and the names they are asked for by.
#include <gtest/gtest.h>

#include "filecoin/porep_params.hpp"

namespace cuzk::filecoin {
namespace {

TEST(PorepParams, ProductionSizes) {
  const auto& p32 = porep_params_for("32GiB");
  EXPECT_EQ(p32.nodes, std::uint64_t{1} << 30);
  EXPECT_EQ(p32.layers, 11u);
  EXPECT_EQ(p32.partitions, 10u);
  EXPECT_EQ(p32.challenges_per_partition, 18u);  // div_ceil(176, 10)
  EXPECT_EQ(p32.tree.base_levels, 9u);
  EXPECT_EQ(p32.tree.sub, 8u);
  EXPECT_EQ(p32.tree.top, 0u);
  EXPECT_EQ(p32.tree.path_bits(), 30u);
  EXPECT_EQ(p32.tree_d_levels, 30u);
  EXPECT_EQ(p32.public_inputs() + 1, 328u);  // with ONE, as the original daemon measured

  const auto& p64 = porep_params_for("64GiB");
  EXPECT_EQ(p64.tree.base_levels, 9u);
  EXPECT_EQ(p64.tree.top, 2u);
  EXPECT_EQ(p64.tree.path_bits(), 31u);
  EXPECT_EQ(p64.tree.levels(), 11u);

  const auto& p2k = porep_params_for("2KiB");
  EXPECT_EQ(p2k.nodes, 64u);
  EXPECT_EQ(p2k.layers, 2u);
  EXPECT_EQ(p2k.challenges_per_partition, 2u);
  EXPECT_EQ(p2k.tree.base_levels, 2u);
  EXPECT_EQ(porep_params_for("8MiB").tree.base_levels, 6u);
  EXPECT_EQ(porep_params_for("512MiB").tree.base_levels, 8u);
  EXPECT_EQ(production_porep_params().size(), 5u);
}

TEST(PorepParams, AcceptsCommonSpellingsAndRejectsOthers) {
  EXPECT_EQ(&porep_params_for("32gib"), &porep_params_for("32GiB"));
  EXPECT_EQ(&porep_params_for("32G"), &porep_params_for("32GiB"));
  EXPECT_EQ(&porep_params_for("34359738368"), &porep_params_for("32GiB"));
  EXPECT_EQ(&porep_params_for_bytes(2048), &porep_params_for("2KiB"));
  for (const char* bad : {"4KiB", "16GiB", "", "32", "999999999999999999999999", "GiB"}) {
    try {
      porep_params_for(bad);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("2KiB, 8MiB, 512MiB, 32GiB and 64GiB"), std::string::npos);
    }
  }
}

TEST(PorepParams, TreeShapeRejectsSizesThatDoNotFit) {
  EXPECT_THROW(tree_shape_for(100, 8, 0, 0), std::invalid_argument);
  EXPECT_THROW(tree_shape_for(64, 8, 0, 2), std::invalid_argument);
  EXPECT_EQ(tree_shape_for(512, 8, 8, 0).base_levels, 2u);
}

}  // namespace
}  // namespace cuzk::filecoin
