// bellperson (Filecoin) proofs on the GPU: the same values as groth16::bellperson::prove, byte for byte with
// the same r and s. H runs on the GPU NTT over the key's own domain and its odd coset (six NTTs: a and b to
// the coset, A·B back, c only to coefficients); the five MSMs run on the GPU
// over the key's points, resident on the device or streamed from page-locked host memory
// (bellperson_plan.hpp).
#pragma once

#include <cuda_runtime.h>

#include <memory>
#include <optional>
#include <string>

#include "cuda/device_buffer.hpp"
#include "groth16/bellperson.hpp"
#include "groth16/gpu_plan.hpp"
#include "groth16/timings.hpp"

namespace cuzk::groth16::bellperson::gpu {

// A .params key prepared for the GPU once and shared by every proof on that device: the NTT tables, and the
// points on the device (resident) or page-locked where they are (streamed; lean: streamed with compact
// tables, the queries' scalars gathered `query_chunk` values of [inputs, aux] at a time, 0: 2^25).
// `params` must outlive the key. Without a plan, the largest that fits in what the VRAM policy leaves is
// chosen, stepping down if the upload runs out of memory anyway; throws cuda::CudaError (kind
// out_of_memory) when not even the lean plan fits.
// `keep_as`, when not empty, names the key's points for the daemon's memory keeper (cuda/kept_array.hpp):
// in a worker process with a keeper, the resident plan's points are kept on the device under
// "<keep_as>/<query>" when this process ends, and a later process with the same name maps them instead of
// uploading them. The name must change whenever the key's contents may have (the engine puts the key file's
// version in it).
class ResidentKey {
 public:
  ResidentKey(const io::bellperson::Params& params, cudaStream_t stream,
              std::optional<groth16::gpu::Plan> plan = {}, std::size_t query_chunk = 0,
              const std::string& keep_as = {});
  ~ResidentKey();
  ResidentKey(const ResidentKey&) = delete;
  ResidentKey& operator=(const ResidentKey&) = delete;

  groth16::gpu::Plan plan() const;
  // What one proof with this key is estimated to allocate at its peak; the key's own memory is held already.
  std::size_t proof_bytes() const { return proof_bytes_; }

  struct Impl;
  const Impl& impl() const { return *impl_; }

 private:
  std::unique_ptr<Impl> impl_;
  std::size_t proof_bytes_ = 0;
};

// `prestaged_abc`, when given, holds a, b and c already on the device, one after the other (uploaded ahead
// while another proof held the GPU; the caller has made `stream` wait for that upload): the prover takes
// it over and frees it once they are in place, instead of uploading the assignment's.
Proof<Curve> prove(const io::bellperson::Params& params, const ResidentKey& key, const Assignment& w,
                   const Fr& r, const Fr& s, cudaStream_t stream, StageTimings* timings = nullptr,
                   cuda::DeviceBuffer<Fr>* prestaged_abc = nullptr);

// One proof with a key prepared for it alone (the C ABI's and the CLI's single proofs).
Proof<Curve> prove(const io::bellperson::Params& params, const Assignment& w, const Fr& r, const Fr& s,
                   cudaStream_t stream);

}  // namespace cuzk::groth16::bellperson::gpu
