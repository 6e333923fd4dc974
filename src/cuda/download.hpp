// Small device results a host step needs at once (an MSM's window sums, a CUB select's count, slice bounds),
// copied through one of the process's page-locked staging buffers and waited for. A copy into pageable
// memory is staged by the driver through its own bounce buffer, and such copies queue behind other staged
// copies of the process (StagedUpload's note); a copy into page-locked memory is a plain DMA on the stream.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

#include "cuda/device_buffer.hpp"

namespace cuzk::cuda {

// device[0, bytes) to host[0, bytes), then waits for `stream` (so for everything queued on it before).
// Through pageable memory when `bytes` exceeds a staging buffer or none can be page-locked. Throws CudaError.
void download_and_wait(void* host, const void* device, std::size_t bytes, cudaStream_t stream);

// Elements [offset, offset + n) of `src` to host[0, n), then waits for `stream`.
template <class T>
void download_and_wait(const DeviceBuffer<T>& src, T* host, std::size_t n, cudaStream_t stream,
                       std::size_t offset = 0) {
  detail::check_range("download_and_wait", offset, n, src.size());
  download_and_wait(host, src.data() + offset, n * sizeof(T), stream);
}

}  // namespace cuzk::cuda
