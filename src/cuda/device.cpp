#include "cuda/device.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <thread>

#include "cuda/current_device_guard.hpp"
#include "cuda/error.hpp"
#include "cuda/host_registry.hpp"
#include "cuda/vram.hpp"

namespace cuzk::cuda {

int device_count() {
  int n = 0;
  const cudaError_t code = cudaGetDeviceCount(&n);
  if (code == cudaSuccess) return n;
  if (classify(code) == CudaError::Kind::no_device) {
    (void)cudaGetLastError();  // the failure is the answer, not an error to report later
    return 0;
  }
  throw_error(code, "cudaGetDeviceCount", __FILE__, __LINE__);
}

namespace {

// Throws unless 0 <= id < device_count(), with a message that says which ids exist.
void validate_id(int id, const char* caller) {
  const int n = device_count();
  if (n == 0)
    throw CudaError(cudaErrorNoDevice, std::string(caller) + "(" + std::to_string(id) +
                                           "): no CUDA device is available on this host");
  if (id < 0 || id >= n)
    throw CudaError(cudaErrorInvalidDevice, std::string(caller) + "(" + std::to_string(id) +
                                                "): device id out of range, this host has " +
                                                std::to_string(n) + " device(s)");
}

int attribute(cudaDeviceAttr attr, int id) {
  int value = 0;
  CUZK_CUDA_CHECK(cudaDeviceGetAttribute(&value, attr, id));
  return value;
}

}  // namespace

DeviceInfo device_info(int id) {
  validate_id(id, "device_info");
  DeviceInfo info;
  info.id = id;
  {
    cudaDeviceProp prop{};
    CUZK_CUDA_CHECK(cudaGetDeviceProperties(&prop, id));
    info.name = prop.name;
    info.total_mem = prop.totalGlobalMem;
  }
  // Attributes rather than cudaDeviceProp fields: they are the stable interface (fields have been
  // removed between CUDA major versions) and each reads exactly one value.
  info.sm_count = attribute(cudaDevAttrMultiProcessorCount, id);
  info.l2_bytes = static_cast<std::size_t>(attribute(cudaDevAttrL2CacheSize, id));
  info.shared_per_block_optin =
      static_cast<std::size_t>(attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin, id));
  info.cc_major = attribute(cudaDevAttrComputeCapabilityMajor, id);
  info.cc_minor = attribute(cudaDevAttrComputeCapabilityMinor, id);
  {
    CurrentDeviceGuard guard(id);
    std::size_t free = 0, total = 0;
    CUZK_CUDA_CHECK(cudaMemGetInfo(&free, &total));
    info.free_mem = free;
  }
  return info;
}

void select_device(int id) {
  validate_id(id, "select_device");
  CUZK_CUDA_CHECK(cudaSetDevice(id));
}

double reset_device(int id, std::chrono::milliseconds patience) {
  select_device(id);
  CUZK_CUDA_CHECK(cudaDeviceReset());
  forget_memory_pool(id);
  // The driver may still be tearing the faulted context down: until it has, a new one is refused as
  // "busy or unavailable". Ask again with growing pauses, within `patience`.
  const auto start = std::chrono::steady_clock::now();
  auto pause = std::chrono::milliseconds(10);
  for (;;) {
    cudaError_t code = cudaSetDevice(id);
    if (code == cudaSuccess) code = cudaFree(nullptr);  // creates the new context now
    if (code == cudaSuccess) break;
    const auto waited = std::chrono::steady_clock::now() - start;
    if (code != cudaErrorDevicesUnavailable || waited + pause > patience)
      throw_error(code,
                  "creating a CUDA context on device " + std::to_string(id) + " after its reset (" +
                      std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(waited).count()) +
                      " ms)",
                  __FILE__, __LINE__);
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::milliseconds(1000));
  }
  HostRegistry::instance().restore_after_reset();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

std::pair<std::size_t, std::size_t> mem_info() {
  std::size_t free = 0, total = 0;
  CUZK_CUDA_CHECK(cudaMemGetInfo(&free, &total));
  int device = 0;
  CUZK_CUDA_CHECK(cudaGetDevice(&device));
  free += pool_slack(device);
  return {free, total};
}

}  // namespace cuzk::cuda
