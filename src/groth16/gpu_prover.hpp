// The Groth16 prover on the GPU: the abc stage (A·w, B·w over the key's coefficient rows), the H stage
// (odd-coset NTTs of a, b, c and h = a·b - c), the witness classification for the split MSMs and all five
// MSMs (A, B1, B2 in G2, C, H) run on the device, within the plan's footprint (gpu_plan.hpp); the
// blinding stays on the CPU.
// With the same r and s the proof is byte-identical to the CPU prover's (same group elements, same
// affine encoding).
#pragma once

#include <cuda_runtime.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cuda/device_buffer.hpp"
#include "groth16/gpu_plan.hpp"
#include "groth16/timings.hpp"
#include "groth16/types.hpp"

namespace cuzk::groth16::gpu {

// The proving key prepared for the GPU once and reused by every proof, as `plan` says (gpu_plan.hpp):
// NTT tables and row offsets always, the coefficient rows unless lean, the points only when resident.
// Streamed parts stay in host memory (page-locked through cuda::HostRegistry for fast asynchronous
// copies), so `pk` must outlive the key. Without a plan, the largest that fits in what the VRAM policy
// leaves now (cuda::vram_available) is chosen, stepping down if the upload runs out of memory anyway.
// Throws cuda::CudaError (kind out_of_memory) when even the lean plan's part does not fit. `row_chunk`
// (lean only; 0: 2^24) sets the entries per streamed row chunk, so tests can cut a small key into many.
template <class Curve>
class ResidentKey {
 public:
  // `keep_as`: as for the bellperson ResidentKey (gpu_bellperson.hpp), the name under which a worker
  // process's memory keeper keeps the resident plan's points for the process that replaces this one.
  ResidentKey(const ProvingKey<Curve>& pk, cudaStream_t stream, std::optional<Plan> plan = {},
              std::size_t row_chunk = 0, const std::string& keep_as = {});
  Plan plan() const;
  bool points_on_device() const { return plan() == Plan::kResident; }
  // What one proof with this key is estimated to allocate at its peak (Footprint::proof, plus the row
  // chunks under lean); the key's own device memory is already held.
  std::size_t proof_bytes() const { return proof_bytes_; }
  ~ResidentKey();
  ResidentKey(const ResidentKey&) = delete;
  ResidentKey& operator=(const ResidentKey&) = delete;

  struct Impl;
  const Impl& impl() const { return *impl_; }

 private:
  std::unique_ptr<Impl> impl_;
  std::size_t proof_bytes_ = 0;
};

// `prestaged`, when given, is the witness already in device memory (uploaded ahead, while another proof
// held the GPU): the prover takes it over (and frees it early like its own) instead of uploading `witness`;
// the caller has made `stream` wait for that upload.
template <class Curve>
Proof<Curve> prove(const ProvingKey<Curve>& pk, const ResidentKey<Curve>& key,
                   const std::vector<typename Curve::Fr>& witness, const typename Curve::Fr& r,
                   const typename Curve::Fr& s, cudaStream_t stream, StageTimings* timings = nullptr,
                   cuda::DeviceBuffer<typename Curve::Fr>* prestaged = nullptr);

}  // namespace cuzk::groth16::gpu
