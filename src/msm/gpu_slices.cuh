// How a GPU MSM is sized and fed: the window, the device bytes of its buckets, the slices of entries a pass
// sorts at once, and where a slice's points come from (resident, or streamed from host memory on a copy
// stream). msm/gpu_impl.cuh includes it.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cuda/device_buffer.hpp"
#include "cuda/error.hpp"
#include "cuda/event.hpp"
#include "cuda/stream.hpp"
#include "msm/digits.hpp"
#include "msm/gpu.hpp"
#include "msm/gpu_launch.cuh"

namespace cuzk::msm::gpu {
namespace {

// Window size: near floor(log2(1.5 n)) - 8 (sppark's rule of thumb), restricted to sizes whose top window
// keeps at least half of the bits: with only a few top bits, n points crowd into a handful of buckets
// (a 2^20 MSM with c = 12 has 8 live top buckets of 2^17 points each). From about 2^24 points, c = 20:
// that rule left only c = 16 between 2^23 and 2^25, and on the H200 c = 20 was faster on both curves (G1
// 2^24: BLS12-381 192.4 → 173.3 ms, 2^25: 376.0 → 321.3, BN254 2^25 186.3 → 171.7; bench/RESULTS.md). From
// about 2^27 points (a 32 GiB PoRep's H MSM), c = 22: with the FP64 multiply, 12 windows instead of 13 made
// the 2^27 MSM 2.2 % faster on BLS12-381 (912.8 → 892.4 ms) and 2.6 % on BN254, for 9.7 GB of G1 buckets
// instead of 2.6 (fitting_window steps down where they do not fit); at 2^26, c = 20–22 were level.
std::size_t choose_gpu_window(std::size_t n, std::size_t scalar_bits) {
  std::size_t lg = 0;
  while ((std::size_t(1) << (lg + 1)) <= n + n / 2) ++lg;  // floor(log2(1.5 n))
  if (lg >= 27) return 22;
  if (lg >= 24) return 20;
  const std::size_t target = std::clamp<std::size_t>(lg > 8 ? lg - 8 : 1, 8, 18);
  std::size_t best = target;
  double best_cost = -1;
  for (std::size_t c = target > 11 ? target - 3 : 8; c <= std::min<std::size_t>(target + 2, 20); ++c) {
    const std::size_t w = window_count(scalar_bits, c), top = scalar_bits + 1 - (w - 1) * c;
    if (2 * top < c) continue;
    const double cost = double(n) * double(w) + double(w) * double(std::size_t(1) << c);
    if (best_cost < 0 || cost < best_cost) best = c, best_cost = cost;
  }
  return best;
}

// The slice sizing (auto_chunk) reserves head/tail partials for segments of no fewer entries than this.
constexpr std::size_t kSeg = 64;

// Windows of each of a streamed MSM's `passes` (the last may have fewer).
inline std::size_t windows_per_streamed_pass(std::size_t scalar_bits, std::size_t c, std::size_t passes) {
  const std::size_t w = window_count(scalar_bits, c);
  return (w + passes - 1) / std::max<std::size_t>(passes, 1);
}

// Device bytes of a sliced MSM's buckets with window c, one XYZZ point each: the buckets of every window and
// a slice's partial sums beside them; a streamed MSM in `passes` holds one pass's windows' (resident passes
// hold less too: windows_per_pass).
template <class C>
std::size_t bucket_bytes(std::size_t c, std::size_t passes = 1) {
  return 2 * windows_per_streamed_pass(C::Scalar::bits(), c, passes) * (std::size_t(1) << (c - 1)) *
         sizeof(Xyzz<C>);
}

// The window for n scalars with buckets of at most a quarter of `available` bytes. The fastest window for a
// 2^27 MSM (c = 22) has 9.7 GB of G1 buckets, and c = 20 (2^24 to 2^26 points) 2.6 GB (5.2 GB in G2): more
// than a 16 GiB card has left beside the scalars, so a capped worker takes a smaller window rather than an
// out-of-memory failure.
template <class C>
std::size_t fitting_window(std::size_t n, std::size_t available, std::size_t passes = 1) {
  std::size_t c = choose_gpu_window(n, C::Scalar::bits());
  while (c > 8 && bucket_bytes<C>(c, passes) > available / 4) --c;
  return c;
}

// Slice size for Options::max_chunk = 0, from `available` bytes (what the VRAM policy still allows: its limit
// and margin, not the raw device free memory, so a capped worker slices its MSMs instead of failing) less the
// buckets of window c. Per entry and window a slice holds four 32-bit sort arrays (the radix sort ping-pongs
// between two pairs, so its own work space is only histograms) and the head/tail partials of its segments;
// per point, `point_bytes` more (the two upload buffers of streamed points). The slice takes `share` of what
// the buckets leave (a third for resident points, whose MSMs run beside other large buffers).
template <class C>
std::size_t auto_chunk(std::size_t n, std::size_t c, std::size_t available, std::size_t point_bytes = 0,
                       double share = 1.0 / 3.0, std::size_t passes = 1) {
  // A slice sorts the windows of one pass at a time (all of them unless a streamed MSM runs in passes).
  const std::size_t w = windows_per_streamed_pass(C::Scalar::bits(), c, passes),
                    buckets = bucket_bytes<C>(c, passes);
  const double budget = double(available > buckets ? available - buckets : 0) * share;
  const double per_point = double(w) * (16.0 + 2.0 * sizeof(Xyzz<C>) / double(kSeg)) + double(point_bytes);
  std::size_t chunk = std::size_t(1) << 20;
  while (chunk < n && chunk < (std::size_t(1) << 26) && double(2 * chunk) * per_point <= budget) chunk *= 2;
  return std::min(n, chunk);
}

// How a resident MSM over `sets` point sets runs: its window, and either passes over all n entries of
// `group` windows each (chunk = n), or slices of `chunk` entries over all windows (group = 0).
struct ResidentPlan {
  std::size_t window = 0;
  std::size_t chunk = 0;
  std::size_t group = 0;
};

// Entries one pass may sort: CUB takes an int count, and bounds_kernel stores positions as 32-bit values.
constexpr std::size_t kMaxPassEntries = std::size_t(1) << 30;

// Windows per pass over n resident entries at window c: a pass holds its own windows' buckets only (each
// window is finished and reduced before the next pass reuses them: pippenger_impl), so the buckets of all
// `sets` take at most a quarter of `available` as in fitting_window, and the pass's sort arrays and segment
// partials (auto_chunk's per-entry bytes) a third of what those buckets leave, as resident slices did.
// 0 when not even one window's pass fits.
template <class C>
std::size_t windows_per_pass(std::size_t n, std::size_t c, std::size_t sets, std::size_t available) {
  const std::size_t w = window_count(C::Scalar::bits(), c), half = std::size_t(1) << (c - 1);
  const double per_entry = 16.0 + 2.0 * sizeof(Xyzz<C>) / double(kSeg);
  // Per window: every set's buckets and the run bounds (start, end) of one.
  const double window_buckets = double(half) * (double(sets) * sizeof(Xyzz<C>) + 8.0);
  for (std::size_t g = std::min(w, kMaxPassEntries / std::max<std::size_t>(n, 1)); g > 0; --g) {
    const double buckets = double(g) * window_buckets;
    if (buckets <= double(available) / 4 && double(g * n) * per_entry <= (double(available) - buckets) / 3)
      return g;
  }
  return 0;
}

// The plan for a resident MSM (`window_bits`, `max_chunk`: Options, 0 to choose). Passes over every entry
// are preferred: each bucket is written once, and only the pass's windows' buckets are held, so the window
// stays at choose_gpu_window's where one window's pass fits. With all windows' buckets held at once, a 32 GiB
// PoRep's H MSM under an 80 GiB limit was held to c = 22 in twelve one-window passes (4.8 GB of buckets),
// and WindowPoSt's 2^27-point G2 MSM to a smaller window (9.7 GB of G2 buckets at c = 22). Only where not
// even one window of the smallest window's pass fits, slices of the entries run over all windows, their
// partial sums added into buckets held for the whole MSM (auto_chunk). A given `max_chunk` forces the
// shape: passes of as many windows as max_chunk entries in every window would take, or slices of max_chunk
// entries where those are fewer than one window's.
template <class C>
ResidentPlan resident_plan(std::size_t n, std::size_t sets, std::size_t available, std::size_t window_bits,
                           std::size_t max_chunk) {
  const std::size_t bits = C::Scalar::bits();
  const std::size_t chosen = window_bits ? window_bits : choose_gpu_window(n, bits);
  if (max_chunk) {
    const std::size_t w = window_count(bits, chosen), chunk = std::min(n, max_chunk);
    if (chunk * w >= n) return {chosen, n, std::min(w, chunk * w / n)};
    return {chosen, chunk, 0};
  }
  for (std::size_t c = chosen;; --c) {
    if (const std::size_t g = windows_per_pass<C>(n, c, sets, available)) return {c, n, g};
    if (window_bits || c <= 8) break;
  }
  for (std::size_t c = chosen;; --c) {
    const std::size_t chunk = auto_chunk<C>(n, c, available);
    if (window_bits || c <= 8 || sets * bucket_bytes<C>(c) <= available / 4) return {c, chunk, 0};
  }
}

// One slice of an MSM: entries [entry_begin, entry_begin + entry_count) of its list (of the index when there
// is one), and the range of points they read, which a streamed MSM uploads for the slice.
struct Slice {
  std::size_t entry_begin = 0, entry_count = 0;
  std::size_t point_begin = 0, point_count = 0;
};

// Slices of `chunk` entries over an unindexed list: entry k reads point k.
std::vector<Slice> even_slices(std::size_t n, std::size_t chunk) {
  std::vector<Slice> slices;
  for (std::size_t begin = 0; begin < n; begin += chunk) {
    const std::size_t count = std::min(chunk, n - begin);
    slices.push_back({begin, count, begin, count});
  }
  return slices;
}

// Where a slice's points come from. The accumulation reads point i at base[i - offset].
// ResidentPoints: all points already in device memory.
template <class C>
struct ResidentPoints {
  const ec::Affine<C>* d_points;
  void prefetch(std::size_t, std::size_t, std::size_t) {}
  cudaEvent_t upload_event(std::size_t) const { return nullptr; }  // nothing is uploaded
  std::pair<const ec::Affine<C>*, std::size_t> acquire(std::size_t, std::size_t, cudaStream_t) {
    return {d_points, 0};
  }
  void release(std::size_t, cudaStream_t) {}
};

// No extra work per slice (see pippenger_impl's on_slice).
struct NoSliceWork {
  template <class P>
  void operator()(std::size_t, const P*, std::size_t, cudaStream_t) const {}
};

// StreamedPoints: points in host memory, uploaded slice by slice into two device buffers on a copy
// stream, so slice k + 1 uploads while slice k accumulates. A buffer is refilled only after the
// accumulation that read it has finished (the `released` event); the accumulation waits for its upload
// (the `uploaded` event). Waiting on an event never recorded is a no-op, which covers the first two.
// Points within `head` (already on the device) are read there: a slice inside it uploads nothing, a slice
// across its end copies the head's part on the device and uploads the rest.
// The two buffers are stream-ordered on the MSM's stream: a cudaFree at the MSM's end waited for all work on
// the device, and so held the MSM's end until a copy another stream had queued meanwhile (the next query's
// head) was done (an H100 trace: the MSM during which a head went up grew by what the next one saved).
template <class C>
class StreamedPoints {
 public:
  StreamedPoints(const ec::Affine<C>* h_points, std::size_t chunk, cudaStream_t stream,
                 DeviceHead<C> head = {})
      : host_(h_points),
        head_(head),
        stream_(stream),
        buffers_{cuda::DeviceBuffer<ec::Affine<C>>(chunk, stream),
                 cuda::DeviceBuffer<ec::Affine<C>>(chunk, stream)} {
    // The copy stream writes the buffers only once they are allocated in the MSM stream's order.
    cuda::Event allocated(false);
    allocated.record(stream_);
    allocated.make_wait(copy_.get());
  }
  // The buffers are freed in the MSM stream's order: after every copy into them, too (on an error path a
  // copy may still be queued that no accumulation waited for).
  ~StreamedPoints() {
    if (cudaEventRecord(copies_done_.get(), copy_.get()) == cudaSuccess)
      (void)cudaStreamWaitEvent(stream_, copies_done_.get(), 0);
  }
  StreamedPoints(const StreamedPoints&) = delete;
  StreamedPoints& operator=(const StreamedPoints&) = delete;

