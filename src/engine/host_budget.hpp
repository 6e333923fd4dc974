// Host memory for the witnesses in flight: each partition a worker synthesizes (or reads) holds its whole
// assignment until its proof is done, 16 GiB at 32 GiB PoRep (a, b, c over the 2^27 domain and [inputs,
// aux]). Beside a 44 GiB key, three or four workers' witnesses are what takes a 128 GiB host (Filecoin's
// minimum for C2) past its memory. The budget holds those bytes: a worker reserves its partition's witness
// before making it and waits while the budget, less the keys the repository holds, has no room; one
// witness is always let through, so a budget smaller than a single witness slows the engine down to one
// partition at a time rather than stopping it. Thread-safe.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>

namespace cuzk::engine {

class HostMemoryBudget {
 public:
  // `budget`: bytes for keys and witnesses together; `keys()`: what the keys hold now (read on every
  // reservation: keys load and unload while the engine runs). budget 0: no limit.
  HostMemoryBudget(std::size_t budget, std::function<std::size_t()> keys);

  // A reservation, returned on destruction.
  class Reservation {
   public:
    Reservation() = default;
    Reservation(Reservation&& o) noexcept : owner_(o.owner_), bytes_(o.bytes_) { o.owner_ = nullptr; }
    Reservation& operator=(Reservation&& o) noexcept;
    Reservation(const Reservation&) = delete;
    Reservation& operator=(const Reservation&) = delete;
    ~Reservation() { release(); }
    void release();
    std::size_t bytes() const { return owner_ ? bytes_ : 0; }

   private:
    friend class HostMemoryBudget;
    Reservation(HostMemoryBudget* owner, std::size_t bytes) : owner_(owner), bytes_(bytes) {}
    HostMemoryBudget* owner_ = nullptr;
    std::size_t bytes_ = 0;
  };

  // Waits until `bytes` fit beside the keys and the witnesses reserved already, or none is reserved, or
  // `stop()` says to give up (checked every 100 ms and whenever a reservation is returned; then the
  // reservation is empty). *waited_ms: how long it waited.
  Reservation reserve(std::size_t bytes, const std::function<bool()>& stop, double* waited_ms = nullptr);

  // How many witnesses of `bytes` fit beside the keys now (at least 1), for the engine's log line.
  std::size_t fitting(std::size_t bytes) const;
  std::size_t budget() const { return budget_; }
  std::size_t reserved() const;

 private:
  void give_back(std::size_t bytes);

  const std::size_t budget_;
  const std::function<std::size_t()> keys_;
  mutable std::mutex mutex_;
  std::condition_variable returned_;
  std::size_t reserved_ = 0;
  std::size_t holders_ = 0;
};

// The default budget (engine.host_memory_budget = "auto"): physical memory less what the system and the
// daemon's own code and buffers need beside keys and witnesses (a tenth, at least 8 GiB); 0 when unknown.
std::size_t auto_host_memory_budget(std::size_t physical_bytes);

}  // namespace cuzk::engine
