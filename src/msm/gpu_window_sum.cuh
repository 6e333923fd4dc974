// The GPU MSM's last step: every window's Σ_b (b+1)·B_b over its buckets, by a multi-level segmented running
// sum (msm/gpu_impl.cuh includes it).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

#include "cuda/device_buffer.hpp"
#include "cuda/error.hpp"
#include "msm/gpu_launch.cuh"

namespace cuzk::msm::gpu {
namespace {

// Window reduction. A window's sum is Σ_b (b+1)·B_b over its buckets B_0..B_{m-1} (bucket b holds
// the points whose digit magnitude is b + 1). For `groups` arrays of m entries laid end to end, define
// WS(X) = Σ_i (i+1)·X_i and SUM(X) = Σ_i X_i. Cutting X into segments of L entries with sums S_s and
// local weighted sums W_s = Σ_j (j+1)·X_{sL+j}:
//   WS(X) = SUM(W) + L·(WS(S) − SUM(S)),   SUM(X) = SUM(S),
// and S, W (2·groups arrays of m/L entries) are the same problem, L times smaller. Every level is one
// parallel kernel over all segments, instead of one thread walking a whole window.
constexpr std::size_t kReduceSeg = 32;

// Per segment of `len` entries: sum[g] = Σ_j X_j, weighted[g] = Σ_j (j+1)·X_j (one running-sum pass).
template <class C>
__global__ void segment_kernel(const Xyzz<C>* x, std::size_t len, std::size_t segments, Xyzz<C>* sum,
                               Xyzz<C>* weighted) {
  const std::size_t g = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (g >= segments) return;
  const Xyzz<C>* b = x + g * len;
  Xyzz<C> running = Xyzz<C>::infinity(), total = Xyzz<C>::infinity();
  for (std::size_t i = len; i-- > 0;) {
    running += b[i];
    total += running;
  }
  sum[g] = running;
  weighted[g] = total;
}

// ws = SUM(W) + L·(WS(S) − SUM(S)), sum = SUM(S), from the level below, whose groups [0, g) are the
// S arrays and [g, 2g) the W arrays.
template <class C>
__global__ void combine_kernel(const Xyzz<C>* low_ws, const Xyzz<C>* low_sum, std::size_t groups,
                               unsigned log_len, Xyzz<C>* ws, Xyzz<C>* sum) {
  const std::size_t g = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (g >= groups) return;
  Xyzz<C> d = low_ws[g] + (-low_sum[g]);
  for (unsigned i = 0; i < log_len; ++i) d = d.dbl();
  ws[g] = low_sum[groups + g] + d;
  sum[g] = low_sum[g];
}

// m must be a power of two.
// The device bytes weighted_sums(·, m, groups, …) allocates (its lower levels' arrays, all held at once).
template <class C>
std::size_t weighted_sums_scratch(std::size_t m, std::size_t groups) {
  if (m <= kReduceSeg) return 0;
  const std::size_t segs = m / kReduceSeg;
  return (2 * groups * segs + 4 * groups) * sizeof(Xyzz<C>) + weighted_sums_scratch<C>(segs, 2 * groups);
}

template <class C>
void weighted_sums(const Xyzz<C>* x, std::size_t m, std::size_t groups, Xyzz<C>* ws, Xyzz<C>* sum,
                   cudaStream_t stream) {
  if (m <= kReduceSeg) {  // one thread per group
    segment_kernel<C><<<blocks_for(groups), kThreads, 0, stream>>>(x, m, groups, sum, ws);
    cuda::check_last_launch("msm segment_kernel");
    return;
  }
  const std::size_t segs = m / kReduceSeg, low_n = 2 * groups * segs;
  cuda::DeviceBuffer<Xyzz<C>> low(low_n, stream);  // S arrays, then W arrays
  segment_kernel<C><<<blocks_for(groups * segs), kThreads, 0, stream>>>(x, kReduceSeg, groups * segs,
                                                                        low.data(), low.data() + low_n / 2);
  cuda::check_last_launch("msm segment_kernel");
  cuda::DeviceBuffer<Xyzz<C>> low_ws(2 * groups, stream), low_sum(2 * groups, stream);
  weighted_sums<C>(low.data(), segs, 2 * groups, low_ws.data(), low_sum.data(), stream);
  unsigned log_len = 0;
  while ((std::size_t(1) << log_len) < kReduceSeg) ++log_len;
  combine_kernel<C>
      <<<blocks_for(groups), kThreads, 0, stream>>>(low_ws.data(), low_sum.data(), groups, log_len, ws, sum);
  cuda::check_last_launch("msm combine_kernel");
}

}  // namespace
}  // namespace cuzk::msm::gpu