  void prefetch(std::size_t slice, std::size_t begin, std::size_t count) {
    const std::size_t b = slice % 2;
    const std::size_t from_head = begin < head_.count ? std::min(count, head_.count - begin) : 0;
    in_head_[b] = from_head == count;
    if (in_head_[b]) return;
    released_[b].make_wait(copy_.get());
    if (from_head > 0) {
      if (head_.ready) CUZK_CUDA_CHECK(cudaStreamWaitEvent(copy_.get(), head_.ready, 0));
      CUZK_CUDA_CHECK(cudaMemcpyAsync(buffers_[b].data(), head_.points + begin,
                                      from_head * sizeof(ec::Affine<C>), cudaMemcpyDeviceToDevice,
                                      copy_.get()));
    }
    buffers_[b].upload(host_ + begin + from_head, count - from_head, copy_.get(), from_head);
    uploaded_[b].record(copy_.get());
  }
  // Completes once the slice prefetched last (`slice`) and every earlier one are up; null: that slice came
  // from the head, and with it (the head being a prefix) every earlier one.
  cudaEvent_t upload_event(std::size_t slice) const {
    return in_head_[slice % 2] ? nullptr : uploaded_[slice % 2].get();
  }
  std::pair<const ec::Affine<C>*, std::size_t> acquire(std::size_t slice, std::size_t begin,
                                                       cudaStream_t stream) {
    if (in_head_[slice % 2]) {
      if (head_.ready) CUZK_CUDA_CHECK(cudaStreamWaitEvent(stream, head_.ready, 0));
      return {head_.points, 0};
    }
    uploaded_[slice % 2].make_wait(stream);
    return {buffers_[slice % 2].data(), begin};
  }
  // A slice read from the head leaves its buffer free: the next upload into it need not wait.
  void release(std::size_t slice, cudaStream_t stream) {
    if (!in_head_[slice % 2]) released_[slice % 2].record(stream);
  }

