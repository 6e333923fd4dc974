// Kernel and host templates of the GPU MSM (sort, bounds, accumulation, merge, and the driver that runs them
// per pass), instantiated per curve in gpu_<curve>.cu so the two (long) device compilations run in parallel.
// The signed digits are in msm/gpu_digits.cuh, the sizing and point sources in msm/gpu_slices.cuh, the
// window reduction in msm/gpu_window_sum.cuh.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <cub/device/device_radix_sort.cuh>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda/device_buffer.hpp"
#include "cuda/download.hpp"
#include "cuda/error.hpp"
#include "cuda/event.hpp"
#include "cuda/phase_timer.hpp"
#include "cuda/stream.hpp"
#include "cuda/vram.hpp"
#include "msm/digits.hpp"
#include "msm/gpu.hpp"
#include "msm/gpu_digits.cuh"
#include "msm/gpu_launch.cuh"
#include "msm/gpu_lazy_add.cuh"
#include "msm/gpu_slices.cuh"
#include "msm/gpu_window_sum.cuh"

namespace cuzk::msm::gpu {

namespace {

// Where each key's run begins and ends in the sorted keys, kBoundsPerThread consecutive keys per thread
// (one per thread, 6.3 M blocks in a pass of six windows over 2^27 points, ran at a quarter of the memory's
// bandwidth: 3.8 ms a pass).
constexpr unsigned kBoundsPerThread = 8;  // read as two uint4 below

__global__ void bounds_kernel(const std::uint32_t* keys, std::size_t total, std::uint32_t skip,
                              std::uint32_t* start, std::uint32_t* end) {
  const std::size_t p0 = (blockIdx.x * std::size_t(blockDim.x) + threadIdx.x) * kBoundsPerThread;
  if (p0 >= total) return;
  std::uint32_t k[kBoundsPerThread + 1];  // this thread's keys and the one after them
  if (p0 + kBoundsPerThread <= total) {   // keys is 32-byte aligned, and so is every p0
    const uint4* q = reinterpret_cast<const uint4*>(keys + p0);
    const uint4 lo = q[0], hi = q[1];
    k[0] = lo.x, k[1] = lo.y, k[2] = lo.z, k[3] = lo.w, k[4] = hi.x, k[5] = hi.y, k[6] = hi.z, k[7] = hi.w;
  } else {
    for (unsigned j = 0; j < kBoundsPerThread; ++j) k[j] = p0 + j < total ? keys[p0 + j] : skip;
  }
  k[kBoundsPerThread] = p0 + kBoundsPerThread < total ? keys[p0 + kBoundsPerThread] : skip;
  std::uint32_t prev = p0 == 0 ? skip : keys[p0 - 1];  // skip: no key's run continues into the first
#pragma unroll
  for (unsigned j = 0; j < kBoundsPerThread; ++j) {
    const std::uint32_t key = k[j];
    if (key >= skip) return;  // zero digits sort last
    if (key != prev) start[key] = static_cast<std::uint32_t>(p0 + j);
    if (key != k[j + 1]) end[key] = static_cast<std::uint32_t>(p0 + j + 1);
    prev = key;
  }
}

// Bucket accumulation over fixed segments of 2^log_seg sorted entries, so a crowded bucket is shared by many
// threads. A run of one bucket that lies inside the segment is stored to partial[bucket] (no other
// thread touches that bucket this slice); a run that continues from the previous segment goes to
// head[t], one that continues into the next goes to tail[t]; join_pieces_kernel adds the pieces up into
// the bucket's sum. Only stores happen here: an addition into the bucket at a run's end would be taken by one
// thread at a time while the rest of its warp waits.
//
// The segment size: every segment a bucket's run crosses costs the merge one addition, and
// longer segments leave the accumulation a longer tail of unevenly finished threads. On the H200 (bench/
// RESULTS.md), 256-entry segments made a 2^27 BLS12-381 G1 MSM 4 % faster than 64-entry ones (merge 102 →
// 29 ms, accumulation +19 ms), 128 were best or level below 2^25 points; CUZK_MSM_LOG_SEG (6..12)
// overrides the choice for experiments without a rebuild.
inline unsigned log_seg_for(std::size_t slice_points) {
  static const int from_env = [] {
    const char* v = std::getenv("CUZK_MSM_LOG_SEG");
    return v && *v ? std::clamp(std::atoi(v), 6, 12) : 0;
  }();
  if (from_env) return static_cast<unsigned>(from_env);
  return slice_points >= (std::size_t(1) << 25) ? 8 : 7;
}

// Segments of 2^log_seg entries that `entries` sorted entries fill (the last one partly).
inline std::size_t segments_of(std::size_t entries, unsigned log_seg) {
  return (entries + (std::size_t(1) << log_seg) - 1) >> log_seg;
}

// Blocks of kThreads that must fit on an SM at once: the G1 accumulation is latency-bound (FP64 and
// integer multiply chains), so it needs the warps; G2's buckets need the registers.
template <class C>
inline constexpr unsigned kAccumulateMinBlocks = sizeof(ec::Affine<C>) <= 96 ? 3 : 1;

// The accumulation (see above). `map` (null: none) takes an entry's point index to the point set's own
// (kNoPoint: the set has no point there, and the entry adds nothing): several point sets accumulate over
// one sort of the same scalars. Form: the mixed addition's arithmetic (msm/gpu_lazy_add.cuh).
template <class C, AddForm Form>
__global__ void __launch_bounds__(kThreads, kAccumulateMinBlocks<C>)
    accumulate_kernel(const ec::Affine<C>* points, std::size_t point_offset, const std::uint32_t* map,
                      const std::uint32_t* keys, const std::uint32_t* vals, std::size_t total,
                      std::uint32_t skip, unsigned log_seg, Xyzz<C>* partial, Xyzz<C>* head, Xyzz<C>* tail) {
  const std::size_t t = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  const std::size_t begin = t << log_seg, seg = std::size_t(1) << log_seg;
  if (begin >= total) return;
  const std::size_t end = begin + seg < total ? begin + seg : total;
  // Where a finished run of `key` goes: see above.
  auto flush = [&](std::uint32_t key, std::size_t run_begin, std::size_t run_end, const Xyzz<C>& acc) {
    if (run_begin == begin && begin > 0 && keys[begin - 1] == key)
      head[t] = acc;
    else if (run_end == end && end < total && keys[end] == key)
      tail[t] = acc;
    else
      partial[key] = acc;  // the bucket's whole run in this slice: a store, never a divergent addition
  };
  // One flat loop over the segment (not a loop per run): the warp stays converged on the point
  // addition, and only the rare run change diverges.
  std::uint32_t cur = keys[begin];
  if (cur >= skip) return;  // zero digits sort last
  std::size_t run_begin = begin;
  using Acc = Bucket<C, Form>;
  Acc acc = Acc::infinity();
  for (std::size_t p = begin; p < end; ++p) {
    const std::uint32_t key = keys[p];
    if (key != cur) {
      flush(cur, run_begin, p, acc.to_xyzz());
      if (key >= skip) return;
      cur = key;
      run_begin = p;
      acc = Acc::infinity();
    }
    const std::uint32_t v = vals[p];
    std::uint32_t i = v & ~kSignBit;
    if (map) {
      i = map[i];
      if (i == kNoPoint) continue;
    }
    ec::Affine<C> pt = points[i - point_offset];
    if (v & kSignBit) pt = -pt;
    acc = acc.add_affine(pt);
  }
  flush(cur, run_begin, end, acc.to_xyzz());
}

// Launches the accumulation in `form` (the field type's for groups without other forms).
template <class C>
void launch_accumulate(AddForm form, unsigned blocks, cudaStream_t stream, const ec::Affine<C>* points,
                       std::size_t point_offset, const std::uint32_t* map, const std::uint32_t* keys,
                       const std::uint32_t* vals, std::size_t total, std::uint32_t skip, unsigned log_seg,
                       Xyzz<C>* partial, Xyzz<C>* head, Xyzz<C>* tail) {
  auto launch = [&]<AddForm F>() {
    accumulate_kernel<C, F><<<blocks, kThreads, 0, stream>>>(points, point_offset, map, keys, vals, total,
                                                             skip, log_seg, partial, head, tail);
  };
  if constexpr (kHasAddForms<C>) {
    switch (form) {
      case AddForm::kLazy:
        return launch.template operator()<AddForm::kLazy>();
      case AddForm::kFp64Lazy:
        return launch.template operator()<AddForm::kFp64Lazy>();
      case AddForm::kInt:
        return launch.template operator()<AddForm::kInt>();
      case AddForm::kIntLazy:
        return launch.template operator()<AddForm::kIntLazy>();
      case AddForm::kField:
        break;
    }
  }
  launch.template operator()<AddForm::kField>();
}

// A bucket whose run covers many segments (skewed scalars: a PoRep witness has a million values r − k that
// share every upper digit, so one bucket per window gets them all) has many heads to add. Summing them in
// merge_kernel's one thread took 215 ms of a 254 ms MSM; instead the heads of a run longer than kFoldRadix
// segments are folded kFoldRadix at a time, one kernel per level (stride 1, R, R², …), until head[t0 + 1]
// holds the sum of the bucket's heads t0+1..t1. Runs of at most kFoldRadix heads (every run of uniform
// scalars: 2^27 entries over 13·2^19 buckets average 4 segments) stay with join_pieces_kernel, one thread
// per such bucket: folding them too, with one thread of a bucket's segments at work, cost 30 ms of a 2^24
// MSM.
// The number of levels follows from the slice's segment count, which the host knows, so no
// level waits for a value computed on the device: a slice is enqueued without any synchronisation, and
// the host runs ahead into the next slice (and, streamed, the next upload) while this one computes.
constexpr std::size_t kFoldRadix = 32;

template <class C>
__global__ void fold_heads_kernel(const std::uint32_t* keys, std::size_t total, std::uint32_t skip,
                                  const std::uint32_t* start, const std::uint32_t* end, unsigned log_seg,
                                  std::size_t stride, Xyzz<C>* head) {
  const std::size_t t = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if ((t << log_seg) >= total) return;
  const std::uint32_t key = keys[t << log_seg];
  if (key >= skip) return;
  const std::size_t t0 = start[key] >> log_seg, t1 = (end[key] - 1) >> log_seg;
  if (t <= t0) return;  // not a head: the segment where the run begins
  const std::size_t j = t - (t0 + 1), heads = t1 - t0;
  if (heads <= kFoldRadix || heads <= stride || j % (kFoldRadix * stride) != 0) return;
  Xyzz<C> acc = head[t];
  for (std::size_t k = stride; k < kFoldRadix * stride && j + k < heads; k += stride) acc += head[t + k];
  head[t] = acc;
}

// The sum of a bucket whose run crosses segment boundaries: the tail of the run's first segment t0 plus
// the heads of the segments after it (added here when there are at most kFoldRadix, else folded into the
// first head above), stored to out[key]. One thread per segment, and only the thread of the bucket's first
// head (segment t0 + 1) works: the additions fill whole warps. With a thread per bucket (at c = 22 over
// 2^27 points 3 of 4 buckets lie inside one segment, and those threads had nothing to add), a warp took
// as long as its busiest lane: the merge took 35 ms of a 2^27 BLS12-381 G1 MSM.
template <class C>
__global__ void __launch_bounds__(kThreads, kAccumulateMinBlocks<C>)
    join_pieces_kernel(const std::uint32_t* keys, std::size_t total, std::uint32_t skip,
                       const std::uint32_t* start, const std::uint32_t* end, unsigned log_seg,
                       const Xyzz<C>* head, const Xyzz<C>* tail, Xyzz<C>* out) {
  const std::size_t t = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (t == 0 || (t << log_seg) >= total) return;
  const std::uint32_t key = keys[t << log_seg];
  if (key >= skip) return;
  const std::size_t t0 = start[key] >> log_seg;
  if (t != t0 + 1) return;  // the run begins in this segment, or this is a later head of it
  const std::size_t t1 = (end[key] - 1) >> log_seg;
  Xyzz<C> acc = tail[t0] + head[t];
  if (t1 - t0 <= kFoldRadix)
    for (std::size_t u = t + 1; u <= t1; ++u) acc += head[u];
  out[key] = acc;
}

// Per bucket of the pass, this slice's sum into the bucket: partial[b] (a run inside one segment, stored
// by accumulate_kernel, or the joined pieces above), stored by the first slice and added by later ones;
// infinity on the first slice for a bucket with no entry. In place (one slice, whose partial sums are the
// buckets) only the empty buckets are written.
template <class C>
__global__ void merge_kernel(const std::uint32_t* start, const std::uint32_t* end, std::size_t buckets_n,
                             const Xyzz<C>* partial, bool first_slice, bool in_place, Xyzz<C>* buckets) {
  const std::size_t b = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (b >= buckets_n) return;
  if (start[b] == end[b]) {
    if (first_slice) buckets[b] = Xyzz<C>::infinity();
    return;
  }
  if (in_place) return;
  buckets[b] = first_slice ? partial[b] : buckets[b] + partial[b];
}

// Batch addition: each thread sums a strided subset; partials reduced by fold_kernel.
// Point i is read at points[i - point_offset] (a streamed slice holds the points from point_offset on).
template <class C>
__global__ void batch_add_kernel(const ec::Affine<C>* points, const std::uint32_t* index, std::size_t n,
                                 Xyzz<C>* partial, std::size_t point_offset = 0) {
  std::size_t tid = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  Xyzz<C> acc = Xyzz<C>::infinity();
  for (std::size_t k = tid; k < n; k += stride)
    acc = acc.add_affine(points[(index ? index[k] : k) - point_offset]);
  partial[tid] = acc;
}

// out[b] = the number of entries of the ascending list index[0, n) below b·step (b = 0..bounds-1): where
// each point slice's entries begin.
__global__ void slice_bounds_kernel(const std::uint32_t* index, std::size_t n, std::size_t step,
                                    std::size_t bounds, std::uint64_t* out) {
  const std::size_t b = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (b >= bounds) return;
  const std::size_t limit = b * step;
  std::size_t lo = 0, hi = n;
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo) / 2;
    if (index[mid] < limit)
      lo = mid + 1;
    else
      hi = mid;
  }
  out[b] = lo;
}

