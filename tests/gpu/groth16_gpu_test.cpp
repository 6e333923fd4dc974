// The GPU prover against the CPU prover: byte-identical proofs for fixed r, s; valid proofs; errors.
#include <gtest/gtest.h>

#include "cuda/stream.hpp"
#include "ec/bls12_381.hpp"
#include "ec/bn254.hpp"
#include "gpu/gpu_test_util.hpp"
#include "groth16/gpu_prover.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "r1cs/synthetic.hpp"

namespace cuzk {
namespace {

template <class Curve>
class Groth16GpuTest : public ::testing::Test {};
using Curves = ::testing::Types<Bn254, Bls12_381>;
TYPED_TEST_SUITE(Groth16GpuTest, Curves);

TYPED_TEST(Groth16GpuTest, ProofsAreByteIdenticalToCpu) {
  CUZK_REQUIRE_GPU();
  using C = TypeParam;
  using Fr = typename C::Fr;
  for (std::size_t n : {5u, 1000u, 20000u}) {
    auto circ = r1cs::mulchain<C>(n, n);
    auto pk = groth16::setup(circ.cs, groth16::random_toxic_waste<C>());
    cuda::Stream stream;
    groth16::gpu::ResidentKey<C> key(pk, stream.get());
    auto rs = test::random_field_vector<Fr>(2, n);
    auto cpu = groth16::prove(pk, circ.witness, rs[0], rs[1]);
    auto gpu = groth16::gpu::prove(pk, key, circ.witness, rs[0], rs[1], stream.get());
    EXPECT_EQ(gpu, cpu) << "n = " << n;
    std::vector<Fr> pub(circ.witness.begin() + 1, circ.witness.begin() + 1 + pk.n_public);
    EXPECT_TRUE(groth16::verify(pk.verifying_key(), pub, gpu).valid);
    // The same resident key serves a second proof with other randomness.
    auto gpu2 = groth16::gpu::prove(pk, key, circ.witness, rs[1], rs[0], stream.get());
    EXPECT_EQ(gpu2, groth16::prove(pk, circ.witness, rs[1], rs[0]));
  }
}

// Mostly-boolean witnesses take the split MSMs' batch-add path; a key kept in host memory streams its
// points, and the lean plan streams its coefficient rows too (in chunks of 1,000 entries here, so many
// chunks and both buffers are used). All must give the CPU's proof.
TYPED_TEST(Groth16GpuTest, BooleanWitnessAndStreamedKeyMatchCpu) {
  CUZK_REQUIRE_GPU();
  using C = TypeParam;
  using Fr = typename C::Fr;
  auto circ = r1cs::with_booleans<C>(3000, 9000, 11);
  ASSERT_TRUE(r1cs::satisfied(circ.cs, circ.witness));
  auto pk = groth16::setup(circ.cs, groth16::random_toxic_waste<C>());
  cuda::Stream stream;
  auto rs = test::random_field_vector<Fr>(2, 5);
  const auto cpu = groth16::prove(pk, circ.witness, rs[0], rs[1]);
  using groth16::gpu::Plan;
  for (Plan plan : {Plan::kResident, Plan::kStreamed, Plan::kLean}) {
    SCOPED_TRACE(groth16::gpu::to_string(plan));
    groth16::gpu::ResidentKey<C> key(pk, stream.get(), plan, 1000);
    EXPECT_EQ(key.plan(), plan);
    EXPECT_EQ(key.points_on_device(), plan == Plan::kResident);
    EXPECT_EQ(groth16::gpu::prove(pk, key, circ.witness, rs[0], rs[1], stream.get()), cpu);
  }
}

TYPED_TEST(Groth16GpuTest, BadWitnessIsAClearErrorAndLeaksNothing) {
  CUZK_REQUIRE_GPU();
  using C = TypeParam;
  using Fr = typename C::Fr;
  auto circ = r1cs::mulchain<C>(100, 3);
  auto pk = groth16::setup(circ.cs, groth16::random_toxic_waste<C>());
  auto before = cuda::mem_info().first;
  {
    cuda::Stream stream;
    groth16::gpu::ResidentKey<C> key(pk, stream.get());
    auto w = circ.witness;
    w.pop_back();
    EXPECT_THROW(groth16::gpu::prove(pk, key, w, Fr::one(), Fr::one(), stream.get()), groth16::ProveError);
  }
  EXPECT_EQ(cuda::mem_info().first, before);
}

}  // namespace
}  // namespace cuzk
