// The SnapDeals circuit (filecoin/update_circuit.hpp) against storage-proofs-update's published counts —
// tests/circuit.rs: 1,248,389 (1 KiB), 1,705,039 (2 KiB), 2,165,109 (4 KiB), 2,620,359 (8 KiB), 6,300,021
// (16 KiB), 6,760,091 (32 KiB), 81,049,499 (32 GiB); gadgets.rs: gen_challenge_bits 568 / 4,544 / 5,680,
// apex_por 317,654 at ≤ 8 KiB and 771,448 for 16 apex leaves of 4 partitions at 16 KiB — and its witness on
// generated sector updates: satisfied at every test size, unsatisfied when a value is wrong, with the
// challenge bits the native derivation gives (the gadget test's known answer).
#include <gtest/gtest.h>

#include "filecoin/update_synthesis.hpp"
#include "filecoin/update_test_data.hpp"
#include "gadgets/check_cs.hpp"
#include "unit/gadgets_test_util.hpp"
#include "unit/sanitizer_skip.hpp"

namespace cuzk::filecoin {
namespace {

TEST(UpdateCircuit, ParametersAreStorageProofsUpdates) {
  const UpdateParams& p32 = update_params_for("32GiB");
  EXPECT_EQ(p32.partitions, 16u);
  EXPECT_EQ(p32.challenges, 86u);
  EXPECT_EQ(p32.apex_leaves, 128u);
  EXPECT_EQ(p32.h_default, 10u);
  EXPECT_EQ(p32.random_bits(), 26u);
  EXPECT_EQ(p32.digests(), 10u);  // 9 challenges per digest
  const UpdateParams& p2 = update_params_for("2KiB");
  EXPECT_EQ(p2.partitions, 1u);
  EXPECT_EQ(p2.challenges, 10u);
  EXPECT_EQ(p2.apex_leaves, 8u);
  EXPECT_EQ(p2.h_default, 1u);
  EXPECT_EQ(update_params_for("16MiB").partitions, 4u);
  EXPECT_EQ(update_params_for("16MiB").challenges, 10u);
  EXPECT_EQ(update_params_for("512MiB").challenges, 86u);
  EXPECT_EQ(update_params_for("64GiB").tree.top, 2u);
  EXPECT_EQ(update_params_for("32KiB").partitions, 2u);
  EXPECT_THROW(update_params_for("1GiB"), std::invalid_argument);
  // k | h_select << partition_bits, h_select the bit of h's position among hs.
  EXPECT_EQ(update_k_and_h_select(p32, 5, 10), 5u | (1u << 3) << 4);
  EXPECT_EQ(update_k_and_h_select(p2, 0, 1), 1u);
  EXPECT_THROW(update_k_and_h_select(p32, 16, 10), std::invalid_argument);
  EXPECT_THROW(update_k_and_h_select(p32, 0, 6), std::invalid_argument);
}

TEST(UpdateCircuit, TestSizesHaveThePublishedConstraintCounts) {
  const std::pair<const char*, std::uint64_t> published[] = {{"1KiB", 1'248'389},  {"2KiB", 1'705'039},
                                                             {"4KiB", 2'165'109},  {"8KiB", 2'620'359},
                                                             {"16KiB", 6'300'021}, {"32KiB", 6'760'091}};
  for (const auto& [size, constraints] : published) {
    const gadgets::Shape s = update_shape(update_params_for(size));
    EXPECT_EQ(s.constraints, constraints) << size;
    EXPECT_EQ(s.inputs, 5u) << size;
  }
}

TEST(UpdateCircuit, ThirtyTwoGibHasThePublishedConstraintCount) {
  const gadgets::Shape s = update_shape(update_params_for("32GiB"));
  EXPECT_EQ(s.constraints, 81'049'499u);
  EXPECT_EQ(s.inputs, 5u);
  const UpdateLayout& layout = update_layout(update_params_for("32GiB"));
  EXPECT_EQ(layout.rows(), s.constraints);
  EXPECT_EQ(layout.aux(), s.aux);
}

// update_shape repeats challenge 0's shape: the same as synthesizing every challenge.
TEST(UpdateCircuit, TheRepeatedChallengeShapeIsTheWholeSynthesis) {
  CUZK_SKIP_UNDER_SANITIZER("whole syntheses of four sizes; the other UpdateCircuit cases synthesize there");
  for (const char* size : {"1KiB", "2KiB", "4KiB", "16KiB"}) {
    const UpdateParams& params = update_params_for(size);
    SCOPED_TRACE(size);
    gadgets::testing::expect_same_shape(update_shape(params), update_shape_sequential(params));
  }
}

// gadgets.rs test_gen_challenge_bits_gadget: the gadget's rows per size, and its bits equal to the native
// challenges (the partition's bits above them) for the last partition.
TEST(UpdateCircuit, GeneratedChallengeBitsCountAndMatchTheNativeChallenges) {
  const std::pair<const char*, std::uint64_t> published[] = {
      {"1KiB", 568},  {"2KiB", 568},    {"16KiB", 568},  {"32KiB", 568}, {"8MiB", 568},
      {"16MiB", 568}, {"512MiB", 4544}, {"32GiB", 5680}, {"64GiB", 5680}};
  for (const auto& [size, expected] : published) {
    const UpdateParams& params = update_params_for(size);
    const std::uint64_t k = params.partitions - 1;
    const Fr comm_r_new = Fr::from_u64(0x5eed) * Fr::from_u64(expected + 977);
    gadgets::CheckCS cs;
    const AllocatedNum comm = AllocatedNum::alloc(cs, comm_r_new);
    const AllocatedNum partition = AllocatedNum::alloc(cs, Fr::from_u64(k));
    const std::uint64_t before = cs.num_constraints();
    const auto bits = gen_challenge_bits(cs, params, comm, partition);
    EXPECT_EQ(cs.num_constraints() - before, expected) << size;
    EXPECT_FALSE(cs.first_failure()) << size;
    const auto challenges = update_challenges(params, comm_r_new, k);
    ASSERT_EQ(bits.size(), challenges.size());
    ASSERT_EQ(bits.size(), params.challenges);
    for (std::size_t i = 0; i < challenges.size(); ++i) {
      ASSERT_EQ(bits[i].size(), params.random_bits());
      std::uint64_t c = 0;
      for (std::size_t b = 0; b < bits[i].size(); ++b) c |= std::uint64_t{bits[i][b].value()} << b;
      EXPECT_EQ(c | k << params.random_bits(), challenges[i]) << size << " challenge " << i;
    }
  }
}

// gadgets.rs test_apex_por_gadget: 317,654 rows for 8 apex leaves of one partition, 5,808,515 for 128 of
// 2 (16 and 32 KiB), 771,448 for 16 of 4 and 453,797 for 8 of 8 partitions.
TEST(UpdateCircuit, ApexPorHasThePublishedCounts) {
  const std::tuple<unsigned, unsigned, std::uint64_t> published[] = {
      {1, 8, 317'654}, {2, 128, 5'808'515}, {4, 16, 771'448}, {8, 8, 453'797}};
  for (const auto& [partitions, leaves, expected] : published) {
    gadgets::StructuralShapeCS cs;
    std::vector<AllocatedNum> apex;
    for (unsigned i = 0; i < leaves; ++i) apex.push_back(AllocatedNum::alloc(cs, Fr::zero()));
    std::vector<Boolean> bits;
    std::vector<std::vector<AllocatedNum>> path;
    for (unsigned i = 1; i < partitions; i *= 2) {
      bits.push_back(gadgets::AllocatedBit::alloc(cs, false));
      path.push_back({AllocatedNum::alloc(cs, Fr::zero())});
    }
    const AllocatedNum comm_d = AllocatedNum::alloc(cs, Fr::zero());
    const std::uint64_t before = cs.num_constraints();
    apex_por(cs, std::span<const AllocatedNum>(apex), std::span<const Boolean>(bits),
             std::span<const std::vector<AllocatedNum>>(path), comm_d);
    EXPECT_EQ(cs.num_constraints() - before, expected) << partitions << " × " << leaves;
  }
}

TEST(UpdateCircuit, GeneratedSectorUpdatesSatisfyTheCircuit) {
  CUZK_SKIP_UNDER_SANITIZER("five test sizes, every row checked twice");
  for (const char* size : {"1KiB", "2KiB", "4KiB", "8KiB", "32KiB"}) {
    const UpdateParams& params = update_params_for(size);
    const UpdateTestSector sector = make_test_update_sector(params, 11);
    ASSERT_EQ(sector.partitions.size(), params.partitions);
    for (std::uint64_t k = 0; k < params.partitions; ++k) {
      const UpdatePartitionProof proof =
          update_circuit_proof(params, k, sector.h, sector.commitments, sector.partitions[k], "test");
      EXPECT_FALSE(update_first_unsatisfied(params, proof)) << size << " partition " << k;
      const UpdateWitness w = update_witness(params, proof);
      const std::vector<Fr> expected = update_public_inputs(params, k, sector.h, sector.commitments);
      ASSERT_EQ(w.inputs.size(), 1 + expected.size());
      for (std::size_t i = 0; i < expected.size(); ++i)
        EXPECT_EQ(w.inputs[1 + i], expected[i]) << size << " " << i;
    }
  }
}

TEST(UpdateCircuit, TheSmallestAndLargestHSatisfyTheCircuit) {
  CUZK_SKIP_UNDER_SANITIZER("two 8 MiB partitions, every row checked");
  const UpdateParams& params = update_params_for("8MiB");  // the smallest size whose hs differ
  for (unsigned h : {params.hs.front(), params.hs.back()}) {
    const UpdateTestSector sector = make_test_update_sector(params, 3, {2}, h);
    const UpdatePartitionProof proof =
        update_circuit_proof(params, 2, h, sector.commitments, sector.partitions[0], "test");
    EXPECT_FALSE(update_first_unsatisfied(params, proof)) << "h = " << h;
  }
}

TEST(UpdateCircuit, AWrongValueLeavesTheCircuitUnsatisfied) {
  CUZK_SKIP_UNDER_SANITIZER("eight circuits of 1.7-7 M rows checked");
  const UpdateParams& params = update_params_for("2KiB");
  const UpdateTestSector sector = make_test_update_sector(params, 5);
  const UpdatePartitionProof good =
      update_circuit_proof(params, 0, sector.h, sector.commitments, sector.partitions[0], "test");
  auto unsatisfied = [&](auto&& damage) {
    UpdatePartitionProof bad = good;
    damage(bad);
    return update_first_unsatisfied(params, bad).has_value();
  };
  EXPECT_TRUE(unsatisfied([](UpdatePartitionProof& p) { p.comm_c += Fr::one(); }));
  EXPECT_TRUE(unsatisfied([](UpdatePartitionProof& p) { p.comm_d_new += Fr::one(); }));
  EXPECT_TRUE(unsatisfied([](UpdatePartitionProof& p) { p.apex_leafs[3] += Fr::one(); }));
  EXPECT_TRUE(unsatisfied([](UpdatePartitionProof& p) { p.challenges[4].leaf_d_new += Fr::one(); }));
  EXPECT_TRUE(unsatisfied([](UpdatePartitionProof& p) { p.challenges[9].leaf_r_old += Fr::one(); }));
  EXPECT_TRUE(unsatisfied(
      [](UpdatePartitionProof& p) { p.challenges[2].path_r_new.levels[1].siblings[6] += Fr::one(); }));
  EXPECT_TRUE(unsatisfied(
      [](UpdatePartitionProof& p) { p.challenges[0].path_d_new.levels[0].siblings[0] += Fr::one(); }));
  // Another h than the data was encoded with: another rho.
  const UpdateParams& big = update_params_for("16MiB");
  const UpdateTestSector encoded = make_test_update_sector(big, 5, {1}, 9);
  UpdatePartitionProof other_h =
      update_circuit_proof(big, 1, 9, encoded.commitments, encoded.partitions[0], "test");
  other_h.h = 10;
  EXPECT_TRUE(update_first_unsatisfied(big, other_h).has_value());
}

TEST(UpdateCircuit, ProofsOfTheWrongShapeAreRefused) {
  const UpdateParams& params = update_params_for("2KiB");
  const UpdateTestSector sector = make_test_update_sector(params, 5);
  const UpdatePartitionProof good =
      update_circuit_proof(params, 0, sector.h, sector.commitments, sector.partitions[0], "test");
  UpdatePartitionProof fewer = good;
  fewer.challenges.pop_back();
  EXPECT_THROW(update_witness(params, fewer), gadgets::SynthesisError);
  UpdatePartitionProof apex = good;
  apex.apex_leafs.push_back(Fr::one());
  EXPECT_THROW(update_witness(params, apex), gadgets::SynthesisError);
  UpdatePartitionProof k = good;
  k.k = 1;
  EXPECT_THROW(update_witness(params, k), gadgets::SynthesisError);
}

// update_record records the challenges in parallel: the matrices of one sequential run.
TEST(UpdateCircuit, TheParallelRecordIsTheSequentialOne) {
  CUZK_SKIP_UNDER_SANITIZER("two 2 KiB records compared; the other UpdateCircuit cases record there");
  const UpdateParams& params = update_params_for("2KiB");
  gadgets::RecordCS<> sequential;
  synthesize_update_partition(sequential, params, nullptr);
  const gadgets::PrecompiledCircuit parallel = update_record(params);
  gadgets::testing::expect_same_matrices(parallel, std::move(sequential).finish());
  EXPECT_EQ(parallel.shape.constraints, 1'705'039u);
}

}  // namespace
}  // namespace cuzk::filecoin
