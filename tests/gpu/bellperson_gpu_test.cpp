// bellperson proofs on the GPU equal the CPU's byte for byte for fixed r and s, on a PoRep-shaped circuit of
// several partitions with random witnesses, and verify.
#include <gtest/gtest.h>

#include "cuda/stream.hpp"
#include "ff/random.hpp"
#include "gpu/gpu_test_util.hpp"
#include "groth16/gpu_bellperson.hpp"
#include "r1cs/porep_like.hpp"

namespace cuzk::groth16::bellperson {
namespace {

TEST(BellpersonGpu, ProofsEqualTheCpuAndVerify) {
  CUZK_REQUIRE_GPU();
  const auto g = r1cs::porep_like<Fr>(14, ff::random_nonzero_os<Fr>().to_int().v[0], 3);
  const auto params = setup(g.system, random_toxic_waste<Curve>());
  cuda::Stream stream;
  for (const auto& z : g.witnesses) {
    const auto w = synthesize(g.system, z);
    const Fr r = ff::random_nonzero_os<Fr>(), s = ff::random_nonzero_os<Fr>();
    const auto on_gpu = gpu::prove(params, w, r, s, stream.get());
    EXPECT_EQ(on_gpu, prove(params, w, r, s));
    const std::vector<Fr> pub(w.inputs.begin() + 1, w.inputs.end());
    EXPECT_TRUE(verify(params.vk, pub, on_gpu).valid);
  }
}

}  // namespace
}  // namespace cuzk::groth16::bellperson
