// PinnedPool: page-locked host buffers for witness-side vectors, within a byte budget, reused across
// partitions (locking pages is slow, even the fast way of cuda/host_pages.hpp: 30 GB/s, under the copy's 40).
//
// A worker leases a buffer, copies or decodes a witness into it, and uploads from it asynchronously at full
// PCIe bandwidth while another worker computes. A lease the budget (or the OS's locked-memory limit) cannot
// serve is empty: the caller falls back to uploading from pageable memory, slower and otherwise the same.
// Freed buffers stay in the pool for the next lease of their size or smaller, up to the budget; trim() gives
// them back.
//
// Filling in the background (the engine's mode): a lease no idle buffer fits is refused at once, and the
// pool page-locks a buffer of that size on its own thread for a later lease. Page-locking is slow (a fresh
// worker's first two 32 GiB PoRep leases, 2 × 17 GB, took 16.7 and 18.2 s where a reused one takes none), and
// a partition is better served uploading from pageable memory through StagedUpload at the same bus speed
// than waiting for it: only its pre-staging is lost. So a new or replacement worker's first partitions never
// wait for page-locking.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <thread>

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

  enum class Fill {
    kOnDemand,      // a lease no idle buffer fits page-locks a new one on the caller's thread
    kInBackground,  // …is refused at once, and a buffer of its size is page-locked on the pool's thread
  };
  explicit PinnedPool(std::size_t budget, Fill fill = Fill::kOnDemand) : budget_(budget), fill_(fill) {}
  ~PinnedPool();  // the pool must outlive its leases (the engine owns both); waits for a background fill

  // A buffer of at least `bytes`; empty when the budget or CUDA cannot give one, or (kInBackground) while
  // one that fits is being page-locked.
  Lease lease(std::size_t bytes);

  // Frees the idle buffers.
  void trim();

  // Blocks until the background fills asked for so far are done (tests; a clean shutdown).
  void wait_for_fills();

  struct Stats {
    std::size_t budget = 0, held = 0, leased = 0;  // bytes: the limit, all page-locked, of which out on lease
    std::size_t filling = 0;                       // bytes being page-locked in the background (in held)
    std::uint64_t leases = 0, refused = 0;
    std::uint64_t deferred = 0;  // refused while a buffer for them is page-locked in the background
  };
  Stats stats() const;

 private:
  void give_back(PinnedBuffer<std::byte> buffer) noexcept;
  // Whether a buffer of `size` may serve a lease of `bytes`: big enough, wasting at most half of itself.
  static bool serves(std::size_t size, std::size_t bytes) { return size >= bytes && size / 2 <= bytes; }
  void fill_loop();  // the background thread

  mutable std::mutex mutex_;
  std::size_t budget_;
  const Fill fill_;
  std::size_t held_ = 0, leased_ = 0;
  std::uint64_t leases_ = 0, refused_ = 0, deferred_ = 0;
  std::multimap<std::size_t, PinnedBuffer<std::byte>> idle_;  // by size
  std::deque<std::size_t> fills_;                             // sizes waiting for the background thread
  std::multiset<std::size_t> fills_queued_or_running_;        // and the one it page-locks now
  std::size_t filling_ = 0;                                   // their bytes
  std::condition_variable fill_cv_, filled_cv_;
  bool stopping_ = false;
  std::thread filler_;  // started by the first background fill
};

}  // namespace cuzk::cuda