 private:
  const ec::Affine<C>* host_;
  DeviceHead<C> head_;
  cudaStream_t stream_;
  bool in_head_[2] = {false, false};  // per buffer: its slice is read from the head
  cuda::DeviceBuffer<ec::Affine<C>> buffers_[2];
  cuda::Stream copy_;
  cuda::Event uploaded_[2] = {cuda::Event(false), cuda::Event(false)};
  cuda::Event released_[2] = {cuda::Event(false), cuda::Event(false)};
  cuda::Event copies_done_{false};
};

// Slice size for streamed points: two upload buffers of a slice's points come on top of the sort arrays, and
// slices of at most 2^24 keep them to a few GiB. Every slice after the first re-merges all the buckets, so
// on the small cards that stream their points the slices take 60 % of what the buckets leave, not a third:
// a 2^27 H MSM under a 16 GiB limit was cut into 128 slices of 2^20 points (654 ms of merges, 1.53 s in all
// against 0.85 s resident). The proof's other buffers are allocated already; the rest is slack for the
// bounds, the segments' partials and CUB's histograms.
template <class C>
std::size_t streamed_chunk(std::size_t n, std::size_t c, std::size_t available, std::size_t passes = 1) {
  constexpr double kStreamedShare = 0.6;
  return std::min(auto_chunk<C>(n, c, available, 2 * sizeof(ec::Affine<C>), kStreamedShare, passes),
                  std::size_t(1) << 24);
}

// CUZK_MSM_STREAMED_PASSES, read at every dense streamed MSM (the H MSM of a streamed proof): how many passes
// over its streamed points it makes, each for its share of the windows. One pass holds the buckets of every
// window, which under a small VRAM limit costs the window bits (a 2^27 H MSM took c = 18, 15 windows, under
// 16 GiB against c = 22 resident); P passes hold 1/P of them, for P times the points' transfer (12.9 GB,
// ~0.24 s a pass, beside ~0.9 s of compute). Timed on an H100 (bench/RESULTS.md 2026-12-07): under 16 GiB two
// passes gave c = 20 (accumulation −72 ms) and lost it to the second upload's wait on the bus, which the A
// query's head and [inputs, aux] share during the H MSM, and to larger merges: level; under 24 GiB +76 ms.
// Unset: 1.
inline std::size_t streamed_passes() {
  const char* v = std::getenv("CUZK_MSM_STREAMED_PASSES");
  if (v == nullptr || *v == '\0') return 1;
  char* end = nullptr;
  const unsigned long p = std::strtoul(v, &end, 10);
  if (*v < '0' || *v > '9' || *end != '\0' || p < 1 || p > 4)
    throw std::invalid_argument(std::string("CUZK_MSM_STREAMED_PASSES=") + v + ": expected 1 to 4");
  return p;
}

// The window of a streamed MSM over `n_entries` scalars and `n_points` points. Every slice after the first
// adds its partial sums into every bucket (merge), so a sliced MSM pays n_entries·w bucket additions plus
// slices·w·2^(c−1) merges; choose_gpu_window counts only the first. Where the entries are few beside the
// points (a PoRep partition's A and L queries: 37 M values other than 0 and 1 over 130 M streamed points, in
// 12 slices under a 24 GiB limit), the merges of c = 20's 6.8 M buckets took 75 of 330 ms (H100 trace,
// bench/RESULTS.md 2026-12-07). This takes the c in [fitting − 4, fitting] of least modelled cost; a smaller
// c also leaves room for larger slices. Weights per bucket, against one entry's addition in one window, from
// that trace: a merge 2.5 (1.8 in the H MSM, 3.3 in A and L), the final reduction 4.5.
// CUZK_MSM_STREAMED_WINDOW, read at every MSM: unset or "model" (this), "fitting" (fitting_window alone),
// or a window in [8, 23]. Timed on an H100 (2^27 bellperson partition, bench/RESULTS.md 2026-12-07): model
// against fitting, 2,259.5 against 2,298.0 ms under a 24 GiB limit and 2,461.7 against 2,607.6 under 16.
template <class C>
std::size_t streamed_window(std::size_t n_entries, std::size_t n_points, std::size_t available,
                            std::size_t passes = 1) {
  const std::size_t fitting = fitting_window<C>(std::max<std::size_t>(n_entries, 1), available, passes);
  const char* v = std::getenv("CUZK_MSM_STREAMED_WINDOW");
  const std::string setting = v ? v : "";
  if (setting == "fitting") return fitting;
  if (!setting.empty() && setting != "model") {
    char* end = nullptr;
    const unsigned long c = std::strtoul(setting.c_str(), &end, 10);
    if (setting[0] < '0' || setting[0] > '9' || *end != '\0' || c < 8 || c > 23)
      throw std::invalid_argument("CUZK_MSM_STREAMED_WINDOW=" + setting +
                                  ": expected model, fitting or a window in [8, 23]");
    return c;
  }
  constexpr double kMerge = 2.5, kReduce = 4.5;
  const std::size_t bits = C::Scalar::bits();
  // From the fitting window down, a smaller one only where the model says it saves 3 %: the model's weights
  // differ between MSMs by ±30 %, and where the merges are few (the H MSM) the windows come out level.
  std::size_t best = fitting;
  double best_cost = -1;
  for (std::size_t c = fitting; c + 4 >= fitting && c >= 8; --c) {
    const std::size_t step = streamed_chunk<C>(n_points, c, available, passes);
    const std::size_t slices = (n_points + step - 1) / step;
    const double w = double(window_count(bits, c)), buckets = w * double(std::size_t(1) << (c - 1));
    const double cost =
        double(n_entries) * w + (slices > 1 ? double(slices) * buckets * kMerge : 0.0) + buckets * kReduce;
    if (best_cost < 0 || cost < 0.97 * best_cost) best = c, best_cost = cost;
  }
  return best;
}

}  // namespace
}  // namespace cuzk::msm::gpu
