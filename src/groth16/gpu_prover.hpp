// The Groth16 prover on the GPU: the H stage (odd-coset NTTs of a, b, c and h = a·b - c) and all five
// MSMs (A, B1, B2 in G2, C, H) run on the device; the abc stage and the blinding stay on the CPU.
// With the same r and s the proof is byte-identical to the CPU prover's (same group elements, same
// affine encoding).
#pragma once

#include <cuda_runtime.h>

#include <memory>
#include <vector>

#include "groth16/timings.hpp"
#include "groth16/types.hpp"

namespace cuzk::groth16::gpu {

// The proving key's point arrays and NTT tables in device memory, uploaded once and reused by every
// proof ("resident" SRS). Throws cuda::CudaError (kind out_of_memory) when the key does not fit.
template <class Curve>
class ResidentKey {
 public:
  ResidentKey(const ProvingKey<Curve>& pk, cudaStream_t stream);
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