// out[i] = Σ_{j<f} in[i·f + j] (bounded by n)
template <class C>
__global__ void fold_kernel(const Xyzz<C>* in, std::size_t n, std::size_t f, Xyzz<C>* out, std::size_t m) {
  std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (i >= m) return;
  Xyzz<C> acc = Xyzz<C>::infinity();
  for (std::size_t j = i * f; j < std::min(n, (i + 1) * f); ++j) acc += in[j];
  out[i] = acc;
}

template <class C>
ec::Jacobian<C> sum_on_host(const cuda::DeviceBuffer<Xyzz<C>>& d, std::size_t n, cudaStream_t stream) {
  std::vector<Xyzz<C>> h(n);
  cuda::download_and_wait(d, h.data(), n, stream);
  Xyzz<C> acc = Xyzz<C>::infinity();
  for (const auto& x : h) acc += x;
  return acc.to_jacobian();
}

}  // namespace

template <class C>
ec::Jacobian<C> batch_add(const ec::Affine<C>* d_points, std::size_t n, cudaStream_t stream,
                          const std::uint32_t* d_index) {
  if (n == 0) return ec::Jacobian<C>::infinity();
  int sms = 0, dev = 0;
  CUZK_CUDA_CHECK(cudaGetDevice(&dev));
  CUZK_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  const std::size_t threads = std::min<std::size_t>(std::size_t(sms) * 4 * kThreads, (n + 15) / 16 * 1);
  const std::size_t blocks = std::max<std::size_t>(1, (threads + kThreads - 1) / kThreads);
  const std::size_t total = blocks * kThreads;
  cuda::DeviceBuffer<Xyzz<C>> partial(total, stream), folded((total + 63) / 64, stream);
  batch_add_kernel<C>
      <<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(d_points, d_index, n, partial.data());
  cuda::check_last_launch("msm batch_add_kernel");
  const std::size_t m = (total + 63) / 64;
  fold_kernel<C><<<blocks_for(m), kThreads, 0, stream>>>(partial.data(), total, 64, folded.data(), m);
  cuda::check_last_launch("msm fold_kernel");
  return sum_on_host<C>(folded, m, stream);
}

