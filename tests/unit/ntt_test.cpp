// NTT against a naive DFT / naive polynomial evaluation, both scalar fields.
#include <gtest/gtest.h>

#include <random>

#include "ec/bls12_381.hpp"
#include "ec/bn254.hpp"
#include "ff/encoding.hpp"
#include "ntt/cpu.hpp"

namespace cuzk {
namespace {

template <class Fr>
class NttTest : public ::testing::Test {};
using Fields = ::testing::Types<Bn254::Fr, Bls12_381::Fr>;
TYPED_TEST_SUITE(NttTest, Fields);

template <class Fr>
std::vector<Fr> random_vector(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Fr> v(n);
  for (auto& x : v) x = ff::random_element<Fr>(rng);
  return v;
}

// p(x) = Σ c_i x^i by Horner.
template <class Fr>
Fr evaluate(const std::vector<Fr>& coeffs, const Fr& x) {
  Fr acc = Fr::zero();
  for (std::size_t i = coeffs.size(); i-- > 0;) acc = acc * x + coeffs[i];
  return acc;
}

TYPED_TEST(NttTest, RootsHaveExactOrder) {
  using Fr = TypeParam;
  for (std::size_t k : {1u, 5u, 16u, 28u}) {
    Fr w = poly::root_of_unity<Fr>(k);
    Fr half = w;
    for (std::size_t i = 1; i < k; ++i) half = half.sqr();
    EXPECT_EQ(half, -Fr::one()) << "ω^(n/2) must be -1 at 2^" << k;
  }
  EXPECT_THROW(poly::root_of_unity<Fr>(Fr::two_adicity() + 1), std::invalid_argument);
}

TYPED_TEST(NttTest, ForwardMatchesNaiveDft) {
  using Fr = TypeParam;
  for (std::size_t log_n : {0u, 1u, 2u, 3u, 6u, 9u}) {
    poly::Domain<Fr> d(log_n);
    auto coeffs = random_vector<Fr>(d.n, 100 + log_n);
    auto evals = coeffs;
    ntt::forward(evals.data(), d);
    Fr x = Fr::one();
    for (std::size_t i = 0; i < d.n; ++i, x *= d.omega) ASSERT_EQ(evals[i], evaluate(coeffs, x)) << i;
  }
}

// Sizes too large for the whole naive DFT: sampled outputs against the polynomial evaluated directly.
TYPED_TEST(NttTest, ForwardMatchesDirectEvaluationAtLargerSizes) {
  using Fr = TypeParam;
  for (std::size_t log_n : {13u, 15u}) {
    poly::Domain<Fr> d(log_n);
    auto coeffs = random_vector<Fr>(d.n, 200 + log_n);
    auto evals = coeffs;
    ntt::forward(evals.data(), d);
    for (std::size_t i : {std::size_t(0), std::size_t(1), d.n / 2 - 1, d.n / 2, d.n / 3, d.n - 1}) {
      const Fr x = d.omega.pow(ff::bigint_from_u64<1>(i));
      ASSERT_EQ(evals[i], evaluate(coeffs, x)) << "2^" << log_n << ", output " << i;
    }
  }
}

TYPED_TEST(NttTest, InverseUndoesForwardAtLargerSizes) {
  using Fr = TypeParam;
  for (std::size_t log_n : {10u, 14u, 16u}) {
    poly::Domain<Fr> d(log_n);
    auto v = random_vector<Fr>(d.n, log_n);
    auto w = v;
    ntt::forward(w.data(), d);
    EXPECT_NE(w, v);
    ntt::inverse(w.data(), d);
    EXPECT_EQ(w, v);
  }
}

TYPED_TEST(NttTest, CosetTransformsEvaluateOnTheCoset) {
  using Fr = TypeParam;
  poly::Domain<Fr> d(7);
  auto coeffs = random_vector<Fr>(d.n, 77);
  const Fr shift = poly::root_of_unity<Fr>(8);  // the odd coset of the 2n domain, as snarkjs uses
  auto evals = coeffs;
  ntt::coset_forward(evals.data(), d, shift);
  Fr x = shift;
  for (std::size_t i = 0; i < d.n; ++i, x *= d.omega) ASSERT_EQ(evals[i], evaluate(coeffs, x)) << i;
  ntt::coset_inverse(evals.data(), d, shift);
  EXPECT_EQ(evals, coeffs);
}

}  // namespace
}  // namespace cuzk
