// Switches the calling thread's current device for the lifetime of the guard and switches back afterwards,
// so that inspecting another device does not silently move later allocations of this thread onto it.
#pragma once

#include <cuda_runtime_api.h>

#include "cuda/error.hpp"

namespace cuzk::cuda {

class CurrentDeviceGuard {
 public:
  explicit CurrentDeviceGuard(int id) {
    CUZK_CUDA_CHECK(cudaGetDevice(&previous_));
    if (id == previous_) return;
    CUZK_CUDA_CHECK(cudaSetDevice(id));
    switched_ = true;
  }
  ~CurrentDeviceGuard() {
    if (!switched_) return;
    if (const cudaError_t code = cudaSetDevice(previous_); code != cudaSuccess)
      report_release_error(code, "cudaSetDevice (restoring the current device)");
  }
  CurrentDeviceGuard(const CurrentDeviceGuard&) = delete;
  CurrentDeviceGuard& operator=(const CurrentDeviceGuard&) = delete;

 private:
  int previous_ = 0;
  bool switched_ = false;
};

}  // namespace cuzk::cuda