// The Pippenger sum over `slices` (their entries, of `d_index` when given, in order); opt.window_bits set.
// `on_slice(slice, base, offset, stream)` runs once per slice while its points are available (point i at
// base[i - offset]): the streamed split MSM batch-adds the slice's ones there, so the points go up once.
// Each slice is sorted and accumulated `group_windows` windows at a time (0: all of them).
//
// `more` (resident only): further point sets summed over the same scalars and the same sort, each into
// buckets of its own; their sums follow the first one's in the result.
// `windows_outer` (several slices and groups): each group of windows runs over every slice before the next
// group starts, holding only its own buckets (a streamed MSM's passes: streamed_passes).
template <class C, std::size_t N, class Points, class OnSlice = NoSliceWork>
std::vector<ec::Jacobian<C>> pippenger_impl(Points&& points, const ff::BigInt<N>* d_scalars,
                                            const std::vector<Slice>& slices, cudaStream_t stream,
                                            const std::uint32_t* d_index, Options opt,
                                            OnSlice&& on_slice = {}, std::size_t group_windows = 0,
                                            std::span<const PointSet<C>> more = {},
                                            bool windows_outer = false) {
  std::size_t n = 0, chunk = 0;  // all entries, and the most in one slice
  for (const auto& sl : slices) n += sl.entry_count, chunk = std::max(chunk, sl.entry_count);
  const std::size_t bits = C::Scalar::bits();
  const std::size_t c = opt.window_bits;
  const std::size_t w = window_count(bits, c);
  const std::size_t half = std::size_t(1) << (c - 1);
  const std::size_t nb = w * half;
  // Bits of every window's keys (and the sentinel) at once: the sort's work space is sized for them.
  const int key_bits = std::max(1, static_cast<int>(std::bit_width(nb)));

  const AddForm add_form = add_form_from_env<C>();
  cuda::PhaseTimer trace("CUZK_MSM_TRACE", stream);
  // opt.after_uploads fires once the last slice's upload is queued, but never before opt.after_allocation
  // (with one slice that upload is queued first), so that a caller may size what it starts by the room left.
  std::optional<cudaEvent_t> last_upload;
  bool allocated = false, uploads_told = false;
  auto tell_uploads = [&] {
    if (!allocated || !last_upload || uploads_told) return;
    uploads_told = true;
    if (opt.after_uploads) opt.after_uploads(*last_upload);
  };
  auto prefetch = [&](std::size_t s) {
    if (s >= slices.size()) return;
    points.prefetch(s, slices[s].point_begin, slices[s].point_count);
    if (s + 1 == slices.size()) last_upload = points.upload_event(s), tell_uploads();
  };
  auto tell_allocated = [&](std::size_t later_bytes) {
    if (opt.after_allocation) opt.after_allocation(later_bytes);
    allocated = true;
    tell_uploads();
  };
  // A slice with none of the entries: only its own work, while the next slice's points go up.
  auto slice_work_only = [&](std::size_t s) {
    prefetch(s + 1);
    const auto [base, offset] = points.acquire(s, slices[s].point_begin, stream);
    on_slice(s, base, offset, stream);
    points.release(s, stream);
  };
  const std::size_t sets = 1 + more.size();
  const std::size_t slice_count = slices.size();
  if (chunk == 0) {  // no entries at all (a streamed split MSM of ones alone): no buckets to sum
    prefetch(0);
    tell_allocated(0);
    for (std::size_t s = 0; s < slice_count; ++s) slice_work_only(s);
    return std::vector<ec::Jacobian<C>>(sets, ec::Jacobian<C>::infinity());
  }
  // A pass sorts and accumulates one slice's digits of `group` windows at a time (window-major keys, so a
  // group's buckets are contiguous).
  const std::size_t group = group_windows ? std::min(group_windows, w) : w;
  // Window-major over several slices (windows_outer): each group of windows runs over every slice before the
  // next group, so the slices' points are read (streamed: uploaded) once per group, and only the group's
  // buckets are held. Step q is group q / slice_count over slice q % slice_count.
  const std::size_t groups = (w + group - 1) / group;
  const bool outer = windows_outer && groups > 1 && slice_count > 1;
  const std::size_t steps = outer ? groups * slice_count : slice_count;
  // One slice stores each bucket once, so its sums go straight into the buckets: merge_kernel reads and
  // writes bucket b in one thread. And each pass then finishes its windows: their weighted sums are taken
  // right after it, and the next pass reuses the buckets, so only one pass's windows' buckets are held
  // (0.8 GB at c = 22 in passes of two windows over 2^27 points, where all twelve took 4.8). Several slices
  // add into the buckets of every window, and need a slice's partial sums beside them (bucket_bytes); with
  // the windows outer, of the group's windows only.
  const bool in_place = slice_count == 1;
  const std::size_t held = in_place || outer ? group * half : nb;
  std::vector<cuda::DeviceBuffer<Xyzz<C>>> buckets;
  for (std::size_t j = 0; j < sets; ++j) buckets.emplace_back(held, stream);
  cuda::DeviceBuffer<Xyzz<C>> partial_sums(in_place ? 0 : held, stream);
  cuda::DeviceBuffer<Xyzz<C>> ws(sets * w, stream), sum(w, stream);  // per set and window: Σ_b (b+1)·B_b

  const unsigned log_seg = log_seg_for(chunk);
  const std::size_t pairs = chunk * group;
  cuda::DeviceBuffer<std::uint32_t> keys(pairs, stream), vals(pairs, stream), keys_alt(pairs, stream),
      vals_alt(pairs, stream);
  cuda::DeviceBuffer<std::uint32_t> start(held, stream), end(held, stream);
  const std::size_t segments = segments_of(pairs, log_seg);
  cuda::DeviceBuffer<Xyzz<C>> head(segments, stream), tail(segments, stream);
  // The sort ping-pongs between the two pairs of arrays (CUB's DoubleBuffer form): its work space is then
  // only its histograms, where the form with separate output arrays takes another copy of the keys and
  // values (8 bytes per entry and window: 6.4 GB in a pass of six windows over 2^27 points).
  std::size_t temp_bytes = 0;
  {
    cub::DoubleBuffer<std::uint32_t> k(keys.data(), keys_alt.data()), v(vals.data(), vals_alt.data());
    CUZK_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, k, v, pairs, 0, key_bits, stream));
  }
  cuda::DeviceBuffer<unsigned char> temp(std::max<std::size_t>(temp_bytes, 1), stream);
  trace.mark("setup");

  // Steps are uploaded and acquired by their number (StreamedPoints' two buffers alternate by it); with the
  // windows outer a slice's points go up once per group.
  auto prefetch_step = [&](std::size_t q) {
    if (q >= steps) return;
    const Slice& sl = slices[q % slice_count];
    points.prefetch(q, sl.point_begin, sl.point_count);
    if (q + 1 == steps) last_upload = points.upload_event(q), tell_uploads();
  };
  prefetch_step(0);
  tell_allocated(weighted_sums_scratch<C>(half, in_place || outer ? group : w));
  bool first = true;  // no slice merged into the (group's) buckets yet
  for (std::size_t q = 0; q < steps; ++q) {
    const std::size_t slice = q % slice_count;
    const std::size_t g0 = outer ? (q / slice_count) * group : 0, g1 = outer ? std::min(w, g0 + group) : w;
    if (outer && slice == 0) first = true;  // a new group of windows: its buckets start over
    const bool slice_first_time = q < slice_count;
    const Slice& sl = slices[slice];
    const std::size_t begin = sl.entry_begin, count = sl.entry_count;
    prefetch_step(q + 1);
    const auto [slice_points, offset] = points.acquire(q, sl.point_begin, stream);
    for (std::size_t w0 = g0; w0 < g1 && count > 0; w0 += group) {
      const std::size_t g = std::min(group, w - w0), total = count * g;
      // Keys count from window w0 (see digits_kernel): the pass's buckets and bounds begin at kb (at 0 where
      // only the pass's windows are held).
      const std::size_t kb = in_place || outer ? 0 : w0 * half;
      const std::uint32_t pass_skip = static_cast<std::uint32_t>(g * half);
      const int pass_key_bits = std::max(1, static_cast<int>(std::bit_width(pass_skip)));
      digits_kernel<N><<<blocks_for(count), kThreads, 0, stream>>>(
          d_scalars, d_index, begin, count, static_cast<unsigned>(c), static_cast<unsigned>(w0),
          static_cast<unsigned>(w0 + g), scalar_fold<C, N>(), keys.data(), vals.data());
      cuda::check_last_launch("msm digits_kernel");
      trace.mark("digits");
      std::size_t bytes = temp_bytes;
      cub::DoubleBuffer<std::uint32_t> key_buf(keys.data(), keys_alt.data()),
          val_buf(vals.data(), vals_alt.data());
      CUZK_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(temp.data(), bytes, key_buf, val_buf, total, 0,
                                                      pass_key_bits, stream));
      const std::uint32_t* sorted_keys = key_buf.Current();  // either pair, by the radix passes' count
      const std::uint32_t* sorted_vals = val_buf.Current();
      trace.mark("sort");
      // Only the pass's buckets: bounds, fold_heads and merge read no others (twelve one-window passes
      // cleared all 2·12·2^21 bounds each time).
      CUZK_CUDA_CHECK(cudaMemsetAsync(start.data() + kb, 0, g * half * sizeof(std::uint32_t), stream));
      CUZK_CUDA_CHECK(cudaMemsetAsync(end.data() + kb, 0, g * half * sizeof(std::uint32_t), stream));
      bounds_kernel<<<blocks_for((total + kBoundsPerThread - 1) / kBoundsPerThread), kThreads, 0, stream>>>(
          sorted_keys, total, pass_skip, start.data() + kb, end.data() + kb);
      cuda::check_last_launch("msm bounds_kernel");
      trace.mark("bounds");
      const std::size_t pass_segments = segments_of(total, log_seg);
      for (std::size_t j = 0; j < sets; ++j) {
        const ec::Affine<C>* base = j == 0 ? slice_points : more[j - 1].points;
        Xyzz<C>* partial = in_place ? buckets[j].data() : partial_sums.data();
        launch_accumulate<C>(add_form, blocks_for(pass_segments), stream, base, j == 0 ? offset : 0,
                             j == 0 ? nullptr : more[j - 1].map, sorted_keys, sorted_vals, total, pass_skip,
                             log_seg, partial + kb, head.data(), tail.data());
        cuda::check_last_launch("msm accumulate_kernel");
        trace.mark("accumulate");
        // A run spans at most all of the pass's segments: segments − 1 heads.
        for (std::size_t stride = 1; stride + 1 < pass_segments; stride *= kFoldRadix) {
          fold_heads_kernel<C><<<blocks_for(pass_segments), kThreads, 0, stream>>>(
              sorted_keys, total, pass_skip, start.data() + kb, end.data() + kb, log_seg, stride,
              head.data());
          cuda::check_last_launch("msm fold_heads_kernel");
        }
        join_pieces_kernel<C><<<blocks_for(pass_segments), kThreads, 0, stream>>>(
            sorted_keys, total, pass_skip, start.data() + kb, end.data() + kb, log_seg, head.data(),
            tail.data(), partial + kb);
        cuda::check_last_launch("msm join_pieces_kernel");
        // The group's buckets only: the first slice stores them, later slices add.
        merge_kernel<C><<<blocks_for(g * half), kThreads, 0, stream>>>(start.data() + kb, end.data() + kb,
                                                                       g * half, partial + kb, first,
                                                                       in_place, buckets[j].data() + kb);
        cuda::check_last_launch("msm merge_kernel");
        trace.mark("merge");
      }
      if (in_place) {
        for (std::size_t j = 0; j < sets; ++j)
          weighted_sums<C>(buckets[j].data(), half, g, ws.data() + j * w + w0, sum.data(), stream);
        trace.mark("reduce");
      }
    }
    if (slice_first_time) on_slice(slice, slice_points, offset, stream);  // once per slice
    points.release(q, stream);
    if (count > 0) first = false;
    // The group's windows are complete after its last slice: their weighted sums now, and the next group
    // reuses the buckets.
    if (outer && slice + 1 == slice_count) {
      for (std::size_t j = 0; j < sets; ++j)
        weighted_sums<C>(buckets[j].data(), half, g1 - g0, ws.data() + j * w + g0, sum.data(), stream);
      trace.mark("reduce");
    }
  }

  if (!in_place && !outer) {
    for (std::size_t j = 0; j < sets; ++j)
      weighted_sums<C>(buckets[j].data(), half, w, ws.data() + j * w, sum.data(), stream);
    trace.mark("reduce");
  }
  std::vector<Xyzz<C>> hw(sets * w);
  cuda::download_and_wait(ws, hw.data(), sets * w, stream);

  std::vector<ec::Jacobian<C>> out;
  for (std::size_t j = 0; j < sets; ++j) {
    ec::Jacobian<C> acc = ec::Jacobian<C>::infinity();
    for (std::size_t win = w; win-- > 0;) {
      for (std::size_t i = 0; i < c; ++i) acc = acc.dbl();
      acc += hw[j * w + win].to_jacobian();
    }
    out.push_back(acc);
  }
  if (trace.enabled()) {
    trace.report("msm n=" + std::to_string(n) + " c=" + std::to_string(c) + " w=" + std::to_string(w) +
                 " slice=" + std::to_string(chunk) + " group=" + std::to_string(group) +
                 " seg=" + std::to_string(std::size_t(1) << log_seg) + " sets=" + std::to_string(sets) +
                 (kHasAddForms<C> ? std::string(" add=") + add_form_name(add_form) : std::string()));
  }
  return out;
}

