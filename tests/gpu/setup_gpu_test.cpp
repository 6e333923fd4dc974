// The test-only setup's GPU half: fixed-base products on the GPU equal the CPU table's on random scalars
// and the edge scalars (0, 1, r − 1), for G1 and G2 of both curves, across several device slices; and a
// whole PoRep-shaped setup with the GPU multiplier gives the CPU's key exactly, which then proves and
// verifies.
#include <gtest/gtest.h>

#include <random>

#include "ec/bls12_381.hpp"
#include "ec/bn254.hpp"
#include "ec/fixed_base_gpu.hpp"
#include "ff/random.hpp"
#include "gpu/gpu_test_util.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "r1cs/porep_like.hpp"

namespace cuzk {
namespace {

std::uint64_t fresh_seed() {
  const std::uint64_t s = std::random_device{}();
  std::printf("seed %llu\n", static_cast<unsigned long long>(s));
  return s;
}

template <class Cfg>
class FixedBaseGpuTest : public ::testing::Test {};
using Groups = ::testing::Types<Bn254::G1Cfg, Bn254::G2Cfg, Bls12_381::G1Cfg, Bls12_381::G2Cfg>;
TYPED_TEST_SUITE(FixedBaseGpuTest, Groups);

TYPED_TEST(FixedBaseGpuTest, MatchesTheCpuTable) {
  CUZK_REQUIRE_GPU();
  using Cfg = TypeParam;
  using Fr = typename Cfg::Scalar;
  const ec::FixedBaseTable<Cfg> table(Cfg::generator());
  auto k = test::random_field_vector<Fr>(70001, fresh_seed());
  k[0] = Fr::zero();
  k[1] = Fr::one();
  k[2] = -Fr::one();
  k[k.size() - 1] = -Fr::one();
  const auto gpu = ec::gpu::fixed_base_mul_all(table, k);
  EXPECT_TRUE(gpu[0].is_infinity());
  EXPECT_EQ(gpu[1], Cfg::generator());
  EXPECT_EQ(gpu, table.mul_all(k));
}

template <class Curve>
groth16::FixedBaseMul<Curve> on_gpu() {
  return {[](const auto& t, const auto& k) { return ec::gpu::fixed_base_mul_all(t, k); },
          [](const auto& t, const auto& k) { return ec::gpu::fixed_base_mul_all(t, k); }};
}

template <class Curve>
class SetupGpuTest : public ::testing::Test {};
using Curves = ::testing::Types<Bn254, Bls12_381>;
TYPED_TEST_SUITE(SetupGpuTest, Curves);

TYPED_TEST(SetupGpuTest, PorepShapedKeyEqualsTheCpuKeyAndProves) {
  CUZK_REQUIRE_GPU();
  using Curve = TypeParam;
  const auto g = r1cs::porep_like<typename Curve::Fr>(14, fresh_seed(), 1);
  const auto tw = groth16::random_toxic_waste<Curve>();
  const auto gpu = groth16::setup<Curve>(g.system, tw, on_gpu<Curve>());
  const auto cpu = groth16::setup<Curve>(g.system, tw);
  EXPECT_EQ(gpu.a, cpu.a);
  EXPECT_EQ(gpu.b1, cpu.b1);
  EXPECT_EQ(gpu.b2, cpu.b2);
  EXPECT_EQ(gpu.c, cpu.c);
  EXPECT_EQ(gpu.h, cpu.h);
  EXPECT_EQ(gpu.ic, cpu.ic);
  const auto& w = g.witnesses[0];
  const auto proof = groth16::prove(gpu, w, ff::random_nonzero_os<typename Curve::Fr>(),
                                    ff::random_nonzero_os<typename Curve::Fr>());
  const std::vector<typename Curve::Fr> pub(w.begin() + 1, w.begin() + 1 + g.system.n_public);
  EXPECT_TRUE(groth16::verify(gpu.verifying_key(), pub, proof).valid);
}

}  // namespace
}  // namespace cuzk
