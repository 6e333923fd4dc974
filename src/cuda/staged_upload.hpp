// StagedUpload: host-to-device copies from pageable memory at page-locked speed.
//
// A cudaMemcpyAsync from pageable memory is staged by the driver through its own bounce buffer, on the
// calling thread: 7.3 GB/s on the H200 host, 8.5 GB/s at best with more threads (`cuzk-bench pcie`), and
// other threads' pageable copies wait behind it (the bellperson prover's H MSM took 0.6 s longer while the
// witness went up beside it, apparently its own small copies waiting behind the driver's staging). A
// StagedUpload copies through two page-locked buffers instead: one is filled on all cores (51 GB/s there)
// while the GPU reads the other (55 GB/s). That is how a proof's own a, b, c (12.9 GB at 32 GiB PoRep) go up
// when nothing pre-staged them: the C ABI's path and the engine's fallback.
//
// The buffers come from a process-wide cache and go back to it, so a proof pays no page-locking (slow) and
// no cudaFreeHost (which waits for the whole device, other workers' kernels included). They are plain host
// memory registered through HostRegistry, so a CUDA context reset re-registers them rather than freeing
// them. When no buffer can be page-locked the copies go from pageable memory as before: slower, same bytes.
#pragma once

#include <cuda_runtime_api.h>

#include <array>
#include <cstddef>
#include <memory>

#include "cuda/device_buffer.hpp"
#include "cuda/event.hpp"
#include "cuda/staging_cache.hpp"

namespace cuzk::cuda {

class StagedUpload {
 public:
  static constexpr std::size_t kBufferBytes = std::size_t(64) << 20;
  // Below this a copy goes straight from pageable memory: staging would not pay for its bookkeeping.
  static constexpr std::size_t kDirectBelow = std::size_t(1) << 20;

  StagedUpload() = default;  // takes its buffers at the first large copy
  // Waits until the GPU has read both buffers, then gives them back to the cache; never throws.
  ~StagedUpload();
  StagedUpload(const StagedUpload&) = delete;
  StagedUpload& operator=(const StagedUpload&) = delete;

  // Queues on `stream` the copy of host[0, bytes) to device[0, bytes). Like cudaMemcpyAsync from pageable
  // memory, it returns once the host bytes have been read (they may change after), and the device bytes
  // are written in `stream`'s order. Host memory that is already page-locked is copied directly (and then,
  // as with any pinned copy, must not change until the stream has passed the copy). Throws CudaError.
  void copy(void* device, const void* host, std::size_t bytes, cudaStream_t stream);

  // host[0, n) to elements [offset, offset + n) of `dst`.
  template <class T>
  void upload(DeviceBuffer<T>& dst, const T* host, std::size_t n, cudaStream_t stream,
              std::size_t offset = 0) {
    detail::check_range("StagedUpload::upload", offset, n, dst.size());
    if (n > 0) copy(dst.data() + offset, host, n * sizeof(T), stream);
  }

  // False when the staging buffers could not be page-locked and copies go from pageable memory.
  bool staged() const noexcept { return !fallback_; }

  // Page-locked staging buffers the process holds (in use or idle): they are never freed, only reused.
  static std::size_t cached_bytes();

 private:
  struct Slot {
    std::unique_ptr<detail::StagingBuffer> buffer;
    Event read{false};     // recorded after the copy that reads this buffer
    bool pending = false;  // a copy from it may still be reading
  };
  bool take_buffers();

  std::array<Slot, 2> slots_;
  unsigned next_ = 0;
  bool fallback_ = false;
};

}  // namespace cuzk::cuda