// The resident Pippenger over `sets` point sets (the first with no map), sized for all of their buckets.
template <class C, std::size_t N>
std::vector<ec::Jacobian<C>> pippenger_resident(std::span<const PointSet<C>> sets,
                                                const ff::BigInt<N>* d_scalars, std::size_t n,
                                                cudaStream_t stream, const std::uint32_t* d_index,
                                                Options opt) {
  const ResidentPlan plan =
      resident_plan<C>(n, sets.size(), cuda::vram_available(), opt.window_bits, opt.max_chunk);
  opt.window_bits = plan.window;
  // Passes over every entry (resident_plan prefers them): each bucket is written by one pass, where every
  // slice of entries added its partial sum into all of the buckets (the merge of a 2^27 MSM in four slices
  // took 138 of its 1,294 ms).
  return pippenger_impl<C, N>(ResidentPoints<C>{sets[0].points}, d_scalars, even_slices(n, plan.chunk),
                              stream, d_index, opt, NoSliceWork{}, plan.group, sets.subspan(1));
}

template <class C, std::size_t N>
ec::Jacobian<C> pippenger(const ec::Affine<C>* d_points, const ff::BigInt<N>* d_scalars, std::size_t n,
                          cudaStream_t stream, const std::uint32_t* d_index, Options opt) {
  if (n == 0) return ec::Jacobian<C>::infinity();
  const PointSet<C> set{d_points, nullptr};
  return pippenger_resident<C, N>(std::span(&set, 1), d_scalars, n, stream, d_index, opt)[0];
}

