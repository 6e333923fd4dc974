#include "cuda/pinned_pool.hpp"

#include <optional>

namespace cuzk::cuda {

void PinnedPool::Lease::release() noexcept {
  if (pool_ && buffer_.size() > 0) pool_->give_back(std::move(buffer_));
  pool_ = nullptr;
}

PinnedPool::~PinnedPool() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  fill_cv_.notify_all();
  if (filler_.joinable()) filler_.join();
}

PinnedPool::Lease PinnedPool::lease(std::size_t bytes) {
  std::unique_lock lock(mutex_);
  // The smallest idle buffer that is big enough, unless it wastes more than half of itself.
  if (auto it = idle_.lower_bound(bytes); it != idle_.end() && serves(it->first, bytes)) {
    PinnedBuffer<std::byte> b = std::move(it->second);
    idle_.erase(it);
    leased_ += b.size();
    ++leases_;
    return Lease(this, std::move(b));
  }
  if (fill_ == Fill::kInBackground) {
    // One being page-locked would serve it: that one is for a later lease (this one's, or another
    // worker's, which then asks for its own when it finds none).
    for (std::size_t size : fills_queued_or_running_)
      if (serves(size, bytes)) {
        ++deferred_;
        return {};
      }
  }
  // Make room by freeing idle buffers that do not fit this request.
  while (held_ + bytes > budget_ && !idle_.empty()) {
    held_ -= idle_.begin()->first;
    idle_.erase(idle_.begin());
  }
  if (held_ + bytes > budget_) {
    ++refused_;
    return {};
  }
  held_ += bytes;  // reserved before the slow allocation, which runs unlocked
  if (fill_ == Fill::kInBackground) {
    fills_.push_back(bytes);
    fills_queued_or_running_.insert(bytes);
    filling_ += bytes;
    ++deferred_;
    if (!filler_.joinable()) filler_ = std::thread([this] { fill_loop(); });
    lock.unlock();
    fill_cv_.notify_one();
    return {};
  }
  lock.unlock();
  try {
    PinnedBuffer<std::byte> b(bytes);
    std::lock_guard again(mutex_);
    leased_ += bytes;
    ++leases_;
    return Lease(this, std::move(b));
  } catch (const CudaError&) {
    std::lock_guard again(mutex_);
    held_ -= bytes;
    ++refused_;
    return {};
  }
}

void PinnedPool::fill_loop() {
  std::unique_lock lock(mutex_);
  for (;;) {
    fill_cv_.wait(lock, [&] { return stopping_ || !fills_.empty(); });
    if (stopping_) {  // what is still queued is not page-locked at all
      for (std::size_t size : fills_) {
        held_ -= size;
        filling_ -= size;
      }
      fills_.clear();
      fills_queued_or_running_.clear();
      filled_cv_.notify_all();
      return;
    }
    const std::size_t size = fills_.front();
    fills_.pop_front();
    lock.unlock();
    std::optional<PinnedBuffer<std::byte>> b;
    try {
      b.emplace(size);
    } catch (const CudaError&) {  // the OS's locked-memory limit, or a context in trouble
    }
    lock.lock();
    filling_ -= size;
    fills_queued_or_running_.erase(fills_queued_or_running_.find(size));
    if (b) {
      try {
        idle_.emplace(size, std::move(*b));
      } catch (...) {
        held_ -= size;  // freed here instead
      }
    } else {
      held_ -= size;
      ++refused_;
    }
    filled_cv_.notify_all();
  }
}

void PinnedPool::wait_for_fills() {
  std::unique_lock lock(mutex_);
  filled_cv_.wait(lock, [&] { return filling_ == 0; });
}

void PinnedPool::give_back(PinnedBuffer<std::byte> buffer) noexcept {
  std::lock_guard lock(mutex_);
  leased_ -= buffer.size();
  const std::size_t size = buffer.size();
  try {
    idle_.emplace(size, std::move(buffer));
  } catch (...) {
    held_ -= size;  // the buffer is freed here instead
  }
}

void PinnedPool::trim() {
  std::lock_guard lock(mutex_);
  for (const auto& [size, b] : idle_) held_ -= size;
  idle_.clear();
}

PinnedPool::Stats PinnedPool::stats() const {
  std::lock_guard lock(mutex_);
  return {budget_, held_, leased_, filling_, leases_, refused_, deferred_};
}

}  // namespace cuzk::cuda
