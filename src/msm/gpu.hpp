// Multi-scalar multiplication on the GPU (host-callable API; kernels in gpu.cu).
//
// Pippenger with signed digits:
//   digits     one thread per point writes (window·2^(c-1) + bucket, point index | sign) pairs;
//   sort       CUB radix sort of all pairs by (window, bucket), so each bucket's points are contiguous;
//   accumulate one thread per (window, bucket) walks its run and adds ±P into an XYZZ accumulator;
//   reduce     each window's buckets are cut into segments; a thread computes its segment's running
//              sum Σ and weighted sum Σ (b - lo + 1)·B_b; the host combines segments and windows.
// Points beyond `max_chunk` are processed in slices that accumulate into the same buckets, or, with the
// points resident, in passes over all points and a group of windows (as many sort entries per pass as
// `max_chunk` points in all windows would take), so that every bucket is written once.
// The split form for witness vectors: scalar 1 → a parallel batch addition; 0 → skipped; the rest →
// Pippenger over the gathered subset.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "ec/point.hpp"
#include "ff/bigint.hpp"

namespace cuzk::msm::gpu {

struct Options {
  std::size_t window_bits = 0;  // 0: chosen from n
  // Points per slice; 0: as many as fit in a third of the free device memory (at most 2^26, at least
  // 2^20). Every slice after the first costs one more bucket merge; resident points take window groups of
  // the same size instead (see above).
  std::size_t max_chunk = 0;
  // Streamed MSMs: called once the MSM holds its buffers and its first slice's upload is queued, with the
  // device bytes it will still allocate (its window sums' scratch, at the end: 82 MB at c = 20 over 13
  // windows). A streamed bellperson proof's H MSM leaves the bus idle for most of its second; its caller
  // takes the room the MSM left, less those bytes, for the next MSM's first points (DeviceHead).
  std::function<void(std::size_t later_bytes)> after_allocation = {};
  // Called once the last slice's upload is queued (and never before after_allocation), with an event recorded
  // after it on the MSM's copy stream (null where nothing is uploaded: resident points, or every slice within
  // a DeviceHead). A copy that waits for it takes only the bus time the MSM leaves after its own points,
  // instead of sharing the bus with them.
  std::function<void(cudaEvent_t last_upload)> after_uploads = {};
};

// The first `count` points of a streamed MSM's host array, already in device memory (uploaded ahead, while
// the bus was idle): its slices within them are read from there, a slice across the end is completed from
// the host. The MSM's streams wait for `ready` (recorded once the copy is done; null: nothing to wait for).
template <class C>
struct DeviceHead {
  const ec::Affine<C>* points = nullptr;
  std::size_t count = 0;
  cudaEvent_t ready = nullptr;
};

// Σ scalars[i]·points[i]; both arrays in device memory; scalars plain (not Montgomery), < 2^(64·N).
// A scalar s in (r/2, r) is taken as −(r − s) (short when s is near r, as r − k witness values are), which
// is the same sum only for points of the prime-order subgroup: every proving key's points are.
// If `index` (device memory, `n` entries) is given, the sum runs over points[index[k]], scalars[index[k]].
template <class C, std::size_t N>
ec::Jacobian<C> pippenger(const ec::Affine<C>* d_points, const ff::BigInt<N>* d_scalars, std::size_t n,
                          cudaStream_t stream, const std::uint32_t* d_index = nullptr, Options opt = {});

// A point set for pippenger_shared: device points, and optionally a device map from the scalars' positions
// to this set's points (kNoPoint where the set has none: that scalar adds nothing to this set's sum).
inline constexpr std::uint32_t kNoPoint = 0x7fffffffu;  // above any position: positions are below 2^31
template <class C>
struct PointSet {
  const ec::Affine<C>* points = nullptr;
  const std::uint32_t* map = nullptr;
};

// Σ scalars[k]·sets[j].points[map_j(k)] for every set j (over index[k] as in pippenger when `index` is
// given), resident points only. The digits and their sort are made once for all sets, each set accumulating
// its own buckets: a bellperson proof's A and L queries have the same aux scalars. The first set has no map
// (std::invalid_argument otherwise); the window is chosen so that every set's buckets fit. One sum per set.
template <class C, std::size_t N>
std::vector<ec::Jacobian<C>> pippenger_shared(std::span<const PointSet<C>> sets,
                                              const ff::BigInt<N>* d_scalars, std::size_t n,
                                              cudaStream_t stream, const std::uint32_t* d_index = nullptr,
                                              Options opt = {});

// The same sum with the points in host memory, for point sets that do not fit in device memory: slices
// of points are uploaded into two device buffers on a copy stream while the previous slice accumulates.
// Register or pin the host range (cuda::HostRegistration) so that the uploads run asynchronously at full
// PCIe bandwidth; pageable memory works, slower. Scalars are in device memory; no index form.
template <class C, std::size_t N>
ec::Jacobian<C> pippenger_streamed(const ec::Affine<C>* h_points, const ff::BigInt<N>* d_scalars,
                                   std::size_t n, cudaStream_t stream, Options opt = {});

// The split form with the points in host memory (streamed bellperson keys): Σ points[ones[k]] +
// Σ scalars[others[k]]·points[others[k]], the points uploaded slice by slice once for both (a slice's ones
// batch-added while it is on the device). `ones` and `others`: ascending positions below n_points, in device
// memory, as groth16::gpu::classify makes them; scalars plain, in device memory, indexed by position. Zeros
// are in neither list and cost nothing but their points' upload. Register the host range, as for
// pippenger_streamed. `head`: the first points already on the device (DeviceHead).
template <class C, std::size_t N>
ec::Jacobian<C> split_streamed(const ec::Affine<C>* h_points, std::size_t n_points,
                               const ff::BigInt<N>* d_scalars, const std::uint32_t* d_ones,
                               std::size_t n_ones, const std::uint32_t* d_others, std::size_t n_others,
                               cudaStream_t stream, Options opt = {}, DeviceHead<C> head = {});

// Σ points[index[k]] (all points when index is null), in device memory.
template <class C>
ec::Jacobian<C> batch_add(const ec::Affine<C>* d_points, std::size_t n, cudaStream_t stream,
                          const std::uint32_t* d_index = nullptr);

}  // namespace cuzk::msm::gpu