template <class C, std::size_t N>
std::vector<ec::Jacobian<C>> pippenger_shared(std::span<const PointSet<C>> sets,
                                              const ff::BigInt<N>* d_scalars, std::size_t n,
                                              cudaStream_t stream, const std::uint32_t* d_index,
                                              Options opt) {
  if (sets.empty()) return {};
  if (sets[0].map) throw std::invalid_argument("msm::gpu::pippenger_shared: the first point set has a map");
  if (n == 0) return std::vector<ec::Jacobian<C>>(sets.size(), ec::Jacobian<C>::infinity());
  return pippenger_resident<C, N>(sets, d_scalars, n, stream, d_index, opt);
}

template <class C, std::size_t N>
ec::Jacobian<C> pippenger_streamed(const ec::Affine<C>* h_points, const ff::BigInt<N>* d_scalars,
                                   std::size_t n, cudaStream_t stream, Options opt) {
  if (n == 0) return ec::Jacobian<C>::infinity();
  const std::size_t available = cuda::vram_available();
  const std::size_t passes = streamed_passes();
  const std::size_t c = opt.window_bits ? opt.window_bits : streamed_window<C>(n, n, available, passes);
  const std::size_t chunk =
      opt.max_chunk ? std::min(n, opt.max_chunk) : streamed_chunk<C>(n, c, available, passes);
  opt.window_bits = c;
  StreamedPoints<C> points(h_points, chunk, stream);
  // In passes, each over every slice for its group of windows (the points go up once per pass).
  const std::size_t group = passes > 1 ? windows_per_streamed_pass(C::Scalar::bits(), c, passes) : 0;
  return pippenger_impl<C, N>(points, d_scalars, even_slices(n, chunk), stream, nullptr, opt, NoSliceWork{},
                              group, {}, passes > 1)[0];
}

