// GPU SpMV equals the CPU SpMV on a PoRep-shaped circuit (both curves' scalar fields) and on rows of
// very different lengths; a column outside the witness is refused at upload.
#include <gtest/gtest.h>

#include "cuda/stream.hpp"
#include "ec/bls12_381.hpp"
#include "ec/bn254.hpp"
#include "gpu/gpu_test_util.hpp"
#include "r1cs/gpu.hpp"
#include "r1cs/porep_like.hpp"

namespace cuzk {
namespace {

template <class Fr>
class SpmvGpuTest : public ::testing::Test {};
using Fields = ::testing::Types<Bn254::Fr, Bls12_381::Fr>;
TYPED_TEST_SUITE(SpmvGpuTest, Fields);

TYPED_TEST(SpmvGpuTest, PorepShapedMatricesMatchCpu) {
  CUZK_REQUIRE_GPU();
  using Fr = TypeParam;
  const auto g = r1cs::porep_like<Fr>(16, 5, 2);
  cuda::Stream stream;
  for (const auto* m : {&g.system.a, &g.system.b, &g.system.c}) {
    r1cs::gpu::DeviceCsr<Fr> dm(*m, g.system.n_vars, stream.get());
    for (const auto& w : g.witnesses) {
      auto dw = test::to_device(w);
      cuda::DeviceBuffer<Fr> out(m->rows());
      r1cs::gpu::spmv(dm, dw.data(), out.data(), stream.get());
      ASSERT_EQ(cudaStreamSynchronize(stream.get()), cudaSuccess);
      EXPECT_EQ(test::to_host(out), r1cs::spmv(*m, w));
    }
  }
}

TYPED_TEST(SpmvGpuTest, UnevenRowsAndRandomValues) {
  CUZK_REQUIRE_GPU();
  using Fr = TypeParam;
  const std::size_t cols = 5000;
  auto w = test::random_field_vector<Fr>(cols, 9);
  auto vals = test::random_field_vector<Fr>(20000, 10);
  r1cs::Csr<Fr> m;
  std::size_t v = 0;
  for (std::size_t r = 0; r < 3000; ++r) {
    const std::size_t len = r % 97 == 0 ? 300 : r % 5;  // a few long rows, some empty
    for (std::size_t k = 0; k < len && v < vals.size(); ++k)
      m.add(static_cast<std::uint32_t>((r * 31 + k * 7) % cols), vals[v++]);
    m.end_row();
  }
  cuda::Stream stream;
  r1cs::gpu::DeviceCsr<Fr> dm(m, cols, stream.get());
  auto dw = test::to_device(w);
  cuda::DeviceBuffer<Fr> out(m.rows());
  r1cs::gpu::spmv(dm, dw.data(), out.data(), stream.get());
  ASSERT_EQ(cudaStreamSynchronize(stream.get()), cudaSuccess);
  EXPECT_EQ(test::to_host(out), r1cs::spmv(m, w));
  EXPECT_THROW(r1cs::gpu::DeviceCsr<Fr>(m, 100, stream.get()), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk
