#include <stdexcept>
#include <string>

#include "cuda/device_buffer.hpp"
#include "cuda/device_checksum.hpp"
#include "cuda/error.hpp"

namespace cuzk::cuda {

namespace {

__global__ void checksum_kernel(const std::uint64_t* words, std::size_t n, unsigned long long* sum) {
  std::uint64_t acc = 0;
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    acc += checksum_mix(words[i], i);
  // Sum the warp's values, then one atomic per warp.
  for (int d = 16; d > 0; d >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, d);
  if ((threadIdx.x & 31) == 0) atomicAdd(sum, static_cast<unsigned long long>(acc));
}

}  // namespace

std::uint64_t device_checksum(const void* device, std::size_t bytes, cudaStream_t stream) {
  if (bytes % 8 != 0 || reinterpret_cast<std::uintptr_t>(device) % 8 != 0)
    throw std::invalid_argument("device_checksum: " + std::to_string(bytes) +
                                " bytes, not whole aligned words");
  DeviceBuffer<unsigned long long> sum(1, stream);
  sum.memset_async(0, stream);
  int device_id = 0, sms = 0;
  CUZK_CUDA_CHECK(cudaGetDevice(&device_id));
  CUZK_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device_id));
  if (bytes > 0) {
    checksum_kernel<<<sms * 8, 256, 0, stream>>>(static_cast<const std::uint64_t*>(device), bytes / 8,
                                                 sum.data());
    CUZK_CUDA_CHECK(cudaGetLastError());
  }
  unsigned long long out = 0;
  sum.download(&out, 1, stream);
  CUZK_CUDA_CHECK(cudaStreamSynchronize(stream));
  return out;
}

std::uint64_t host_checksum(const void* host, std::size_t bytes) {
  const auto* w = static_cast<const std::uint64_t*>(host);
  std::uint64_t acc = 0;
  for (std::size_t i = 0; i < bytes / 8; ++i) acc += checksum_mix(w[i], i);
  return acc;
}

}  // namespace cuzk::cuda
