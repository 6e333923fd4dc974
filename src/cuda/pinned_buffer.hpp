// PinnedBuffer<T>: the owner of n elements of page-locked (pinned) host memory.
//
// Pinned memory is what makes host↔device copies truly asynchronous and full-bandwidth: the GPU DMAs
// straight from it, while pageable memory is staged through a driver bounce buffer. It is a scarce
// resource (it cannot be swapped and is slow to allocate), so it is for long-lived staging areas and
// proving keys, not for scratch. On 64-bit hosts (unified addressing, all CUDA 13 supports) an allocation
// counts as pinned for every device, not just the current one.
//
// The memory is mapped by map_host_pages (huge pages touched on all cores) and page-locked through
// HostRegistry: 8.7× faster than cudaMallocHost (cuda/host_pages.hpp), and a device reset that takes the
// registration with its context leaves the memory valid and has the registry lock it again. Move-only; the
// destructor gives it back and never throws.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <utility>

#include "cuda/checked_size.hpp"
#include "cuda/error.hpp"
#include "cuda/host_pages.hpp"
#include "cuda/host_registry.hpp"

namespace cuzk::cuda {

template <class T>
class PinnedBuffer {
  static_assert(std::is_trivially_copyable_v<T>, "PinnedBuffer holds trivially copyable types only");

 public:
  PinnedBuffer() noexcept = default;

  // Allocates n elements (zeroed, though callers must not rely on it); n == 0 allocates nothing. Throws
  // CudaError (out_of_memory when the OS refuses to map or lock more memory, no_device without a driver) or
  // std::length_error.
  explicit PinnedBuffer(std::size_t n) {
    if (n == 0) return;
    const std::size_t bytes = detail::checked_bytes<T>(n);
    void* p = map_host_pages(bytes);
    try {
      lock_ = HostRegistry::instance().pin(p, host_pages_length(bytes));
      if (!lock_)  // a fresh mapping overlaps no registered range; were it to, it must not go unlocked
        throw_error(cudaErrorHostMemoryAlreadyRegistered, "page-locking a new mapping", __FILE__, __LINE__);
    } catch (...) {
      unmap_host_pages(p, bytes);
      throw;
    }
    data_ = static_cast<T*>(p);
    size_ = n;
    count_pinned_buffer(static_cast<std::ptrdiff_t>(host_pages_length(bytes)));
  }

  ~PinnedBuffer() { reset(); }

  PinnedBuffer(PinnedBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)),
        size_(std::exchange(other.size_, 0)),
        lock_(std::move(other.lock_)) {}
  PinnedBuffer& operator=(PinnedBuffer&& other) noexcept {
    if (this != &other) {
      reset();
      data_ = std::exchange(other.data_, nullptr);
      size_ = std::exchange(other.size_, 0);
      lock_ = std::move(other.lock_);
    }
    return *this;
  }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;

  // Frees the memory now; the buffer becomes empty. cudaHostUnregister waits for the device, so copies
  // still reading or writing the memory finish first.
  void reset() noexcept {
    if (data_ == nullptr) return;
    lock_.reset();  // the registry unregisters the range (its only holder)
    count_pinned_buffer(-static_cast<std::ptrdiff_t>(host_pages_length(size_ * sizeof(T))));
    unmap_host_pages(data_, size_ * sizeof(T));
    data_ = nullptr;
    size_ = 0;
  }

  T* data() noexcept { return data_; }
  const T* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }
  std::size_t bytes() const noexcept { return size_ * sizeof(T); }
  bool empty() const noexcept { return size_ == 0; }

  std::span<T> span() noexcept { return {data_, size_}; }
  std::span<const T> span() const noexcept { return {data_, size_}; }
  T& operator[](std::size_t i) noexcept { return data_[i]; }
  const T& operator[](std::size_t i) const noexcept { return data_[i]; }
  T* begin() noexcept { return data_; }
  T* end() noexcept { return data_ + size_; }
  const T* begin() const noexcept { return data_; }
  const T* end() const noexcept { return data_ + size_; }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
  std::shared_ptr<void> lock_;  // HostRegistry's page-lock of the mapping
};

}  // namespace cuzk::cuda