namespace {

// Where each slice of `step` points begins in the ascending list d_index[0, n): bounds + 1 counts (the last
// is n when the slices cover every listed point). Waits for the stream.
std::vector<std::uint64_t> slice_bounds(const std::uint32_t* d_index, std::size_t n, std::size_t step,
                                        std::size_t slices, cudaStream_t stream) {
  std::vector<std::uint64_t> h(slices + 1, 0);
  if (n == 0) return h;
  cuda::DeviceBuffer<std::uint64_t> d(slices + 1, stream);
  slice_bounds_kernel<<<blocks_for(slices + 1), kThreads, 0, stream>>>(d_index, n, step, slices + 1,
                                                                       d.data());
  cuda::check_last_launch("msm slice_bounds_kernel");
  cuda::download_and_wait(d, h.data(), h.size(), stream);
  h.back() = n;  // every entry is below the last slice's end
  return h;
}

// The streamed split MSM's ones: each slice's are batch-added while its points are on the device, into a
// region of `folded` per slice; summed once at the end.
template <class C>
class SliceOnes {
 public:
  SliceOnes(const std::uint32_t* d_ones, std::vector<std::uint64_t> bounds, cudaStream_t stream)
      : ones_(d_ones), bounds_(std::move(bounds)) {
    std::size_t most = 0;
    for (std::size_t s = 0; s + 1 < bounds_.size(); ++s)
      most = std::max<std::size_t>(most, bounds_[s + 1] - bounds_[s]);
    if (most == 0) return;
    int sms = 0, dev = 0;
    CUZK_CUDA_CHECK(cudaGetDevice(&dev));
    CUZK_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    const std::size_t threads = std::min<std::size_t>(std::size_t(sms) * 4 * kThreads, (most + 15) / 16);
    blocks_ = std::max<std::size_t>(1, (threads + kThreads - 1) / kThreads);
    per_slice_ = (blocks_ * kThreads + 63) / 64;
    partial_ = cuda::DeviceBuffer<Xyzz<C>>(blocks_ * kThreads, stream);
    folded_ = cuda::DeviceBuffer<Xyzz<C>>(per_slice_ * (bounds_.size() - 1), stream);
  }

