// GPU NTT against the CPU NTT on random vectors, both scalar fields, several sizes.
#include <gtest/gtest.h>

#include "ec/bls12_381.hpp"
#include "ec/bn254.hpp"
#include "gpu/gpu_test_util.hpp"
#include "ntt/cpu.hpp"
#include "ntt/gpu.hpp"

namespace cuzk {
namespace {

template <class Fr>
class NttGpuTest : public ::testing::Test {};
using Fields = ::testing::Types<Bn254::Fr, Bls12_381::Fr>;
TYPED_TEST_SUITE(NttGpuTest, Fields);

TYPED_TEST(NttGpuTest, ForwardAndInverseMatchCpu) {
  CUZK_REQUIRE_GPU();
  using Fr = TypeParam;
  for (std::size_t log_n : {1u, 4u, 10u, 11u, 13u, 18u}) {
    poly::Domain<Fr> d(log_n);
    ntt::gpu::Tables<Fr> tables(log_n, nullptr);
    auto v = test::random_field_vector<Fr>(d.n, 10 + log_n);
    auto dv = test::to_device(v);
    ntt::gpu::forward(dv.data(), tables, nullptr);
    auto expect = v;
    ntt::forward(expect.data(), d);
    ASSERT_EQ(test::to_host(dv), expect) << "forward 2^" << log_n;
    ntt::gpu::inverse(dv.data(), tables, nullptr);
    ASSERT_EQ(test::to_host(dv), v) << "inverse 2^" << log_n;
  }
}

TYPED_TEST(NttGpuTest, OddCosetOfThreeVectorsMatchesCpu) {
  CUZK_REQUIRE_GPU();
  using Fr = TypeParam;
  for (std::size_t log_n : {2u, 10u, 12u, 17u}) {
    poly::Domain<Fr> d(log_n);
    ntt::gpu::Tables<Fr> tables(log_n, nullptr);
    auto v = test::random_field_vector<Fr>(3 * d.n, 99 + log_n);
    auto dv = test::to_device(v);
    ntt::gpu::to_odd_coset(dv.data(), 3, tables, nullptr);
    auto got = test::to_host(dv);
    const Fr shift = poly::root_of_unity<Fr>(log_n + 1);
    for (std::size_t k = 0; k < 3; ++k) {
      std::vector<Fr> e(v.begin() + k * d.n, v.begin() + (k + 1) * d.n);
      ntt::inverse(e.data(), d);
      ntt::coset_forward(e.data(), d, shift);
      ASSERT_TRUE(std::equal(e.begin(), e.end(), got.begin() + k * d.n))
          << "vector " << k << " at 2^" << log_n;
    }
  }
}

}  // namespace
}  // namespace cuzk
