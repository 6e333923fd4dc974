// PinnedPool: page-locked host buffers for witness-side vectors, within a byte budget, reused across
// partitions (locking pages is slow: a fresh 2 GiB cudaMallocHost takes longer than the copy it speeds up).
//
// A worker leases a buffer, copies or decodes a witness into it, and uploads from it asynchronously at full
// PCIe bandwidth while another worker computes. A lease the budget (or the OS's locked-memory limit) cannot
// serve is empty: the caller falls back to uploading from pageable memory, slower and otherwise the same.
// Freed buffers stay in the pool for the next lease of their size or smaller, up to the budget; trim() gives
// them back.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>

#include "cuda/pinned_buffer.hpp"

namespace cuzk::cuda {

class PinnedPool {
 public:
  class Lease {
   public:
    Lease() = default;
    ~Lease() { release(); }
    Lease(Lease&& o) noexcept : pool_(std::exchange(o.pool_, nullptr)), buffer_(std::move(o.buffer_)) {}
    Lease& operator=(Lease&& o) noexcept {
      if (this != &o) {
        release();
        pool_ = std::exchange(o.pool_, nullptr);
        buffer_ = std::move(o.buffer_);
      }
      return *this;
    }
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;

    explicit operator bool() const { return buffer_.size() > 0; }
    std::byte* data() { return buffer_.data(); }
    std::size_t bytes() const { return buffer_.size(); }

   private:
    friend class PinnedPool;
    Lease(PinnedPool* pool, PinnedBuffer<std::byte> buffer) : pool_(pool), buffer_(std::move(buffer)) {}
    void release() noexcept;
    PinnedPool* pool_ = nullptr;
    PinnedBuffer<std::byte> buffer_;
  };

  explicit PinnedPool(std::size_t budget) : budget_(budget) {}
  ~PinnedPool() = default;  // the pool must outlive its leases (the engine owns both)

  // A buffer of at least `bytes`; empty when the budget or CUDA cannot give one.
  Lease lease(std::size_t bytes);

  // Frees the idle buffers.
  void trim();

  struct Stats {
    std::size_t budget = 0, held = 0, leased = 0;  // bytes: the limit, all page-locked, of which out on lease
    std::uint64_t leases = 0, refused = 0;
  };
  Stats stats() const;

 private:
  void give_back(PinnedBuffer<std::byte> buffer) noexcept;

  mutable std::mutex mutex_;
  std::size_t budget_;
  std::size_t held_ = 0, leased_ = 0;
  std::uint64_t leases_ = 0, refused_ = 0;
  std::multimap<std::size_t, PinnedBuffer<std::byte>> idle_;  // by size
};

}  // namespace cuzk::cuda
