// Multi-scalar multiplication on the CPU: Σ k_i·P_i with oneTBB.
//
// Pippenger with signed digits; buckets in affine coordinates whose additions share their inversions
// (XYZZ buckets for small windows). Work is split by chunks of points (not by windows):
// each task computes its chunk's digits once and sweeps all windows with one reused bucket array, so
// memory stays at one bucket set per task and parallelism does not depend on the window count.
//
// The "split" form serves real witnesses, which are mostly 0 and 1: points with scalar 1 are summed by
// plain additions ("batch add"), zeros are dropped and only the rest goes through Pippenger ("tail").
#pragma once

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <thread>
#include <vector>

#include "ec/batch_affine.hpp"
#include "ec/point.hpp"
#include "msm/digits.hpp"

namespace cuzk::msm {

template <class C>
using Affine = ec::Affine<C>;
template <class C>
using Jacobian = ec::Jacobian<C>;
template <class C>
using XYZZ = ec::XYZZ<C>;

namespace detail {

// Σ_b (b+1)·bucket[b] by the running-sum trick (2 adds per bucket).
template <class C>
XYZZ<C> reduce_buckets(const std::vector<XYZZ<C>>& buckets) {
  XYZZ<C> running = XYZZ<C>::infinity(), total = XYZZ<C>::infinity();
  for (std::size_t b = buckets.size(); b-- > 0;) {
    running += buckets[b];
    total += running;
  }
  return total;
}

// Per-window sums Σ_{i in chunk} d_{i,win}·P_i for one chunk of points, XYZZ buckets (small windows).
template <class C>
void xyzz_buckets_windows(const Affine<C>* points, const std::uint32_t* index, const std::int32_t* digits,
                          std::size_t count, std::size_t c, std::size_t w,
                          std::vector<XYZZ<C>>& window_sums) {
  std::vector<XYZZ<C>> buckets(std::size_t(1) << (c - 1));
  for (std::size_t win = 0; win < w; ++win) {
    std::fill(buckets.begin(), buckets.end(), XYZZ<C>::infinity());
    bool any = false;
    for (std::size_t i = 0; i < count; ++i) {
      std::int32_t d = digits[i * w + win];
      if (d == 0) continue;
      const Affine<C>& p = points[index ? index[i] : i];
      if (d > 0)
        buckets[d - 1] = buckets[d - 1].add_affine(p);
      else
        buckets[-d - 1] = buckets[-d - 1].add_affine(-p);
      any = true;
    }
    if (any) window_sums[win] = reduce_buckets(buckets);
  }
}

// How far ahead affine_buckets_windows prefetches the bucket and the point: 12-18% off a 2^20-point window
// at c = 16 (the buckets are megabytes, read in random order).
inline constexpr std::size_t kPrefetchAhead = 6;

// The same with affine buckets whose additions share one inversion per batch (ec/batch_affine.hpp: 5M + 1S
// per addition instead of 8M + 2S). A point whose bucket already has a sum queued in the batch goes to that
// bucket's XYZZ overflow instead of waiting, so that scalars crowding one bucket cost no more than XYZZ
// buckets; with random digits that is ~batch²/(2·buckets) points per batch (1.6% at c = 16). On the 2-core
// CI machine (bench msm/cpu_window_*, 2^20 points, c = 16) a window takes ~1.45x less time than with XYZZ
// buckets.
template <class C>
void affine_buckets_windows(const Affine<C>* points, const std::uint32_t* index, const std::int32_t* digits,
                            std::size_t count, std::size_t c, std::size_t w,
                            std::vector<XYZZ<C>>& window_sums) {
  const std::size_t n_buckets = std::size_t(1) << (c - 1);
  std::vector<Affine<C>> buckets(n_buckets);
  std::vector<XYZZ<C>> overflow(n_buckets);
  std::vector<std::uint8_t> busy(n_buckets);
  ec::BatchAffineAdder<C> adder(std::clamp<std::size_t>(n_buckets / 32, 16, 1024));
  auto flush = [&] {
    for (std::size_t k = 0; k < adder.queued(); ++k) busy[adder.destinations()[k] - buckets.data()] = 0;
    adder.flush();
  };
  for (std::size_t win = 0; win < w; ++win) {
    std::fill(buckets.begin(), buckets.end(), Affine<C>::infinity());
    std::fill(overflow.begin(), overflow.end(), XYZZ<C>::infinity());
    bool any = false;
    for (std::size_t i = 0; i < count; ++i) {
      if (i + kPrefetchAhead < count) {
        const std::int32_t ahead = digits[(i + kPrefetchAhead) * w + win];
        if (ahead != 0) {
          __builtin_prefetch(&buckets[static_cast<std::size_t>(ahead > 0 ? ahead : -ahead) - 1]);
          __builtin_prefetch(&points[index ? index[i + kPrefetchAhead] : i + kPrefetchAhead]);
        }
      }
      const std::int32_t d = digits[i * w + win];
      if (d == 0) continue;
      const std::size_t b = static_cast<std::size_t>(d > 0 ? d : -d) - 1;
      const Affine<C>& p = points[index ? index[i] : i];
      const Affine<C> q = d > 0 ? p : -p;
      any = true;
      if (busy[b]) {
        overflow[b] = overflow[b].add_affine(q);
      } else if (adder.add(&buckets[b], q)) {
        busy[b] = 1;
        if (adder.full()) flush();
      }
    }
    flush();
    if (!any) continue;
    // Σ_b (b+1)·(bucket[b] + overflow[b]) by the running sum.
    XYZZ<C> running = XYZZ<C>::infinity(), total = XYZZ<C>::infinity();
    for (std::size_t b = n_buckets; b-- > 0;) {
      running = running.add_affine(buckets[b]);
      if (!overflow[b].is_infinity()) running += overflow[b];
      total += running;
    }
    window_sums[win] = total;
  }
}

// Batched affine buckets pay from this window size (2^(c-1) buckets) up; below it the batches would be
// too small to spread their inversion.
inline constexpr std::size_t kAffineBucketsFromWindow = 10;

// Per-window sums Σ_{i in chunk} d_{i,win}·P_i for one chunk of points.
template <class C, std::size_t N>
void chunk_windows(const Affine<C>* points, const ff::BigInt<N>* scalars, const std::uint32_t* index,
                   std::size_t count, std::size_t c, std::size_t w, std::vector<XYZZ<C>>& window_sums) {
  std::vector<std::int32_t> digits(count * w);
  for (std::size_t i = 0; i < count; ++i) signed_digits(scalars[index ? index[i] : i], c, w, &digits[i * w]);
  window_sums.assign(w, XYZZ<C>::infinity());
  if (c >= kAffineBucketsFromWindow)
    affine_buckets_windows<C>(points, index, digits.data(), count, c, w, window_sums);
  else
    xyzz_buckets_windows<C>(points, index, digits.data(), count, c, w, window_sums);
}

}  // namespace detail

// Σ scalars[i]·points[i] (scalars as plain integers, any value < 2^(64N)), optionally over a subset
// given by `index` (then `n` counts the indices).
template <class C, std::size_t N>
Jacobian<C> pippenger(const Affine<C>* points, const ff::BigInt<N>* scalars, std::size_t n,
                      const std::uint32_t* index = nullptr) {
  if (n == 0) return Jacobian<C>::infinity();
  std::size_t bits = 0;
  for (std::size_t i = 0; i < n; ++i) bits = std::max(bits, scalars[index ? index[i] : i].num_bits());
  if (bits == 0) return Jacobian<C>::infinity();

  const std::size_t threads = std::max<std::size_t>(1, tbb::this_task_arena::max_concurrency());
  // One chunk per thread: more chunks repeat the bucket reduction per chunk, and measured 5% slower on
  // whole proofs (Prove/BN254/16 and /18, 2 threads) with two per thread.
  const std::size_t chunks = std::max<std::size_t>(1, std::min(n / 64 + 1, threads));
  const std::size_t per_chunk = (n + chunks - 1) / chunks;
  const std::size_t c = choose_window(per_chunk);
  const std::size_t w = window_count(bits, c);

  std::vector<std::vector<XYZZ<C>>> partial(chunks);
  tbb::parallel_for(std::size_t(0), chunks, [&](std::size_t k) {
    std::size_t begin = k * per_chunk, end = std::min(n, begin + per_chunk);
    if (begin >= end) {
      partial[k].assign(w, XYZZ<C>::infinity());
      return;
    }
    detail::chunk_windows<C, N>(points + (index ? 0 : begin), scalars + (index ? 0 : begin),
                                index ? index + begin : nullptr, end - begin, c, w, partial[k]);
  });

  // Horner over windows, top first: acc = acc·2^c + W_win.
  Jacobian<C> acc = Jacobian<C>::infinity();
  for (std::size_t win = w; win-- > 0;) {
    for (std::size_t i = 0; i < c; ++i) acc = acc.dbl();
    XYZZ<C> sum = XYZZ<C>::infinity();
    for (std::size_t k = 0; k < chunks; ++k) sum += partial[k][win];
    acc += sum.to_jacobian();
  }
  return acc;
}

// Σ points[i] over the given indices (all points when index is null): the "batch add" of the split MSM.
template <class C>
Jacobian<C> batch_add(const Affine<C>* points, std::size_t n, const std::uint32_t* index = nullptr) {
  XYZZ<C> sum = tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, n, 4096), XYZZ<C>::infinity(),
      [&](const auto& range, XYZZ<C> acc) {
        for (std::size_t i = range.begin(); i != range.end(); ++i)
          acc = acc.add_affine(points[index ? index[i] : i]);
        return acc;
      },
      [](const XYZZ<C>& a, const XYZZ<C>& b) { return a + b; });
  return sum.to_jacobian();
}

