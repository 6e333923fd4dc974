// Field arithmetic on the device (32-bit-limb Montgomery) against the host, all four prime fields
// and Fp2, on random inputs.
#include <gtest/gtest.h>

#include "ec/bls12_381.hpp"
#include "ec/bn254.hpp"
#include "ff/mont_fp64.hpp"
#include "gpu/gpu_test_util.hpp"

namespace cuzk {
namespace {

template <class F>
__global__ void arith_kernel(const F* a, const F* b, F* mul, F* sqr, F* add, F* sub, std::size_t n) {
  std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  mul[i] = a[i] * b[i];
  sqr[i] = a[i].sqr();
  add[i] = a[i] + b[i];
  sub[i] = a[i] - b[i];
}

template <class F>
class FieldGpuTest : public ::testing::Test {};
using Fields =
    ::testing::Types<Bn254::Fq, Bn254::Fr, Bls12_381::Fq, Bls12_381::Fr, Bn254::Fq2, Bls12_381::Fq2>;
TYPED_TEST_SUITE(FieldGpuTest, Fields);

template <class F>
std::vector<F> random_any(std::size_t n, std::uint64_t seed) {
  if constexpr (requires { F::modulus(); }) {
    return test::random_field_vector<F>(n, seed);
  } else {
    auto c0 = test::random_field_vector<typename F::Base>(n, seed);
    auto c1 = test::random_field_vector<typename F::Base>(n, seed + 1);
    std::vector<F> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = {c0[i], c1[i]};
    return v;
  }
}

TYPED_TEST(FieldGpuTest, MatchesHost) {
  CUZK_REQUIRE_GPU();
  using F = TypeParam;
  const std::size_t n = 1 << 14;
  auto a = random_any<F>(n, 1), b = random_any<F>(n, 2);
  a[0] = F::zero();  // edge values among the random ones
  b[1] = F::one();
  b[2] = -F::one();
  a[3] = -F::one();  // a + b wraps past p
  b[3] = -F::one();
  b[4] = a[4];  // a - b = 0
  auto da = test::to_device(a), db = test::to_device(b);
  cuda::DeviceBuffer<F> mul(n), sqr(n), add(n), sub(n);
  arith_kernel<F>
      <<<(n + 127) / 128, 128>>>(da.data(), db.data(), mul.data(), sqr.data(), add.data(), sub.data(), n);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  auto hm = test::to_host(mul), hs = test::to_host(sqr), ha = test::to_host(add), hd = test::to_host(sub);
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(hm[i], a[i] * b[i]) << i;
    ASSERT_EQ(hs[i], a[i].sqr()) << i;
    ASSERT_EQ(ha[i], a[i] + b[i]) << i;
    ASSERT_EQ(hd[i], a[i] - b[i]) << i;
  }
}

// Both Montgomery multiply variants (whichever `operator*` uses), called directly on the 32-bit words.
template <class F>
__global__ void variants_kernel(const F* a, const F* b, F* wide, F* chain, F* wide_cc, F* sqr, F* sqr_chain,
                                std::size_t n) {
  using Params = typename F::params;
  constexpr std::size_t N = F::N;
  std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  const auto p = ff::mont32::modulus_words<Params, N>();
  constexpr auto pinv = ff::mont32::neg_inverse32<Params>();
  const auto wa = ff::mont32::split<N>(a[i].l), wb = ff::mont32::split<N>(b[i].l);
  ff::mont32::join<N>(wide[i].l, ff::mont32::mul_wide<N>(wa, wb, p, pinv));
  ff::mont32::join<N>(chain[i].l, ff::mont32::mul_chain<N>(wa, wb, p, pinv));
  ff::mont32::join<N>(wide_cc[i].l, ff::mont32::mul_wide_cc<N>(wa, wb, p, pinv));
  ff::mont32::join<N>(sqr[i].l, ff::mont32::sqr_wide_cc<N>(wa, p, pinv));
  ff::mont32::join<N>(sqr_chain[i].l, ff::mont32::sqr_chain<N>(wa, p, pinv));
}

template <class F>
class PrimeFieldGpuTest : public ::testing::Test {};
using PrimeFields = ::testing::Types<Bn254::Fq, Bn254::Fr, Bls12_381::Fq, Bls12_381::Fr>;
TYPED_TEST_SUITE(PrimeFieldGpuTest, PrimeFields);

TYPED_TEST(PrimeFieldGpuTest, MultiplyVariantsMatchHost) {
  CUZK_REQUIRE_GPU();
  using F = TypeParam;
  const std::size_t n = 1 << 14;
  auto a = test::random_field_vector<F>(n, 3), b = test::random_field_vector<F>(n, 4);
  a[0] = -F::one();
  b[0] = -F::one();
  a[1] = F::zero();
  a[2] = F::one();
  auto da = test::to_device(a), db = test::to_device(b);
  cuda::DeviceBuffer<F> wide(n), chain(n), wide_cc(n), sqr(n), sqr_chain(n);
  variants_kernel<F><<<(n + 127) / 128, 128>>>(da.data(), db.data(), wide.data(), chain.data(),
                                               wide_cc.data(), sqr.data(), sqr_chain.data(), n);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  auto hw = test::to_host(wide), hc = test::to_host(chain), hcc = test::to_host(wide_cc),
       hs = test::to_host(sqr), hsc = test::to_host(sqr_chain);
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(hw[i], a[i] * b[i]) << i;
    ASSERT_EQ(hc[i], a[i] * b[i]) << i;
    ASSERT_EQ(hcc[i], a[i] * b[i]) << i;
    ASSERT_EQ(hs[i], a[i].sqr()) << i;
    ASSERT_EQ(hsc[i], a[i].sqr()) << i;
  }
}

