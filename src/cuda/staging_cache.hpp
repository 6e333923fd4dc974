// The process's page-locked staging buffers (StagedUpload::kBufferBytes each), kept once made: page-locking
// is slow and cudaFreeHost waits for the whole device, other workers' kernels included, so a buffer is never
// given back to the OS, only to this cache for the next copy. StagedUpload stages uploads through them and
// download_and_wait small results; StagedUpload::cached_bytes() counts them (the engine's pinned accounting).
#pragma once

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <vector>

namespace cuzk::cuda {

namespace detail {
// One page-locked staging buffer: plain host memory and its HostRegistry lock.
struct StagingBuffer {
  struct Free {
    void operator()(std::byte* p) const noexcept { std::free(p); }
  };
  std::unique_ptr<std::byte, Free> memory;
  std::shared_ptr<void> lock;  // declared after the memory: unlocked before it is freed
};
}  // namespace detail

// Built on first use, after the HostRegistry it pins through, so it is destroyed (and unlocks its pages)
// before that registry.
class StagingCache {
 public:
  static StagingCache& instance();

  // An idle buffer, or a new one; null when none can be page-locked (e.g. the OS's locked-memory limit): the
  // caller then copies through pageable memory.
  std::unique_ptr<detail::StagingBuffer> take();
  void give_back(std::unique_ptr<detail::StagingBuffer> b) noexcept;
  std::size_t held() const;

 private:
  StagingCache();

  mutable std::mutex mutex_;
  std::vector<std::unique_ptr<detail::StagingBuffer>> idle_;
  std::size_t held_ = 0;
};

// A buffer taken from the cache for one scope and given back at its end.
class StagingLease {
 public:
  StagingLease() : buffer_(StagingCache::instance().take()) {}
  ~StagingLease() { StagingCache::instance().give_back(std::move(buffer_)); }
  StagingLease(const StagingLease&) = delete;
  StagingLease& operator=(const StagingLease&) = delete;

  std::byte* data() const noexcept { return buffer_ ? buffer_->memory.get() : nullptr; }

 private:
  std::unique_ptr<detail::StagingBuffer> buffer_;
};

}  // namespace cuzk::cuda
