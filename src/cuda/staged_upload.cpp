#include "cuda/staged_upload.hpp"

#include <algorithm>

#include "cuda/error.hpp"
#include "cuda/host_registration.hpp"
#include "cuda/parallel_copy.hpp"
#include "cuda/staging_cache.hpp"

namespace cuzk::cuda {

StagedUpload::~StagedUpload() {
  for (auto& s : slots_) {
    if (s.pending) (void)cudaEventSynchronize(s.read.get());  // an error here was (or will be) seen elsewhere
    StagingCache::instance().give_back(std::move(s.buffer));
  }
}

bool StagedUpload::take_buffers() {
  if (fallback_) return false;
  if (slots_[0].buffer) return true;
  for (auto& s : slots_) {
    s.buffer = StagingCache::instance().take();
    if (!s.buffer) {
      fallback_ = true;
      return false;
    }
  }
  return true;
}

void StagedUpload::copy(void* device, const void* host, std::size_t bytes, cudaStream_t stream) {
  if (bytes == 0) return;
  if (bytes < kDirectBelow || is_page_locked(host) || !take_buffers()) {
    CUZK_CUDA_CHECK(cudaMemcpyAsync(device, host, bytes, cudaMemcpyHostToDevice, stream));
    return;
  }
  auto* out = static_cast<std::byte*>(device);
  const auto* in = static_cast<const std::byte*>(host);
  for (std::size_t done = 0; done < bytes;) {
    Slot& s = slots_[next_];
    next_ ^= 1;
    if (s.pending) s.read.synchronize();  // the GPU has read this buffer's previous chunk
    s.pending = false;
    const std::size_t n = std::min(kBufferBytes, bytes - done);
    // 1 MiB blocks: a 64 MiB chunk spread over every core, while the other buffer's copy runs.
    parallel_copy(s.buffer->memory.get(), in + done, n, std::size_t(1) << 20);
    CUZK_CUDA_CHECK(cudaMemcpyAsync(out + done, s.buffer->memory.get(), n, cudaMemcpyHostToDevice, stream));
    s.read.record(stream);
    s.pending = true;
    done += n;
  }
}

std::size_t StagedUpload::cached_bytes() {
  return StagingCache::instance().held();
}

}  // namespace cuzk::cuda
