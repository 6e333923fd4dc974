// The split MSM over a witness-shaped scalar vector, on the GPU, shared by the snarkjs and bellperson
// provers: most PoRep values are bits, so zeros are skipped, ones are batch-added, and only the rest go
// through Pippenger. The classification runs once per scalar vector on the device (flags, then CUB's select);
// the scalars are classified in Montgomery form and handed to the MSMs plain.
#pragma once

#include <thrust/iterator/counting_iterator.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cub/device/device_select.cuh>
#include <span>
#include <vector>

#include "cuda/device_buffer.hpp"
#include "cuda/download.hpp"
#include "cuda/error.hpp"
#include "groth16/timings.hpp"
#include "msm/gpu.hpp"

namespace cuzk::groth16::gpu {

namespace split_detail {
constexpr unsigned kThreads = 256;
inline unsigned blocks_for(std::size_t n) {
  return static_cast<unsigned>((n + kThreads - 1) / kThreads);
}
}  // namespace split_detail

// Montgomery form → plain integers (the MSM scalar form); `in` and `out` may be the same array (each thread
// reads its value before writing it back).
template <class Fr>
__global__ void to_plain_kernel(const Fr* in, ff::BigInt<Fr::N>* out, std::size_t n) {
  static_assert(sizeof(ff::BigInt<Fr::N>) == sizeof(Fr));
  const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = in[i].to_int();
}

// Converts a device vector of Montgomery values to plain integers where it lies.
template <class Fr>
ff::BigInt<Fr::N>* to_plain_in_place(Fr* d_values, std::size_t n, cudaStream_t stream) {
  auto* plain = reinterpret_cast<ff::BigInt<Fr::N>*>(d_values);
  if (n == 0) return plain;
  to_plain_kernel<Fr><<<split_detail::blocks_for(n), split_detail::kThreads, 0, stream>>>(d_values, plain, n);
  cuda::check_last_launch("groth16 to_plain_kernel");
  return plain;
}

// Positions of the values equal to one and of the other non-zero values, in a vector of `count` values.
struct WitnessClasses {
  cuda::DeviceBuffer<std::uint32_t> ones, others;
  std::size_t n_ones = 0, n_others = 0;
};

// A value's class, in Montgomery form (a field element) or plain (an integer, as the MSMs take it).
template <class Fr>
__device__ bool value_is_one(const Fr& x) {
  return x.is_one();
}
template <std::size_t N>
__device__ bool value_is_one(const ff::BigInt<N>& x) {
  return x == ff::bigint_from_u64<N>(1);
}

template <class T>
__global__ void flag_classes_kernel(const T* w, std::size_t count, std::uint8_t* is_one,
                                    std::uint8_t* is_other) {
  const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (i >= count) return;
  const T x = w[i];
  const bool one = value_is_one(x);
  is_one[i] = one;
  is_other[i] = !one && !x.is_zero();
}

// The number a CUB select wrote, once `run(temp, temp_bytes, selected)` has queried its work space and then
// selected into the caller's output. Waits for the stream.
template <class Run>
std::size_t run_select(Run&& run, cudaStream_t stream) {
  cuda::DeviceBuffer<std::uint64_t> selected(1, stream);
  std::size_t temp_bytes = 0;
  CUZK_CUDA_CHECK(run(nullptr, temp_bytes, selected.data()));
  cuda::DeviceBuffer<unsigned char> temp(std::max<std::size_t>(temp_bytes, 1), stream);
  CUZK_CUDA_CHECK(run(temp.data(), temp_bytes, selected.data()));
  std::uint64_t n = 0;
  cuda::download_and_wait(selected, &n, 1, stream);
  return n;
}

// out[0..k) = the items of `in` whose flag is set, in order (CUB's select); returns k. Waits for the stream.
template <class In, class Out>
std::size_t select_flagged(In in, const std::uint8_t* flags, Out* out, std::size_t count,
                           cudaStream_t stream) {
  return run_select(
      [&](void* temp, std::size_t& bytes, std::uint64_t* selected) {
        return cub::DeviceSelect::Flagged(temp, bytes, in, flags, out, selected, count, stream);
      },
      stream);
}

// out[0..k) = the items of `in` that `keep` accepts, in order (CUB's select); returns k. Waits for the
// stream.
template <class In, class Out, class Keep>
std::size_t select_if(In in, Out* out, std::size_t count, Keep keep, cudaStream_t stream) {
  return run_select(
      [&](void* temp, std::size_t& bytes, std::uint64_t* selected) {
        return cub::DeviceSelect::If(temp, bytes, in, out, selected, count, keep, stream);
      },
      stream);
}

// `d_w` in Montgomery form (field elements) or plain (ff::BigInt). Waits for the stream: the counts size the
// MSMs. `others` false: the ones only (no list of the others, n_others 0).
template <class Fr>
WitnessClasses classify(const Fr* d_w, std::size_t count, cudaStream_t stream, bool others = true) {
  WitnessClasses out{cuda::DeviceBuffer<std::uint32_t>(count, stream),
                     cuda::DeviceBuffer<std::uint32_t>(others ? count : 0, stream)};
  if (count == 0) return out;
  cuda::DeviceBuffer<std::uint8_t> is_one(count, stream), is_other(count, stream);
  flag_classes_kernel<Fr><<<split_detail::blocks_for(count), split_detail::kThreads, 0, stream>>>(
      d_w, count, is_one.data(), is_other.data());
  cuda::check_last_launch("groth16 flag_classes_kernel");
  const thrust::counting_iterator<std::uint32_t> positions(0);
  out.n_ones = select_flagged(positions, is_one.data(), out.ones.data(), count, stream);
  if (others) out.n_others = select_flagged(positions, is_other.data(), out.others.data(), count, stream);
  return out;
}

// Milliseconds since t0, for the split MSMs' details.
inline double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// Σ over the ones of `classes` (a batch addition), timed as the detail batch_add.
template <class Cfg>
ec::Jacobian<Cfg> ones_sum(const ec::Affine<Cfg>* d_points, const WitnessClasses& classes,
                           cudaStream_t stream, StageTimings* timings) {
  const auto t0 = std::chrono::steady_clock::now();
  const auto sum = classes.n_ones > 0
                       ? msm::gpu::batch_add<Cfg>(d_points, classes.n_ones, stream, classes.ones.data())
                       : ec::Jacobian<Cfg>::infinity();
  if (timings) timings->add_detail("batch_add", ms_since(t0));
  return sum;
}

// The sums over the other values of `classes` (neither 0 nor 1) for several point sets with the same scalars
// (msm::gpu::pippenger_shared: one sort of their digits for all), timed as the detail tail_msm. One per set.
template <class Cfg, std::size_t N>
std::vector<ec::Jacobian<Cfg>> tails_sum(std::span<const msm::gpu::PointSet<Cfg>> sets,
                                         const ff::BigInt<N>* d_scalars, const WitnessClasses& classes,
                                         cudaStream_t stream, StageTimings* timings) {
  const auto t0 = std::chrono::steady_clock::now();
  auto sums =
      msm::gpu::pippenger_shared<Cfg, N>(sets, d_scalars, classes.n_others, stream, classes.others.data());
  if (timings) timings->add_detail("tail_msm", ms_since(t0));
  return sums;
}

// Σ k_i·P_i over a witness-shaped vector: batch-add the ones, Pippenger the rest. Adds the two parts' times
// to `timings` as the details batch_add and tail_msm.
template <class Cfg, std::size_t N>
ec::Jacobian<Cfg> split_msm(const ec::Affine<Cfg>* d_points, const ff::BigInt<N>* d_scalars,
                            const WitnessClasses& classes, cudaStream_t stream, StageTimings* timings) {
  // Both calls return after their stream work (the results come back to the host), so wall time is GPU time.
  ec::Jacobian<Cfg> acc = ones_sum<Cfg>(d_points, classes, stream, timings);
  const auto t0 = std::chrono::steady_clock::now();
  if (classes.n_others > 0)
    acc += msm::gpu::pippenger<Cfg, N>(d_points, d_scalars, classes.n_others, stream, classes.others.data());
  if (timings) timings->add_detail("tail_msm", ms_since(t0));
  return acc;
}

// The same with the key's points in host memory (streamed plans): msm::gpu::split_streamed, the points
// uploaded once, slice by slice (those in `head` read where they are). `d_scalars` plain, one per point.
template <class Cfg, std::size_t N>
ec::Jacobian<Cfg> split_msm_streamed(const ec::Affine<Cfg>* h_points, std::size_t n_points,
                                     const ff::BigInt<N>* d_scalars, const WitnessClasses& classes,
                                     cudaStream_t stream, msm::gpu::DeviceHead<Cfg> head = {},
                                     msm::gpu::Options options = {}) {
  return msm::gpu::split_streamed<Cfg, N>(h_points, n_points, d_scalars, classes.ones.data(), classes.n_ones,
                                          classes.others.data(), classes.n_others, stream, std::move(options),
                                          head);
}

}  // namespace cuzk::groth16::gpu
