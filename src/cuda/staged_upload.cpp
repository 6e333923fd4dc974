#include "cuda/staged_upload.hpp"

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <vector>

#include "cuda/error.hpp"
#include "cuda/host_registration.hpp"
#include "cuda/host_registry.hpp"
#include "cuda/parallel_copy.hpp"

namespace cuzk::cuda {

namespace {

// The process's staging buffers, idle ones kept for the next upload. Built on first use, after the
// HostRegistry it pins through, so it is destroyed (and unlocks its pages) before that registry.
class StagingCache {
 public:
  static StagingCache& instance() {
    static StagingCache cache;
    return cache;
  }

  std::unique_ptr<detail::StagingBuffer> take() {
    {
      std::lock_guard lock(mutex_);
      if (!idle_.empty()) {
        auto b = std::move(idle_.back());
        idle_.pop_back();
        return b;
      }
    }
    auto b = std::make_unique<detail::StagingBuffer>();
    b->memory.reset(static_cast<std::byte*>(std::aligned_alloc(4096, StagedUpload::kBufferBytes)));
    if (!b->memory) return nullptr;
    try {
      b->lock = HostRegistry::instance().pin(b->memory.get(), StagedUpload::kBufferBytes);
    } catch (const CudaError&) {  // e.g. the OS's locked-memory limit: the caller copies from pageable memory
    }
    if (!b->lock) return nullptr;
    std::lock_guard lock(mutex_);
    held_ += StagedUpload::kBufferBytes;
    return b;
  }

  void give_back(std::unique_ptr<detail::StagingBuffer> b) noexcept {
    if (!b) return;
    std::lock_guard lock(mutex_);
    try {
      idle_.push_back(std::move(b));
    } catch (...) {  // no room to keep it: it is unlocked and freed here
      held_ -= StagedUpload::kBufferBytes;
    }
  }

  std::size_t held() const {
    std::lock_guard lock(mutex_);
    return held_;
  }

 private:
  StagingCache() { HostRegistry::instance(); }

  mutable std::mutex mutex_;
  std::vector<std::unique_ptr<detail::StagingBuffer>> idle_;
  std::size_t held_ = 0;
};

}  // namespace

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
