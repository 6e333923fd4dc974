// GPU NTT against the CPU NTT on random vectors, both scalar fields, several sizes: every size up to
// 2^12 (one multi-stage pass up to 2^10, then two), and larger ones whose log is no multiple of the pass
// size (2^17 = 9 + 8, 2^19 = 10 + 9, 2^21 = 7 + 7 + 7 stages). Tables made for another root (as for
// bellperson's 7-based domain) give that domain's transforms; a root of the wrong order is refused. Every
// transform in both table layouts: the full table and the compact pair the smallest GPU plans keep.
#include <gtest/gtest.h>

#include "cuda/error.hpp"
#include "ec/bls12_381.hpp"
#include "ec/bn254.hpp"
#include "gpu/gpu_test_util.hpp"
#include "ntt/cpu.hpp"
#include "ntt/gpu.hpp"

namespace cuzk {
namespace {

constexpr ntt::TableLayout kLayouts[] = {ntt::TableLayout::kFull, ntt::TableLayout::kCompact};
const char* name(ntt::TableLayout l) {
  return l == ntt::TableLayout::kFull ? "full tables" : "compact tables";
}

template <class Fr>
class NttGpuTest : public ::testing::Test {};
using Fields = ::testing::Types<Bn254::Fr, Bls12_381::Fr>;
TYPED_TEST_SUITE(NttGpuTest, Fields);

// The GPU's forward transform of v (left in dv) against the CPU's on domain d.
template <class Fr>
::testing::AssertionResult gpu_forward_equals_cpu(const std::vector<Fr>& v,
                                                  const ntt::gpu::Tables<Fr>& tables,
                                                  const poly::Domain<Fr>& d, cuda::DeviceBuffer<Fr>& dv) {
  dv = test::to_device(v);
  ntt::gpu::forward(dv.data(), tables, nullptr);
  auto expect = v;
  ntt::forward(expect.data(), d);
  if (test::to_host(dv) == expect) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "the GPU's forward transform differs from the CPU's";
}

TYPED_TEST(NttGpuTest, ForwardAndInverseMatchCpu) {
  CUZK_REQUIRE_GPU();
  using Fr = TypeParam;
  for (const auto layout : kLayouts)
    for (std::size_t log_n : {1u, 2u, 3u, 4u, 5u, 6u, 7u, 8u, 9u, 10u, 11u, 12u, 13u, 17u, 19u, 21u}) {
      poly::Domain<Fr> d(log_n);
      ntt::gpu::Tables<Fr> tables(log_n, nullptr, layout);
      const auto v = test::random_field_vector<Fr>(d.n, 10 + log_n);
      cuda::DeviceBuffer<Fr> dv;
      ASSERT_TRUE(gpu_forward_equals_cpu(v, tables, d, dv)) << "forward 2^" << log_n << ", " << name(layout);
      ntt::gpu::inverse(dv.data(), tables, nullptr);
      ASSERT_EQ(test::to_host(dv), v) << "inverse of forward 2^" << log_n << ", " << name(layout);
      // The inverse on its own input too, not only as forward's undoing.
      auto w = test::random_field_vector<Fr>(d.n, 50 + log_n);
      auto dw = test::to_device(w);
      ntt::gpu::inverse(dw.data(), tables, nullptr);
      ntt::inverse(w.data(), d);
      ASSERT_EQ(test::to_host(dw), w) << "inverse 2^" << log_n << ", " << name(layout);
    }
}

TYPED_TEST(NttGpuTest, OddCosetOfThreeVectorsMatchesCpu) {
  CUZK_REQUIRE_GPU();
  using Fr = TypeParam;
  for (const auto layout : kLayouts)
    for (std::size_t log_n : {1u, 2u, 3u, 5u, 8u, 10u, 11u, 12u, 17u, 19u, 21u}) {
      poly::Domain<Fr> d(log_n);
      ntt::gpu::Tables<Fr> tables(log_n, nullptr, layout);
      // A fourth vector after the three guards against writes past the batch.
      auto v = test::random_field_vector<Fr>(4 * d.n, 99 + log_n);
      auto dv = test::to_device(v);
      ntt::gpu::to_odd_coset(dv.data(), 3, tables, nullptr);
      auto got = test::to_host(dv);
      ASSERT_TRUE(std::equal(v.begin() + 3 * d.n, v.end(), got.begin() + 3 * d.n)) << "guard at 2^" << log_n;
      const Fr shift = poly::root_of_unity<Fr>(log_n + 1);
      for (std::size_t k = 0; k < 3; ++k) {
        std::vector<Fr> e(v.begin() + k * d.n, v.begin() + (k + 1) * d.n);
        ntt::inverse(e.data(), d);
        ntt::coset_forward(e.data(), d, shift);
        ASSERT_TRUE(std::equal(e.begin(), e.end(), got.begin() + k * d.n))
            << "vector " << k << " at 2^" << log_n << ", " << name(layout);
      }
    }
}

// bellperson's keys fix the domain of 7's roots; here another primitive 2N-th root, ω_2N³ (an odd power: also
// of order 2N), on both fields. The tables for it transform on its domain: forward, inverse and the odd
// coset, against the CPU on the same domain.
TYPED_TEST(NttGpuTest, TablesForAnotherRootTransformOnItsDomain) {
  CUZK_REQUIRE_GPU();
  using Fr = TypeParam;
  for (const auto layout : kLayouts)
    for (std::size_t log_n : {1u, 4u, 11u, 17u, 21u}) {
      const Fr root_2n = poly::root_of_unity<Fr>(log_n + 1).pow(3);
      const poly::Domain<Fr> d(log_n, root_2n.sqr());
      ntt::gpu::Tables<Fr> tables(log_n, root_2n, nullptr, layout);
      const auto v = test::random_field_vector<Fr>(d.n, 300 + log_n);
      cuda::DeviceBuffer<Fr> dv;
      ASSERT_TRUE(gpu_forward_equals_cpu(v, tables, d, dv)) << "forward 2^" << log_n;
      auto w = test::random_field_vector<Fr>(d.n, 400 + log_n);
      auto dw = test::to_device(w);
      ntt::gpu::inverse(dw.data(), tables, nullptr);
      auto w_inv = w;
      ntt::inverse(w_inv.data(), d);
      ASSERT_EQ(test::to_host(dw), w_inv) << "inverse 2^" << log_n;
      dw = test::to_device(w);
      ntt::gpu::to_odd_coset(dw.data(), 1, tables, nullptr);
      ntt::coset_forward(w_inv.data(), d, root_2n);
      ASSERT_EQ(test::to_host(dw), w_inv) << "odd coset 2^" << log_n << ", " << name(layout);
    }
  // ω_N itself has order N, not 2N.
  EXPECT_THROW(ntt::gpu::Tables<Fr>(5, poly::root_of_unity<Fr>(5), nullptr), std::invalid_argument);
}

// Compact tables expanded on the device (the streamed bellperson plan's H stage) hold the full table's
// every element, for the standard root and another one, and transform like it; full tables do not expand.
TYPED_TEST(NttGpuTest, ExpandedCompactTablesEqualTheFullOnes) {
  CUZK_REQUIRE_GPU();
  using Fr = TypeParam;
  for (std::size_t log_n : {1u, 4u, 11u, 17u, 21u})
    for (const Fr root_2n : {poly::root_of_unity<Fr>(log_n + 1), poly::root_of_unity<Fr>(log_n + 1).pow(5)}) {
      const ntt::gpu::Tables<Fr> full(log_n, root_2n, nullptr, ntt::TableLayout::kFull);
      const ntt::gpu::Tables<Fr> compact(log_n, root_2n, nullptr, ntt::TableLayout::kCompact);
      const ntt::gpu::Tables<Fr> expanded = compact.expanded(nullptr);
      ASSERT_EQ(expanded.layout(), ntt::TableLayout::kFull);
      ASSERT_EQ(expanded.log_n(), log_n);
      std::vector<Fr> want(full.n()), got(full.n());
      CUZK_CUDA_CHECK(
          cudaMemcpy(want.data(), full.twiddles().full, full.n() * sizeof(Fr), cudaMemcpyDefault));
      CUZK_CUDA_CHECK(
          cudaMemcpy(got.data(), expanded.twiddles().full, full.n() * sizeof(Fr), cudaMemcpyDefault));
      ASSERT_EQ(got, want) << "2^" << log_n;
      const poly::Domain<Fr> d(log_n, root_2n.sqr());
      const auto v = test::random_field_vector<Fr>(d.n, 500 + log_n);
      cuda::DeviceBuffer<Fr> dv;
      ASSERT_TRUE(gpu_forward_equals_cpu(v, expanded, d, dv)) << "forward 2^" << log_n;
      EXPECT_THROW((void)full.expanded(nullptr), std::invalid_argument);
    }
}

}  // namespace
}  // namespace cuzk
