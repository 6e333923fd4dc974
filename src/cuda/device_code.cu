#include <cuda_runtime_api.h>

#include <cstdlib>
#include <string>

#include "cuda/current_device_guard.hpp"
#include "cuda/device.hpp"
#include "cuda/device_code.hpp"
#include "cuda/error.hpp"
#include "ff/bls12_381.hpp"
#include "ff/mont_fp64.hpp"

namespace cuzk::cuda {

namespace {

// Compiled for every architecture of the build, like every other kernel: what it reports is what the
// field code beside it was compiled for.
// Its answer goes to a module variable rather than an allocation, so that the probe never meets the
// allocation faults tests inject (cuda/fault_injection.hpp) nor a device too full to allocate.
__device__ int probe_answer[2];
__global__ void probe_kernel() {
#if defined(__CUDA_ARCH__)
  probe_answer[0] = __CUDA_ARCH__;
  probe_answer[1] = ff::fp64::kUseFp64<ff::bls12_381::FqParams> ? 1 : 0;
#endif
}

}  // namespace

std::string DeviceCode::describe() const {
  const std::string sm = "sm_" + std::to_string(cc_major) + std::to_string(cc_minor);
  std::string code = jit()
                         ? "compute_" + std::to_string(ptx_version) + " PTX compiled by the driver for " + sm
                         : "sm_" + std::to_string(binary_version) + " machine code";
  return code + ", " + (fp64_multiply ? "FP64-pipe" : "integer") + " multiply";
}

DeviceCode device_code(int id) {
  if (id < 0 || id >= device_count())
    throw CudaError(cudaErrorInvalidDevice, "device_code(" + std::to_string(id) + "): this host has " +
                                                std::to_string(device_count()) + " device(s)");
  const CurrentDeviceGuard guard(id);
  DeviceCode c;
  cudaDeviceProp prop{};
  CUZK_CUDA_CHECK(cudaGetDeviceProperties(&prop, id));
  c.cc_major = prop.major;
  c.cc_minor = prop.minor;
  cudaFuncAttributes attr{};
  CUZK_CUDA_CHECK(cudaFuncGetAttributes(&attr, probe_kernel));  // loads the module: the JIT, if any
  c.binary_version = attr.binaryVersion;
  c.ptx_version = attr.ptxVersion;
  int host[2] = {0, 0};
  probe_kernel<<<1, 1>>>();
  CUZK_CUDA_CHECK(cudaGetLastError());
  CUZK_CUDA_CHECK(cudaMemcpyFromSymbol(host, probe_answer, sizeof(host)));  // waits for the kernel
  c.code_arch = host[0];
  c.fp64_multiply = host[1] != 0;
  return c;
}

std::string ensure_jit_cache_size() {
  if (const char* set = std::getenv("CUDA_CACHE_MAXSIZE")) return set;
  ::setenv("CUDA_CACHE_MAXSIZE", "1073741824", 0);
  return "1073741824";
}

const char* build_architectures() {
  return CUZK_CUDA_ARCHITECTURES_STRING;
}

}  // namespace cuzk::cuda
