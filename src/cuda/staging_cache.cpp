#include "cuda/staging_cache.hpp"

#include "cuda/error.hpp"
#include "cuda/host_registry.hpp"
#include "cuda/staged_upload.hpp"

namespace cuzk::cuda {

StagingCache& StagingCache::instance() {
  static StagingCache cache;
  return cache;
}

StagingCache::StagingCache() {
  HostRegistry::instance();
}

std::unique_ptr<detail::StagingBuffer> StagingCache::take() {
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

void StagingCache::give_back(std::unique_ptr<detail::StagingBuffer> b) noexcept {
  if (!b) return;
  std::lock_guard lock(mutex_);
  try {
    idle_.push_back(std::move(b));
  } catch (...) {  // no room to keep it: it is unlocked and freed here
    held_ -= StagedUpload::kBufferBytes;
  }
}

std::size_t StagingCache::held() const {
  std::lock_guard lock(mutex_);
  return held_;
}

}  // namespace cuzk::cuda