// Statistics of one split MSM, for the stage timings.
struct SplitStats {
  std::size_t zeros = 0, ones = 0, others = 0;
  double batch_add_ms = 0, tail_ms = 0;  // the two halves' wall time
};

// Σ k_i·P_i with scalars split by value: 0 skipped, 1 batch-added, the rest by Pippenger.
template <class C, std::size_t N>
Jacobian<C> split_msm(const Affine<C>* points, const ff::BigInt<N>* scalars, std::size_t n,
                      SplitStats* stats = nullptr) {
  std::vector<std::uint32_t> ones, others;
  const auto one = ff::bigint_from_u64<N>(1);
  for (std::size_t i = 0; i < n; ++i) {
    if (scalars[i].is_zero()) continue;
    if (scalars[i] == one)
      ones.push_back(static_cast<std::uint32_t>(i));
    else
      others.push_back(static_cast<std::uint32_t>(i));
  }
  const auto t0 = std::chrono::steady_clock::now();
  Jacobian<C> a = batch_add<C>(points, ones.size(), ones.data());
  const auto t1 = std::chrono::steady_clock::now();
  Jacobian<C> b = pippenger<C, N>(points, scalars, others.size(), others.data());
  const auto t2 = std::chrono::steady_clock::now();
  if (stats)
    *stats = {n - ones.size() - others.size(), ones.size(), others.size(),
              std::chrono::duration<double, std::milli>(t1 - t0).count(),
              std::chrono::duration<double, std::milli>(t2 - t1).count()};
  return a + b;
}

}  // namespace cuzk::msm
