// The Groth16 prover on the GPU: the abc stage (A·w, B·w over the key's coefficient rows, resident on
// the device), the H stage (odd-coset NTTs of a, b, c and h = a·b - c) and all five MSMs (A, B1, B2 in
// G2, C, H) run on the device; the witness classification for the split MSMs and the blinding stay on
// the CPU.
// With the same r and s the proof is byte-identical to the CPU prover's (same group elements, same
// affine encoding).
#pragma once

#include <cuda_runtime.h>

#include <memory>
#include <vector>

#include "groth16/timings.hpp"
#include "groth16/types.hpp"

namespace cuzk::groth16::gpu {

// Where a ResidentKey keeps the point arrays (A, B1, B2, C, H): in device memory, or in (page-locked)
// host memory from which each MSM streams them slice by slice; kAuto tries the device first and streams
// when the points do not fit.
enum class KeyResidency { kAuto, kDevice, kHost };

// The proving key prepared for the GPU once and reused by every proof: NTT tables, the A/B coefficient
// rows and — when they fit, or as `residency` says — the point arrays in device memory. In host mode
// the points stay in `pk`'s vectors (registered with CUDA for fast copies), so `pk` must outlive the
// key. Throws cuda::CudaError (kind out_of_memory) when even the tables do not fit.
template <class Curve>
class ResidentKey {
 public:
  ResidentKey(const ProvingKey<Curve>& pk, cudaStream_t stream, KeyResidency residency = KeyResidency::kAuto);
  bool points_on_device() const;
  ~ResidentKey();
  ResidentKey(const ResidentKey&) = delete;
  ResidentKey& operator=(const ResidentKey&) = delete;

  struct Impl;
  const Impl& impl() const { return *impl_; }

 private:
  std::unique_ptr<Impl> impl_;
};

template <class Curve>
Proof<Curve> prove(const ProvingKey<Curve>& pk, const ResidentKey<Curve>& key,
                   const std::vector<typename Curve::Fr>& witness, const typename Curve::Fr& r,
                   const typename Curve::Fr& s, cudaStream_t stream, StageTimings* timings = nullptr);

}  // namespace cuzk::groth16::gpu
