#include "cuda/pinned_pool.hpp"

namespace cuzk::cuda {

void PinnedPool::Lease::release() noexcept {
  if (pool_ && buffer_.size() > 0) pool_->give_back(std::move(buffer_));
  pool_ = nullptr;
}

PinnedPool::Lease PinnedPool::lease(std::size_t bytes) {
  std::unique_lock lock(mutex_);
  // The smallest idle buffer that is big enough, unless it wastes more than half of itself.
  if (auto it = idle_.lower_bound(bytes); it != idle_.end() && it->first / 2 <= bytes) {
    PinnedBuffer<std::byte> b = std::move(it->second);
    idle_.erase(it);
    leased_ += b.size();
    ++leases_;
    return Lease(this, std::move(b));
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
  return {budget_, held_, leased_, leases_, refused_};
}

}  // namespace cuzk::cuda
