// MSM (Pippenger, batch add, split form) against a naive Σ k_i·P_i, G1 and G2 of both curves, with the
// edge scalars 0, 1, r-1, points at infinity, repeated and opposite points among the inputs.
#include <gtest/gtest.h>

#include <random>

#include "ec/batch_normalize.hpp"
#include "ec/bls12_381.hpp"
#include "ec/bn254.hpp"
#include "ec/scalar_mul.hpp"
#include "ff/encoding.hpp"
#include "msm/cpu.hpp"

namespace cuzk {
namespace {

template <class Cfg>
class MsmTest : public ::testing::Test {};
using Groups = ::testing::Types<Bn254::G1Cfg, Bn254::G2Cfg, Bls12_381::G1Cfg, Bls12_381::G2Cfg>;
TYPED_TEST_SUITE(MsmTest, Groups);

template <class Cfg>
struct Input {
  using Fr = typename Cfg::Scalar;
  std::vector<ec::Affine<Cfg>> points;
  std::vector<ff::BigInt<Fr::N>> scalars;
};

// Random points (multiples of the generator) and scalars, with edge cases mixed in.
template <class Cfg>
Input<Cfg> make_input(std::size_t n, std::uint64_t seed) {
  using Fr = typename Cfg::Scalar;
  std::mt19937_64 rng(seed);
  std::vector<ec::Jacobian<Cfg>> jac(n);
  Input<Cfg> in;
  const auto g = Cfg::generator();
  for (std::size_t i = 0; i < n; ++i) jac[i] = ec::scalar_mul(g, ff::random_element<Fr>(rng).to_int());
  in.points = ec::batch_to_affine(jac);
  for (std::size_t i = 0; i < n; ++i) {
    Fr k = ff::random_element<Fr>(rng);
    switch (rng() % 8) {
      case 0:
        k = Fr::zero();
        break;
      case 1:
      case 2:
        k = Fr::one();
        break;
      case 3:
        k = -Fr::one();
        break;  // r - 1
      case 4:
        k = Fr::from_u64(rng() % 1000);
        break;
      default:
        break;
    }
    in.scalars.push_back(k.to_int());
  }
  if (n >= 8) {
    in.points[1] = ec::Affine<Cfg>::infinity();
    in.points[2] = in.points[3];   // repeated point
    in.points[4] = -in.points[5];  // opposite points
    in.scalars[4] = in.scalars[5];
    in.scalars[6] = in.scalars[7] = Fr::one().to_int();
    in.points[6] = in.points[7];  // doubling inside the batch add
  }
  return in;
}

template <class Cfg>
ec::Jacobian<Cfg> naive(const Input<Cfg>& in) {
  auto acc = ec::Jacobian<Cfg>::infinity();
  for (std::size_t i = 0; i < in.points.size(); ++i) acc += ec::scalar_mul(in.points[i], in.scalars[i]);
  return acc;
}

TYPED_TEST(MsmTest, PippengerAndSplitMatchNaiveSum) {
  using Cfg = TypeParam;
  for (std::size_t n : {0u, 1u, 2u, 9u, 64u, 300u}) {
    auto in = make_input<Cfg>(n, 1000 + n);
    auto expect = naive(in);
    EXPECT_EQ(msm::pippenger<Cfg>(in.points.data(), in.scalars.data(), n), expect) << "n = " << n;
    msm::SplitStats stats;
    EXPECT_EQ(msm::split_msm<Cfg>(in.points.data(), in.scalars.data(), n, &stats), expect) << "n = " << n;
    EXPECT_EQ(stats.zeros + stats.ones + stats.others, n);
  }
}

TYPED_TEST(MsmTest, AllOnesIsTheBatchAdd) {
  using Cfg = TypeParam;
  auto in = make_input<Cfg>(200, 5);
  for (auto& k : in.scalars) k = Cfg::Scalar::one().to_int();
  auto expect = naive(in);
  EXPECT_EQ(msm::batch_add<Cfg>(in.points.data(), in.points.size()), expect);
  msm::SplitStats stats;
  EXPECT_EQ(msm::split_msm<Cfg>(in.points.data(), in.scalars.data(), in.points.size(), &stats), expect);
  EXPECT_EQ(stats.ones, 200u);
}

TEST(MsmDigits, SignedDigitsRecomposeTheScalar) {
  std::mt19937_64 rng(9);
  for (std::size_t c : {2u, 5u, 8u, 13u, 16u}) {
    for (int it = 0; it < 200; ++it) {
      auto k = ff::random_element<Bls12_381::Fr>(rng).to_int();
      std::size_t w = msm::window_count(255, c);
      std::vector<std::int32_t> d(w);
      msm::signed_digits(k, c, w, d.data());
      // Recompose in the field: Σ d_i·2^(c·i) mod r must equal k mod r (k < r).
      using Fr = Bls12_381::Fr;
      Fr acc = Fr::zero(), base = Fr::one(), two_c = Fr::from_u64(std::uint64_t(1) << c);
      for (std::size_t i = 0; i < w; ++i, base *= two_c) {
        ASSERT_LE(std::abs(d[i]), 1 << (c - 1));
        Fr di = Fr::from_u64(static_cast<std::uint64_t>(std::abs(d[i])));
        acc += (d[i] < 0 ? -di : di) * base;
      }
      ASSERT_EQ(acc, Fr::from_int(k));
    }
  }
}

}  // namespace
}  // namespace cuzk
