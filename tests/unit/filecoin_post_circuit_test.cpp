// The fallback PoSt circuit (WindowPoSt, WinningPoSt: filecoin/post_circuit.hpp) against Filecoin's published
// sizes — rust-fil-proofs constants.rs: 2,349 sectors at 32 GiB "give 125,279,217 constraints", 2,300 at
// 64 GiB 129,887,900 — and its witness on generated sectors: satisfied, with the public inputs
// filecoin-proofs would give (per sector comm_r, then each challenge's leaf index), and unsatisfied or
// refused when a value or a path's shape is wrong.
#include <gtest/gtest.h>

#include "filecoin/post_synthesis.hpp"
#include "filecoin/post_test_data.hpp"
#include "unit/gadgets_test_util.hpp"

namespace cuzk::filecoin {
namespace {

TEST(PostCircuit, ParametersAreFilecoins) {
  const auto w32 = post_params_for(PostKind::kWindow, "32GiB");
  EXPECT_EQ(w32.sectors, 2349u);
  EXPECT_EQ(w32.challenges, 10u);
  EXPECT_EQ(w32.public_inputs(), 25'840u);
  EXPECT_EQ(post_params_for(PostKind::kWindow, "64GiB").sectors, 2300u);
  EXPECT_EQ(post_params_for(PostKind::kWindow, "2KiB").sectors, 2u);
  const auto win = post_params_for(PostKind::kWinning, "32GiB");  // 66 challenges as 66 sectors of one
  EXPECT_EQ(win.sectors, 66u);
  EXPECT_EQ(win.challenges, 1u);
  EXPECT_THROW(post_params_for(PostKind::kWindow, "1GiB"), std::invalid_argument);
}

TEST(PostCircuit, WindowPostAt32And64GibHasThePublishedConstraintCounts) {
  const auto s32 = post_shape(post_params_for(PostKind::kWindow, "32GiB"));
  EXPECT_EQ(s32.constraints, 125'279'217u);
  EXPECT_EQ(s32.inputs, 25'840u);
  const auto s64 = post_shape(post_params_for(PostKind::kWindow, "64GiB"));
  EXPECT_EQ(s64.constraints, 129'887'900u);
  EXPECT_EQ(s64.inputs, 1 + 2300u * 11);
  // WinningPoSt at 32 GiB: 66 sectors of one challenge, each what a WindowPoSt sector with one challenge is.
  const auto win = post_shape(post_params_for(PostKind::kWinning, "32GiB"));
  EXPECT_EQ(win.inputs, 1 + 66u * 2);
  EXPECT_EQ(win.constraints, 66 * (125'279'217u / 2349 - 9 * ((125'279'217u / 2349 - 313) / 10)));
}

// post_shape repeats sector 0's shape: the same as synthesizing every sector in one constraint system.
TEST(PostCircuit, TheRepeatedSectorShapeIsTheWholeSynthesis) {
  for (auto params : {post_params_for(PostKind::kWindow, "2KiB"), post_params_for(PostKind::kWinning, "8MiB"),
                      post_params_for(PostKind::kWindow, "64GiB")}) {
    params.sectors = std::min(params.sectors, 5u);
    gadgets::StructuralShapeCS cs;
    for (unsigned s = 0; s < params.sectors; ++s) synthesize_post_sector(cs, params, nullptr);
    SCOPED_TRACE(params.name);
    gadgets::testing::expect_same_shape(post_shape(params), cs.shape());
  }
}

// Every row evaluated on generated sectors, with the public inputs in Filecoin's order.
void expect_satisfied(const PostParams& params, std::uint64_t seed) {
  const auto sectors = make_test_post_sectors(params, seed);
  EXPECT_EQ(post_first_unsatisfied(params, sectors), -1) << to_string(params.kind) << " " << params.name;
  const PostWitness w = post_witness(params, sectors);
  const gadgets::Shape shape = post_shape(params);
  ASSERT_EQ(w.inputs.size(), shape.inputs);
  ASSERT_EQ(w.aux.size(), shape.aux);
  std::vector<Fr> expected{Fr::one()};
  for (unsigned s = 0; s < params.sectors; ++s) {
    expected.push_back(sectors[s].comm_r);
    for (std::uint64_t c : test_post_challenges(params, s, seed)) expected.push_back(Fr::from_u64(c));
  }
  EXPECT_EQ(w.inputs, expected) << to_string(params.kind) << " " << params.name;
}

TEST(PostCircuit, GeneratedSectorsSatisfyEveryTestSize) {
  for (const char* size : {"2KiB", "8MiB", "512MiB"})
    for (const PostKind kind : {PostKind::kWindow, PostKind::kWinning})
      expect_satisfied(post_params_for(kind, size), 7);
  expect_satisfied(post_params_for(PostKind::kWinning, "32GiB"), 8);
  expect_satisfied(post_params_for(PostKind::kWinning, "64GiB"), 9);
  // Three WindowPoSt sectors of the production shapes (the whole partition is 2,349 of them).
  for (const char* size : {"32GiB", "64GiB"}) {
    PostParams few = post_params_for(PostKind::kWindow, size);
    few.sectors = 3;
    expect_satisfied(few, 10);
  }
}

TEST(PostCircuit, WrongValuesAreUnsatisfiedAndWrongShapesRefused) {
  const auto params = post_params_for(PostKind::kWindow, "2KiB");
  const auto good = make_test_post_sectors(params, 11);
  auto bad = good;
  bad[1].leafs[3] += Fr::one();  // the path no longer leads to comm_r_last
  EXPECT_GE(post_first_unsatisfied(params, bad), 0);
  bad = good;
  bad[0].comm_c += Fr::one();  // Poseidon2(comm_c, comm_r_last) ≠ comm_r
  EXPECT_GE(post_first_unsatisfied(params, bad), 0);
  bad = good;
  bad[0].paths[0].levels[1].index ^= 1;  // another position: another root
  EXPECT_GE(post_first_unsatisfied(params, bad), 0);
  bad = good;
  bad[1].paths[2].levels.pop_back();
  EXPECT_THROW(post_witness(params, bad), gadgets::SynthesisError);
  bad = good;
  bad[0].leafs.pop_back();
  EXPECT_THROW(post_witness(params, bad), gadgets::SynthesisError);
  EXPECT_THROW(post_witness(params, std::span(good).first(1)), gadgets::SynthesisError);
}

// post_record records the sectors in parallel: the matrices of one sequential run.
TEST(PostCircuit, TheParallelRecordIsTheSequentialOne) {
  for (const auto& params :
       {post_params_for(PostKind::kWindow, "2KiB"), post_params_for(PostKind::kWinning, "2KiB")}) {
    gadgets::RecordCS<> sequential;
    for (unsigned s = 0; s < params.sectors; ++s) synthesize_post_sector(sequential, params, nullptr);
    SCOPED_TRACE(params.name);
    gadgets::testing::expect_same_matrices(post_record(params), std::move(sequential).finish());
  }
}

}  // namespace
}  // namespace cuzk::filecoin
