// Discovering and selecting GPUs.
//
// device_count() is the one call that treats "no GPU" as an answer rather than an error, so that a
// CPU-only host (or a CI runner) can ask whether to start GPU workers at all without catching anything.
// Everything else throws CudaError.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <utility>

namespace cuzk::cuda {

// Number of visible CUDA devices; 0 when there is no driver, no GPU, or none visible. Throws CudaError
// only for failures other than those (kind() != no_device).
int device_count();

struct DeviceInfo {
  int id = 0;
  std::string name;
  int sm_count = 0;
  std::size_t total_mem = 0;               // bytes of device memory
  std::size_t free_mem = 0;                // bytes free when device_info() was called (all processes)
  std::size_t l2_bytes = 0;                // L2 cache size
  std::size_t shared_per_block_optin = 0;  // max dynamic shared memory a kernel may opt into per block
  int cc_major = 0, cc_minor = 0;          // compute capability (9.0 for H100/H200)
};

// Properties of device `id`. Creates that device's primary context if it has none yet (free memory can
// only be read through a context); the calling thread's current device is left unchanged.
DeviceInfo device_info(int id);

// Makes `id` the calling thread's current device. Throws CudaError with kind no_device when there is no
// GPU and with kind other when `id` is out of range, instead of CUDA's bare "invalid device ordinal".
void select_device(int id);

// Recovers device `id` after a sticky error (cuda::CudaError::Kind::sticky): destroys this process's context
// on it (cudaDeviceReset) so the next CUDA call creates a fresh one, and registers again the host ranges
// whose page-locks went with the old context (HostRegistry). Everything allocated on the device is gone: the
// caller must have dropped its DeviceBuffers first and must abandon (not destroy) streams and events made
// before. Leaves `id` as the calling thread's current device and returns the milliseconds it waited for the
// new context. Throws CudaError if the reset fails or no new context can be made within `patience`.
double reset_device(int id, std::chrono::milliseconds patience = std::chrono::seconds(30));

// {free, total} bytes of the calling thread's current device (cudaMemGetInfo). Free memory is device-wide:
// other processes and contexts on the same GPU count too. It includes what this process's memory pool holds
// unused (cuda/vram.hpp, pool_slack): freed in stream order, kept for the next proof's temporaries.
std::pair<std::size_t, std::size_t> mem_info();

}  // namespace cuzk::cuda
