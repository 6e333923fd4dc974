// GPU MSM against the CPU MSM on random points and scalars (edge scalars 0, 1, r-1, (r±1)/2 and points at
// infinity included), G1 and G2 of both curves; slicing and small windows forced as well.
#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cuda/device_buffer.hpp"
#include "cuda/error.hpp"
#include "cuda/event.hpp"
#include "cuda/host_registration.hpp"
#include "cuda/stream.hpp"
#include "cuda/vram.hpp"
#include "ec/bls12_381.hpp"
#include "ec/bn254.hpp"
#include "gpu/gpu_test_util.hpp"
#include "msm/cpu.hpp"
#include "msm/gpu.hpp"

namespace cuzk {
namespace {

template <class Cfg>
class MsmGpuTest : public ::testing::Test {};
using Groups = ::testing::Types<Bn254::G1Cfg, Bn254::G2Cfg, Bls12_381::G1Cfg, Bls12_381::G2Cfg>;
TYPED_TEST_SUITE(MsmGpuTest, Groups);

template <class Cfg>
struct Case {
  std::vector<ec::Affine<Cfg>> points;
  std::vector<ff::BigInt<4>> scalars;
};

template <class Cfg>
Case<Cfg> make_case(std::size_t n, std::uint64_t seed) {
  using Fr = typename Cfg::Scalar;
  Case<Cfg> c{test::random_points<Cfg>(n, seed), {}};
  auto ks = test::random_field_vector<Fr>(n, seed + 7);
  for (std::size_t i = 0; i < n; ++i) {
    if (i % 11 == 3) ks[i] = Fr::zero();
    if (i % 11 == 5) ks[i] = Fr::one();
    if (i % 11 == 7) ks[i] = -Fr::one();
    // (r + 1)/2 = 1/2 is the smallest scalar the GPU takes as −(r − s), (r − 1)/2 = −1/2 the largest it
    // keeps.
    if (i % 11 == 9) ks[i] = Fr::from_u64(2).inverse();
    if (i % 11 == 10) ks[i] = -Fr::from_u64(2).inverse();
    if (i % 13 == 1) c.points[i] = ec::Affine<Cfg>::infinity();
    c.scalars.push_back(ks[i].to_int());
  }
  return c;
}

TYPED_TEST(MsmGpuTest, PippengerMatchesCpu) {
  CUZK_REQUIRE_GPU();
  using Cfg = TypeParam;
  constexpr bool g2 = sizeof(ec::Affine<Cfg>) > 96;  // G2: fewer points, each costs ~3x
  for (std::size_t n : {1u, 7u, 1000u, 20000u, g2 ? 30000u : 200000u}) {
    auto c = make_case<Cfg>(n, n);
    auto dp = test::to_device(c.points);
    auto ds = test::to_device(c.scalars);
    auto expect = msm::pippenger<Cfg>(c.points.data(), c.scalars.data(), n);
    EXPECT_EQ(msm::gpu::pippenger<Cfg>(dp.data(), ds.data(), n, nullptr), expect) << "n = " << n;
    if (n >= 1000) {
      // A third of the entries' sort arrays in all windows: one slice, in passes of some windows, summed
      // straight into the buckets; then 1/40 of them: several slices, each adding its partial sums.
      msm::gpu::Options small{9, n / 3 + 1};
      EXPECT_EQ(msm::gpu::pippenger<Cfg>(dp.data(), ds.data(), n, nullptr, nullptr, small), expect)
          << "window groups";
      msm::gpu::Options sliced{9, n / 40 + 1};
      EXPECT_EQ(msm::gpu::pippenger<Cfg>(dp.data(), ds.data(), n, nullptr, nullptr, sliced), expect)
          << "sliced";
    }
    if (n == 20000) {  // wide windows: three levels of the window reduction, mostly empty buckets
      for (std::size_t c : {16u, 20u, 22u}) {  // 22: the window of 2^27-point MSMs (12 · 2^21 buckets)
        if (g2 && c > 20) continue;            // 19 GB of G2 buckets: more than a test should take
        msm::gpu::Options wide{c, n / 2 + 1};
        EXPECT_EQ(msm::gpu::pippenger<Cfg>(dp.data(), ds.data(), n, nullptr, nullptr, wide), expect)
            << "c = " << c;
      }
    }
  }
}

// A resident MSM in passes over all entries holds only the buckets of the pass's windows, reduced before
// the next pass reuses them. At c = 16 every window's buckets (2^15 XYZZ points each: 67 to 201 MB in all)
// are more than the 64 MiB limit here leaves room for, one or two windows' are not: the plan must run
// passes, and the sum agree with the CPU (held all at once, as the plan once did, they were refused).
TYPED_TEST(MsmGpuTest, ResidentPassesHoldOnlyTheirWindowsBuckets) {
  CUZK_REQUIRE_GPU();
  using Cfg = TypeParam;
  constexpr bool g2 = sizeof(ec::Affine<Cfg>) > 96;
  const std::size_t n = g2 ? 1u << 13 : 1u << 16;
  const auto c = make_case<Cfg>(n, 4242);
  auto dp = test::to_device(c.points);
  auto ds = test::to_device(c.scalars);
  const auto expect = msm::pippenger<Cfg>(c.points.data(), c.scalars.data(), n);
  const auto saved = cuda::vram_policy();
  cuda::set_vram_policy({cuda::vram_usage(0).in_use + (std::size_t(64) << 20), 0});
  ec::Jacobian<Cfg> got;
  try {
    got = msm::gpu::pippenger<Cfg>(dp.data(), ds.data(), n, nullptr, nullptr, {16, 0});
  } catch (...) {
    cuda::set_vram_policy(saved);
    throw;
  }
  cuda::set_vram_policy(saved);
  EXPECT_EQ(got, expect);
}

// Skew as in a PoRep witness: most scalars equal and many equal small ones. r − 3 (taken as −3 on the GPU)
// puts half of them in one bucket of the lowest window; (r − 1)/2 − 3 shares every upper digit, so one bucket
// per window holds the other half, over thousands of segments: the folded heads must add up.
TYPED_TEST(MsmGpuTest, HeavilySkewedScalarsMatchCpu) {
  CUZK_REQUIRE_GPU();
  using Cfg = TypeParam;
  using Fr = typename Cfg::Scalar;
  constexpr bool g2 = sizeof(ec::Affine<Cfg>) > 96;
  const std::size_t n = g2 ? 40000 : 300000;
  auto c = make_case<Cfg>(n, n + 1);
  const auto r_minus_3 = (-Fr::from_u64(3)).to_int(), five = Fr::from_u64(5).to_int();
  const auto below_half = (-Fr::from_u64(2).inverse() - Fr::from_u64(3)).to_int();
  for (std::size_t i = 0; i < n; ++i)
    if (i % 20 < 9)
      c.scalars[i] = r_minus_3;
    else if (i % 20 < 17)
      c.scalars[i] = below_half;
    else if (i % 20 == 17)
      c.scalars[i] = five;
  auto dp = test::to_device(c.points);
  auto ds = test::to_device(c.scalars);
  const auto expect = msm::pippenger<Cfg>(c.points.data(), c.scalars.data(), n);
  EXPECT_EQ(msm::gpu::pippenger<Cfg>(dp.data(), ds.data(), n, nullptr), expect);
  msm::gpu::Options sliced{13, n / 3 + 1};
  EXPECT_EQ(msm::gpu::pippenger<Cfg>(dp.data(), ds.data(), n, nullptr, nullptr, sliced), expect) << "sliced";
}

// Buckets whose runs cross 2 to 42 of the accumulation's 64-entry segments, some beside the
// 32-segment boundary where merge_kernel stops adding a run's heads itself and fold_heads_kernel folds
// them: scalar j + 1 (one bucket of the lowest window) on 64·j + 17 points for j = 1..40, then random
// scalars.
TYPED_TEST(MsmGpuTest, RunsOfAFewToManySegmentsMatchCpu) {
  CUZK_REQUIRE_GPU();
  using Cfg = TypeParam;
  std::vector<std::uint64_t> values;
  for (std::uint64_t j = 1; j <= 40; ++j) values.insert(values.end(), 64 * j + 17, j + 1);
  const std::size_t n = values.size() + 10000;
  auto c = make_case<Cfg>(n, 77);
  for (std::size_t i = 0; i < values.size(); ++i) c.scalars[i] = Cfg::Scalar::from_u64(values[i]).to_int();
  auto dp = test::to_device(c.points);
  auto ds = test::to_device(c.scalars);
  const auto expect = msm::pippenger<Cfg>(c.points.data(), c.scalars.data(), n);
  EXPECT_EQ(msm::gpu::pippenger<Cfg>(dp.data(), ds.data(), n, nullptr), expect);
  msm::gpu::Options sliced{12, n / 2 + 1};
  EXPECT_EQ(msm::gpu::pippenger<Cfg>(dp.data(), ds.data(), n, nullptr, nullptr, sliced), expect) << "sliced";
}

TYPED_TEST(MsmGpuTest, StreamedFromHostMatchesCpu) {
  CUZK_REQUIRE_GPU();
  using Cfg = TypeParam;
  const std::size_t n = 7000;
  auto c = make_case<Cfg>(n, 99);
  auto ds = test::to_device(c.scalars);
  const auto expect = msm::pippenger<Cfg>(c.points.data(), c.scalars.data(), n);
  // Pageable memory, one slice and several (both buffers reused), then registered memory.
  EXPECT_EQ(msm::gpu::pippenger_streamed<Cfg>(c.points.data(), ds.data(), n, nullptr), expect);
  for (std::size_t chunk : {1000u, 2048u}) {
    msm::gpu::Options o{0, chunk};
    EXPECT_EQ(msm::gpu::pippenger_streamed<Cfg>(c.points.data(), ds.data(), n, nullptr, o), expect)
        << "chunk " << chunk;
  }
  cuda::HostRegistration pinned(std::span(c.points));
  msm::gpu::Options o{0, 1500};
  EXPECT_EQ(msm::gpu::pippenger_streamed<Cfg>(c.points.data(), ds.data(), n, nullptr, o), expect);
}

TYPED_TEST(MsmGpuTest, IndexedSubsetAndBatchAddMatchCpu) {
  CUZK_REQUIRE_GPU();
  using Cfg = TypeParam;
  const std::size_t n = 5000;
  auto c = make_case<Cfg>(n, 42);
  std::vector<std::uint32_t> index;
  for (std::uint32_t i = 0; i < n; i += 3) index.push_back(i);
  auto dp = test::to_device(c.points);
  auto ds = test::to_device(c.scalars);
  auto di = test::to_device(index);
  EXPECT_EQ(msm::gpu::pippenger<Cfg>(dp.data(), ds.data(), index.size(), nullptr, di.data()),
            msm::pippenger<Cfg>(c.points.data(), c.scalars.data(), index.size(), index.data()));
  EXPECT_EQ(msm::gpu::batch_add<Cfg>(dp.data(), index.size(), nullptr, di.data()),
            msm::batch_add<Cfg>(c.points.data(), index.size(), index.data()));
  EXPECT_EQ(msm::gpu::batch_add<Cfg>(dp.data(), n, nullptr), msm::batch_add<Cfg>(c.points.data(), n));
}

// Several point sets over one sort of the same scalars (a bellperson proof's A and L): each set's sum as the
// CPU gives it, the second and third through maps with positions that have no point, every 2nd position
// listed; the default sizing and a small window in several slices.
TYPED_TEST(MsmGpuTest, PointSetsSharingOneSortMatchCpu) {
  CUZK_REQUIRE_GPU();
  using Cfg = TypeParam;
  constexpr bool g2 = sizeof(ec::Affine<Cfg>) > 96;
  const std::size_t n = g2 ? 6000 : 20000, m1 = n / 2 + 101, m2 = n + 17;
  auto c = make_case<Cfg>(n, 77);
  const auto p1 = test::random_points<Cfg>(m1, 78), p2 = test::random_points<Cfg>(m2, 79);
  std::vector<std::uint32_t> index, map1(n), map2(n);
  for (std::uint32_t i = 0; i < n; i += 2) index.push_back(i);
  for (std::uint32_t i = 0; i < n; ++i) {
    map1[i] = i % 5 == 2 ? msm::gpu::kNoPoint : static_cast<std::uint32_t>((std::uint64_t(i) * 7919) % m1);
    map2[i] = i % 3 == 0 ? msm::gpu::kNoPoint : static_cast<std::uint32_t>(m2 - 1 - i);
  }
  auto expect_for = [&](const std::vector<ec::Affine<Cfg>>& pts, const std::vector<std::uint32_t>* map) {
    std::vector<ec::Affine<Cfg>> q;
    std::vector<ff::BigInt<4>> k;
    for (std::uint32_t i : index) {
      const std::uint32_t j = map ? (*map)[i] : i;
      if (j == msm::gpu::kNoPoint) continue;
      q.push_back(pts[j]);
      k.push_back(c.scalars[i]);
    }
    return msm::pippenger<Cfg>(q.data(), k.data(), q.size());
  };
  const std::vector<ec::Jacobian<Cfg>> expect{expect_for(c.points, nullptr), expect_for(p1, &map1),
                                              expect_for(p2, &map2)};
  auto dp = test::to_device(c.points), dp1 = test::to_device(p1), dp2 = test::to_device(p2);
  auto ds = test::to_device(c.scalars);
  auto di = test::to_device(index), dm1 = test::to_device(map1), dm2 = test::to_device(map2);
  const msm::gpu::PointSet<Cfg> sets[] = {
      {dp.data(), nullptr}, {dp1.data(), dm1.data()}, {dp2.data(), dm2.data()}};
  for (const msm::gpu::Options& opt : {msm::gpu::Options{}, msm::gpu::Options{9, index.size() / 3 + 1}}) {
    const auto got =
        msm::gpu::pippenger_shared<Cfg, 4>(std::span(sets), ds.data(), index.size(), nullptr, di.data(), opt);
    ASSERT_EQ(got.size(), 3u);
    for (std::size_t j = 0; j < 3; ++j)
      EXPECT_EQ(got[j], expect[j]) << "set " << j << ", window " << opt.window_bits;
  }
  // The set with the plain positions comes first.
  auto mapped_first = [&] {
    return msm::gpu::pippenger_shared<Cfg, 4>(std::span(sets).subspan(1), ds.data(), index.size(), nullptr,
                                              di.data());
  };
  EXPECT_THROW(mapped_first(), std::invalid_argument);
}

// The split form's lists of a case's scalars: the positions of those equal to one, and of those neither zero
// nor one.
template <class Cfg>
std::pair<std::vector<std::uint32_t>, std::vector<std::uint32_t>> ones_and_others(
    const std::vector<ff::BigInt<4>>& scalars) {
  std::vector<std::uint32_t> ones, others;
  for (std::uint32_t i = 0; i < scalars.size(); ++i) {
    if (scalars[i] == Cfg::Scalar::one().to_int())
      ones.push_back(i);
    else if (scalars[i] != Cfg::Scalar::zero().to_int())
      others.push_back(i);
  }
  return {std::move(ones), std::move(others)};
}

// The streamed split form against the CPU: a third of the scalars zero, a third one, the rest as make_case
// has them (edges included); slices of several sizes, a slice with none of the listed points, a list of ones
// alone and of others alone, registered memory.
TYPED_TEST(MsmGpuTest, StreamedSplitMatchesCpu) {
  CUZK_REQUIRE_GPU();
  using Cfg = TypeParam;
  using Fr = typename Cfg::Scalar;
  const std::size_t n = 7000;
  auto c = make_case<Cfg>(n, 314);
  for (std::size_t i = 0; i < n; ++i) {
    if (i % 3 == 0 || (i >= 2000 && i < 3100)) c.scalars[i] = Fr::zero().to_int();  // 2000..3099: no entries
    if (i % 3 == 1 && !(i >= 2000 && i < 3100)) c.scalars[i] = Fr::one().to_int();
  }
  auto run = [&](const Case<Cfg>& k, msm::gpu::Options o) {
    const auto [ones, others] = ones_and_others<Cfg>(k.scalars);
    auto ds = test::to_device(k.scalars);
    auto d_ones = test::to_device(ones.empty() ? std::vector<std::uint32_t>{0} : ones);
    auto d_others = test::to_device(others.empty() ? std::vector<std::uint32_t>{0} : others);
    return msm::gpu::split_streamed<Cfg>(k.points.data(), k.points.size(), ds.data(), d_ones.data(),
                                         ones.size(), d_others.data(), others.size(), nullptr, o);
  };
  const auto expect = msm::pippenger<Cfg>(c.points.data(), c.scalars.data(), n);
  EXPECT_EQ(run(c, {}), expect);
  for (std::size_t chunk : {1000u, 1100u, 4096u}) {
    EXPECT_EQ(run(c, {0, chunk}), expect) << "chunk " << chunk;
    EXPECT_EQ(run(c, {9, chunk}), expect) << "chunk " << chunk << ", c = 9";
  }
  auto only_ones = c, only_others = c;
  for (std::size_t i = 0; i < n; ++i) {
    if (only_ones.scalars[i] != Fr::zero().to_int()) only_ones.scalars[i] = Fr::one().to_int();
    if (only_others.scalars[i] == Fr::one().to_int()) only_others.scalars[i] = Fr::from_u64(5).to_int();
  }
  EXPECT_EQ(run(only_ones, {0, 1500}),
            msm::pippenger<Cfg>(only_ones.points.data(), only_ones.scalars.data(), n))
      << "ones alone";
  EXPECT_EQ(run(only_others, {0, 1500}),
            msm::pippenger<Cfg>(only_others.points.data(), only_others.scalars.data(), n))
      << "others alone";
  cuda::HostRegistration pinned(std::span(c.points));
  EXPECT_EQ(run(c, {0, 1500}), expect) << "registered";
}

// A streamed split MSM whose first points are already on the device (msm::gpu::DeviceHead, as the streamed
// bellperson plan uploads the A query's during the H MSM): heads ending on a slice boundary, inside a slice
// (that slice completed from the host), covering every point, and none; uploaded on another stream whose
// event the MSM waits for. The after_allocation hook runs once per MSM, streamed or resident, and then
// after_uploads once, with an event for the MSM's last upload (null where nothing was uploaded), also where
// the MSM's one slice is queued before its buffers are allocated.
TYPED_TEST(MsmGpuTest, StreamedSplitReadsADeviceHead) {
  CUZK_REQUIRE_GPU();
  using Cfg = TypeParam;
  using Fr = typename Cfg::Scalar;
  const std::size_t n = 5000;
  auto c = make_case<Cfg>(n, 2025);
  for (std::size_t i = 0; i < n; ++i) {
    if (i % 5 == 0) c.scalars[i] = Fr::zero().to_int();
    if (i % 5 == 1) c.scalars[i] = Fr::one().to_int();
  }
  const auto [ones, others] = ones_and_others<Cfg>(c.scalars);
  auto ds = test::to_device(c.scalars);
  auto d_ones = test::to_device(ones);
  auto d_others = test::to_device(others);
  const auto expect = msm::pippenger<Cfg>(c.points.data(), c.scalars.data(), n);
  cuda::DeviceBuffer<ec::Affine<Cfg>> d_points(n);
  cuda::Stream copy;
  cuda::Event ready(false);
  d_points.upload(c.points.data(), n, copy.get());
  ready.record(copy.get());
  for (std::size_t slice : {std::size_t(1000), n}) {
    for (std::size_t head : {std::size_t(0), std::size_t(1000), std::size_t(1500), std::size_t(2999), n}) {
      std::string hooks;
      cudaEvent_t last_upload = nullptr;
      msm::gpu::Options o{0, slice};
      o.after_allocation = [&](std::size_t) { hooks += "allocation "; };
      o.after_uploads = [&](cudaEvent_t e) {
        hooks += "uploads";
        last_upload = e;
      };
      const msm::gpu::DeviceHead<Cfg> h{head ? d_points.data() : nullptr, head, ready.get()};
      EXPECT_EQ(msm::gpu::split_streamed<Cfg>(c.points.data(), n, ds.data(), d_ones.data(), ones.size(),
                                              d_others.data(), others.size(), nullptr, o, h),
                expect)
          << "head of " << head << ", slices of " << slice;
      EXPECT_EQ(hooks, "allocation uploads") << "head of " << head << ", slices of " << slice;
      EXPECT_EQ(last_upload == nullptr, head == n) << "head of " << head << ", slices of " << slice;
    }
  }
  // The hook's bytes are what the MSM allocates after it (c = 10: 512 buckets per window, so its window
  // sums take two levels of scratch), which a caller that fills the room then must leave.
  int calls = 0;
  std::size_t later = 0;
  std::optional<cuda::ThreadVramPeak> after_hook;
  int upload_calls = 0;
  cudaEvent_t last_upload = nullptr;
  msm::gpu::Options o{10};
  o.after_allocation = [&](std::size_t bytes) {
    ++calls;
    later = bytes;
    after_hook.emplace();
  };
  o.after_uploads = [&](cudaEvent_t e) {
    ++upload_calls;
    last_upload = e;
  };
  CUZK_CUDA_CHECK(cudaStreamSynchronize(copy.get()));
  EXPECT_EQ(msm::gpu::pippenger<Cfg>(d_points.data(), ds.data(), n, nullptr, nullptr, o), expect);
  EXPECT_GT(later, 0u);
  EXPECT_EQ(after_hook->bytes(), later) << "resident";
  EXPECT_EQ(last_upload, nullptr) << "resident points upload nothing";
  EXPECT_EQ(msm::gpu::pippenger_streamed<Cfg>(c.points.data(), ds.data(), n, nullptr, o), expect);
  EXPECT_EQ(after_hook->bytes(), later) << "streamed";
  EXPECT_NE(last_upload, nullptr) << "streamed";
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(upload_calls, 2);
}

// A streamed MSM's window (CUZK_MSM_STREAMED_WINDOW): the cost model's (default), fitting_window's, or a
// forced one, in several slices, give the CPU's sum, plain and split; a malformed setting is refused.
TYPED_TEST(MsmGpuTest, StreamedWindowSettingsMatchCpu) {
  CUZK_REQUIRE_GPU();
  using Cfg = TypeParam;
  using Fr = typename Cfg::Scalar;
  const std::size_t n = 6000;
  auto c = make_case<Cfg>(n, 1618);
  for (std::size_t i = 0; i < n; ++i) {
    if (i % 4 == 0) c.scalars[i] = Fr::zero().to_int();
    if (i % 4 == 1) c.scalars[i] = Fr::one().to_int();
  }
  const auto [ones, others] = ones_and_others<Cfg>(c.scalars);
  auto ds = test::to_device(c.scalars);
  auto d_ones = test::to_device(ones);
  auto d_others = test::to_device(others);
  const auto expect = msm::pippenger<Cfg>(c.points.data(), c.scalars.data(), n);
  test::ScopedEnv window("CUZK_MSM_STREAMED_WINDOW");
  const msm::gpu::Options sliced{0, 1024};
  for (const char* setting : {"", "model", "fitting", "8", "13"}) {
    window.set(setting);
    EXPECT_EQ(msm::gpu::pippenger_streamed<Cfg>(c.points.data(), ds.data(), n, nullptr, sliced), expect)
        << "'" << setting << "'";
    EXPECT_EQ(msm::gpu::split_streamed<Cfg>(c.points.data(), n, ds.data(), d_ones.data(), ones.size(),
                                            d_others.data(), others.size(), nullptr, sliced),
              expect)
        << "split, '" << setting << "'";
  }
  for (const char* bad : {"7", "24", "x", "12x", "-9"}) {
    window.set(bad);
    EXPECT_THROW(msm::gpu::pippenger_streamed<Cfg>(c.points.data(), ds.data(), n, nullptr, sliced),
                 std::invalid_argument)
        << bad;
  }
}

// A dense streamed MSM in passes (CUZK_MSM_STREAMED_PASSES): each pass uploads every slice again for its
// windows, so with an odd count of slices a pass's first slice takes the other upload buffer than the one
// before; every count of passes, with windows that do and do not divide among them, gives the CPU's sum, the
// after_uploads hook fires once (after the last pass's last upload), and a malformed setting is refused.
TYPED_TEST(MsmGpuTest, StreamedPassesMatchCpu) {
  CUZK_REQUIRE_GPU();
  using Cfg = TypeParam;
  const std::size_t n = 5000;  // five slices of 1,024 points
  const auto c = make_case<Cfg>(n, 3141);
  auto ds = test::to_device(c.scalars);
  const auto expect = msm::pippenger<Cfg>(c.points.data(), c.scalars.data(), n);
  test::ScopedEnv passes_env("CUZK_MSM_STREAMED_PASSES");
  for (const std::size_t window : {std::size_t(0), std::size_t(8), std::size_t(13)}) {
    for (const char* passes : {"1", "2", "3", "4"}) {
      passes_env.set(passes);
      msm::gpu::Options o{window, 1024};
      int upload_calls = 0;
      o.after_allocation = [](std::size_t) {};
      o.after_uploads = [&](cudaEvent_t e) {
        ++upload_calls;
        EXPECT_NE(e, nullptr);
      };
      EXPECT_EQ(msm::gpu::pippenger_streamed<Cfg>(c.points.data(), ds.data(), n, nullptr, o), expect)
          << "c = " << window << ", passes " << passes;
      EXPECT_EQ(upload_calls, 1) << "c = " << window << ", passes " << passes;
    }
  }
  for (const char* bad : {"0", "5", "x", "2x", "-1"}) {
    passes_env.set(bad);
    EXPECT_THROW(msm::gpu::pippenger_streamed<Cfg>(c.points.data(), ds.data(), n, nullptr, {0, 1024}),
                 std::invalid_argument)
        << bad;
  }
}

// Under a tight VRAM limit the window shrinks to what fits: with 2^18 others the fastest window (c = 12) has
// 17 MB of BLS12-381 buckets, more than the whole limit here; the MSM must still run, and agree with the CPU.
TYPED_TEST(MsmGpuTest, StreamedSplitFitsATightVramLimit) {
  CUZK_REQUIRE_GPU();
  using Cfg = TypeParam;
  const std::size_t n = std::size_t(1) << 18;
  const auto c = make_case<Cfg>(n, 2718);
  const auto [ones, others] = ones_and_others<Cfg>(c.scalars);
  auto ds = test::to_device(c.scalars);
  auto d_ones = test::to_device(ones);
  auto d_others = test::to_device(others);
  const auto saved = cuda::vram_policy();
  cuda::set_vram_policy({cuda::vram_usage(0).in_use + (std::size_t(16) << 20), 0});
  ec::Jacobian<Cfg> got;
  try {
    got = msm::gpu::split_streamed<Cfg>(c.points.data(), n, ds.data(), d_ones.data(), ones.size(),
                                        d_others.data(), others.size(), nullptr, {0, std::size_t(1) << 13});
  } catch (...) {
    cuda::set_vram_policy(saved);
    throw;
  }
  cuda::set_vram_policy(saved);
  EXPECT_EQ(got, msm::pippenger<Cfg>(c.points.data(), c.scalars.data(), n));
}

// The arithmetic forms of the BLS12-381 bucket accumulation (msm/gpu_lazy_add.cuh; `variable` picks the
// group's form) against the CPU: random points and scalars with make_case's edges, a point followed by itself
// with the same scalar (the doubling branch in every window where their digit is not zero), a point followed
// by its negation (the sum cancels to infinity, and the next point starts the bucket again), skewed scalars
// whose buckets span many segments; the default sizing, window groups and several slices. An unknown form is
// refused.
template <class Cfg>
void expect_every_form_matches_cpu(const char* variable, std::size_t n) {
  using Fr = typename Cfg::Scalar;
  auto c = make_case<Cfg>(n, 2027);
  c.points[1] = c.points[0], c.scalars[1] = c.scalars[0];
  c.points[3] = -c.points[2], c.scalars[3] = c.scalars[2];
  const auto r_minus_3 = (-Fr::from_u64(3)).to_int();
  for (std::size_t i = n / 2; i < n; i += 3) c.scalars[i] = r_minus_3;
  auto dp = test::to_device(c.points);
  auto ds = test::to_device(c.scalars);
  const auto expect = msm::pippenger<Cfg>(c.points.data(), c.scalars.data(), n);
  test::ScopedEnv add_form(variable);
  for (const char* form : {"lazy", "field", "fp64-lazy", "int", "int-lazy"}) {
    add_form.set(form);
    EXPECT_EQ(msm::gpu::pippenger<Cfg>(dp.data(), ds.data(), n, nullptr), expect) << form;
    EXPECT_EQ(msm::gpu::pippenger<Cfg>(dp.data(), ds.data(), n, nullptr, nullptr, {11, n / 3 + 1}), expect)
        << form << ", window groups";
    EXPECT_EQ(msm::gpu::pippenger<Cfg>(dp.data(), ds.data(), n, nullptr, nullptr, {9, n / 40 + 1}), expect)
        << form << ", sliced";
  }
  add_form.set("fast");
  EXPECT_THROW(msm::gpu::pippenger<Cfg>(dp.data(), ds.data(), n, nullptr), std::invalid_argument);
}

TEST(MsmGpuAdditionForms, EveryFormMatchesCpu) {
  CUZK_REQUIRE_GPU();
  expect_every_form_matches_cpu<Bls12_381::G1Cfg>("CUZK_MSM_ADD", 60000);
}

// G2's forms: Fp2 products by Karatsuba over each form's base products.
TEST(MsmGpuAdditionForms, EveryG2FormMatchesCpu) {
  CUZK_REQUIRE_GPU();
  expect_every_form_matches_cpu<Bls12_381::G2Cfg>("CUZK_MSM_ADD_G2", 20000);
}

}  // namespace
}  // namespace cuzk
