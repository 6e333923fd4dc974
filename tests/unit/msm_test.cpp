// MSM (Pippenger, batch add, split form) against a naive Σ k_i·P_i, G1 and G2 of both curves, with the
// edge scalars 0, 1, r-1, points at infinity, repeated and opposite points among the inputs; and for tens of
// thousands of points (the affine buckets) against the sum their known discrete logs give.
#include <gtest/gtest.h>
#include <tbb/task_arena.h>

#include <random>

#include "ec/batch_normalize.hpp"
#include "ec/bls12_381.hpp"
#include "ec/bn254.hpp"
#include "ec/fixed_base.hpp"
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

// Points t_i·G made with the fixed-base table (fast enough for tens of thousands), their discrete logs
// kept, so that an MSM's expected value is one scalar multiplication: Σ s_i·(t_i·G) = (Σ s_i·t_i)·G.
template <class Cfg>
struct KnownLogs {
  using Fr = typename Cfg::Scalar;
  std::vector<Fr> logs;
  std::vector<ec::Affine<Cfg>> points;
};
template <class Cfg>
KnownLogs<Cfg> known_log_points(std::size_t n, std::uint64_t seed) {
  using Fr = typename Cfg::Scalar;
  std::mt19937_64 rng(seed);
  KnownLogs<Cfg> k;
  for (std::size_t i = 0; i < n; ++i) k.logs.push_back(ff::random_element<Fr>(rng));
  k.logs[3] = k.logs[2];   // a repeated point
  k.logs[5] = -k.logs[4];  // opposite points
  k.points = ec::FixedBaseTable<Cfg>(Cfg::generator()).mul_all(k.logs);
  return k;
}

// Random scalars, a crowd of points with the same small scalar (one bucket, over and over: the overflow
// path) and the edge scalars.
template <class Fr>
std::vector<Fr> crowded_scalars(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Fr> s;
  for (std::size_t i = 0; i < n; ++i) {
    switch (i % 10) {
      case 0:
        s.push_back(Fr::from_u64(5));
        break;
      case 1:
        s.push_back(-Fr::from_u64(5));  // the same bucket, negated point
        break;
      case 2:
        s.push_back(i % 20 == 2 ? Fr::zero() : -Fr::one());
        break;
      default:
        s.push_back(ff::random_element<Fr>(rng));
    }
  }
  s[4] = s[5];  // opposite points with equal scalars cancel
  return s;
}

// The affine-bucket windows (batched inversions, overflow for crowded buckets) equal the XYZZ-bucket ones,
// window by window, for windows large enough to take the affine path.
TYPED_TEST(MsmTest, AffineBucketsMatchXyzzBuckets) {
  using Cfg = TypeParam;
  using Fr = typename Cfg::Scalar;
  const std::size_t n = 6000;
  const auto pts = known_log_points<Cfg>(n, 17);
  const auto s = crowded_scalars<Fr>(n, 18);
  for (std::size_t c : {msm::detail::kAffineBucketsFromWindow, std::size_t(13)}) {
    const std::size_t w = msm::window_count(Fr::bits(), c);
    std::vector<std::int32_t> digits(n * w);
    for (std::size_t i = 0; i < n; ++i) msm::signed_digits(s[i].to_int(), c, w, &digits[i * w]);
    std::vector<ec::XYZZ<Cfg>> affine(w, ec::XYZZ<Cfg>::infinity()), xyzz(w, ec::XYZZ<Cfg>::infinity());
    msm::detail::affine_buckets_windows<Cfg>(pts.points.data(), nullptr, digits.data(), n, c, w, affine);
    msm::detail::xyzz_buckets_windows<Cfg>(pts.points.data(), nullptr, digits.data(), n, c, w, xyzz);
    for (std::size_t win = 0; win < w; ++win)
      ASSERT_EQ(affine[win].to_jacobian(), xyzz[win].to_jacobian()) << "c = " << c << ", window " << win;
  }
}

// Pippenger on two threads over 20,000 points (windows of 10 bits: the affine path) equals the sum the
// discrete logs give.
TYPED_TEST(MsmTest, LargePippengerMatchesTheKnownLogSum) {
  using Cfg = TypeParam;
  using Fr = typename Cfg::Scalar;
  const std::size_t n = 20000;
  const auto pts = known_log_points<Cfg>(n, 27);
  const auto s = crowded_scalars<Fr>(n, 28);
  Fr log = Fr::zero();
  std::vector<ff::BigInt<Fr::N>> ints;
  for (std::size_t i = 0; i < n; ++i) {
    log += s[i] * pts.logs[i];
    ints.push_back(s[i].to_int());
  }
  ASSERT_GE(msm::choose_window(n / 2), msm::detail::kAffineBucketsFromWindow);
  tbb::task_arena two(2);
  const auto got = two.execute([&] { return msm::pippenger<Cfg>(pts.points.data(), ints.data(), n); });
  EXPECT_EQ(got, ec::scalar_mul(Cfg::generator(), log.to_int()));
  msm::SplitStats stats;
  EXPECT_EQ(two.execute([&] { return msm::split_msm<Cfg>(pts.points.data(), ints.data(), n, &stats); }),
            ec::scalar_mul(Cfg::generator(), log.to_int()));
  EXPECT_GT(stats.others, n / 2);
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