// The FP64-pipe multiply (mont_fp64.hpp) in its pure, hybrid and all-integer-accumulator forms.
template <int IntPer8>
__global__ void fp64_kernel(const Bls12_381::Fq* a, const Bls12_381::Fq* b, Bls12_381::Fq* out,
                            std::size_t n) {
  using Params = Bls12_381::Fq::params;
  std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  const auto p = ff::mont32::modulus_words<Params, 6>();
  ff::mont32::join<6>(out[i].l, ff::fp64::mul_words<Params, IntPer8>(ff::mont32::split<6>(a[i].l),
                                                                     ff::mont32::split<6>(b[i].l), p));
}

TEST(Fp64MultiplyGpuTest, MatchesHostInEveryAccumulatorMix) {
  CUZK_REQUIRE_GPU();
  using F = Bls12_381::Fq;
  const std::size_t n = 1 << 16;
  auto a = test::random_field_vector<F>(n, 5), b = test::random_field_vector<F>(n, 6);
  a[0] = -F::one();  // every limb near its bound
  b[0] = -F::one();
  a[1] = F::zero();
  b[2] = F::one();
  a[3] = F::one();
  b[3] = F::one();
  auto da = test::to_device(a), db = test::to_device(b);
  cuda::DeviceBuffer<F> pure(n), half(n), all_int(n);
  fp64_kernel<0><<<(n + 127) / 128, 128>>>(da.data(), db.data(), pure.data(), n);
  fp64_kernel<4><<<(n + 127) / 128, 128>>>(da.data(), db.data(), half.data(), n);
  fp64_kernel<8><<<(n + 127) / 128, 128>>>(da.data(), db.data(), all_int.data(), n);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  auto hp = test::to_host(pure), hh = test::to_host(half), hi = test::to_host(all_int);
  for (std::size_t i = 0; i < n; ++i) {
    const F want = a[i] * b[i];
    ASSERT_EQ(hp[i], want) << i;
    ASSERT_EQ(hh[i], want) << i;
    ASSERT_EQ(hi[i], want) << i;
  }
}

// The FP64-pipe square (mont_fp64.hpp: each cross product once, from a doubled limb), as the drop-in
// words form and as Field::sqr, the called form the curve formulas use.
__global__ void fp64_sqr_kernel(const Bls12_381::Fq* a, Bls12_381::Fq* words_form, Bls12_381::Fq* called,
                                std::size_t n) {
  using Params = Bls12_381::Fq::params;
  std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  const auto p = ff::mont32::modulus_words<Params, 6>();
  ff::mont32::join<6>(words_form[i].l, ff::fp64::sqr_words<Params>(ff::mont32::split<6>(a[i].l), p));
  called[i] = a[i].sqr();
}

TEST(Fp64MultiplyGpuTest, SquareMatchesHostMultiply) {
  CUZK_REQUIRE_GPU();
  using F = Bls12_381::Fq;
  const std::size_t n = 1 << 16;
  auto a = test::random_field_vector<F>(n, 9);
  // Representations at the limb bounds: p − 1 and p − 2^k for several k, a value below p whose seven
  // low 48-bit limbs are all 2^48 − 1 (the doubled limbs at their largest), 0, 1 and R (one).
  const auto p = F::modulus();
  auto minus = [&](unsigned bit) {
    auto v = p;
    std::uint64_t borrow = std::uint64_t{1} << (bit % 64);
    for (std::size_t w = bit / 64; w < 6 && borrow; ++w) {
      const std::uint64_t before = v.v[w];
      v.v[w] -= borrow;
      borrow = v.v[w] > before ? 1 : 0;
    }
    return v;
  };
  std::size_t k = 0;
  a[k++] = F::from_raw(minus(0));
  for (unsigned bit : {1u, 47u, 48u, 95u, 200u, 335u, 336u, 379u}) a[k++] = F::from_raw(minus(bit));
  ff::BigInt<6> low_ones{};
  for (int i = 0; i < 5; ++i) low_ones.v[i] = ~std::uint64_t{0};
  low_ones.v[5] = (((p.v[5] >> 16) - 1) << 16) | 0xffff;  // bits 0..335 set, the top limb below p's
  a[k++] = F::from_raw(low_ones);
  a[k++] = F::zero();
  a[k++] = F::from_raw(ff::bigint_from_u64<6>(1));
  a[k++] = F::one();
  auto da = test::to_device(a);
  cuda::DeviceBuffer<F> words_form(n), called(n);
  fp64_sqr_kernel<<<(n + 127) / 128, 128>>>(da.data(), words_form.data(), called.data(), n);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  auto hw = test::to_host(words_form), hc = test::to_host(called);
  for (std::size_t i = 0; i < n; ++i) {
    const F want = a[i] * a[i];
    ASSERT_EQ(hw[i], want) << i;
    ASSERT_EQ(hc[i], want) << i;
  }
}

}  // namespace
}  // namespace cuzk