  void operator()(std::size_t slice, const ec::Affine<C>* base, std::size_t offset, cudaStream_t stream) {
    const std::size_t n = bounds_[slice + 1] - bounds_[slice];
    if (n == 0) return;
    const std::size_t total = blocks_ * kThreads;
    batch_add_kernel<C><<<static_cast<unsigned>(blocks_), kThreads, 0, stream>>>(base, ones_ + bounds_[slice],
                                                                                 n, partial_.data(), offset);
    cuda::check_last_launch("msm batch_add_kernel (streamed)");
    fold_kernel<C><<<blocks_for(per_slice_), kThreads, 0, stream>>>(
        partial_.data(), total, 64, folded_.data() + used_ * per_slice_, per_slice_);
    cuda::check_last_launch("msm fold_kernel (streamed)");
    ++used_;
  }

  ec::Jacobian<C> sum(cudaStream_t stream) const {
    return used_ == 0 ? ec::Jacobian<C>::infinity() : sum_on_host<C>(folded_, used_ * per_slice_, stream);
  }

 private:
  const std::uint32_t* ones_;
  std::vector<std::uint64_t> bounds_;
  std::size_t blocks_ = 0, per_slice_ = 0, used_ = 0;
  cuda::DeviceBuffer<Xyzz<C>> partial_, folded_;
};

}  // namespace

template <class C, std::size_t N>
ec::Jacobian<C> split_streamed(const ec::Affine<C>* h_points, std::size_t n_points,
                               const ff::BigInt<N>* d_scalars, const std::uint32_t* d_ones,
                               std::size_t n_ones, const std::uint32_t* d_others, std::size_t n_others,
                               cudaStream_t stream, Options opt, DeviceHead<C> head) {
  if (n_points == 0 || n_ones + n_others == 0) return ec::Jacobian<C>::infinity();
  const std::size_t available = cuda::vram_available();
  const std::size_t c = opt.window_bits ? opt.window_bits : streamed_window<C>(n_others, n_points, available);
  // Point slices as pippenger_streamed's (each holds at most as many of the others as it has points).
  const std::size_t step =
      opt.max_chunk ? std::min(n_points, opt.max_chunk) : streamed_chunk<C>(n_points, c, available);
  const std::size_t count = (n_points + step - 1) / step;
  const auto others_at = slice_bounds(d_others, n_others, step, count, stream);
  std::vector<Slice> slices;
  for (std::size_t s = 0; s < count; ++s)
    slices.push_back(
        {others_at[s], others_at[s + 1] - others_at[s], s * step, std::min(step, n_points - s * step)});
  SliceOnes<C> ones(d_ones, slice_bounds(d_ones, n_ones, step, count, stream), stream);
  opt.window_bits = c;
  StreamedPoints<C> points(h_points, step, stream, head);
  ec::Jacobian<C> acc = pippenger_impl<C, N>(points, d_scalars, slices, stream, d_others, opt, ones)[0];
  return acc + ones.sum(stream);
}

// Explicit instantiation for one group (used by gpu_<curve>.cu).
#define CUZK_MSM_INSTANTIATE(Cfg)                                                                            \
  template ec::Jacobian<Cfg> pippenger<Cfg, 4>(const ec::Affine<Cfg>*, const ff::BigInt<4>*, std::size_t,    \
                                               cudaStream_t, const std::uint32_t*, Options);                 \
  template std::vector<ec::Jacobian<Cfg>> pippenger_shared<Cfg, 4>(                                          \
      std::span<const PointSet<Cfg>>, const ff::BigInt<4>*, std::size_t, cudaStream_t, const std::uint32_t*, \
      Options);                                                                                              \
  template ec::Jacobian<Cfg> pippenger_streamed<Cfg, 4>(const ec::Affine<Cfg>*, const ff::BigInt<4>*,        \
                                                        std::size_t, cudaStream_t, Options);                 \
  template ec::Jacobian<Cfg> batch_add<Cfg>(const ec::Affine<Cfg>*, std::size_t, cudaStream_t,               \
                                            const std::uint32_t*);                                           \
  template ec::Jacobian<Cfg> split_streamed<Cfg, 4>(                                                         \
      const ec::Affine<Cfg>*, std::size_t, const ff::BigInt<4>*, const std::uint32_t*, std::size_t,          \
      const std::uint32_t*, std::size_t, cudaStream_t, Options, DeviceHead<Cfg>);

}  // namespace cuzk::msm::gpu
