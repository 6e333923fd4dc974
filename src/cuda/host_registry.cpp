#include "cuda/host_registry.hpp"

#include <iterator>

namespace cuzk::cuda {

HostRegistry& HostRegistry::instance() {
  static HostRegistry registry;
  return registry;
}

std::shared_ptr<void> HostRegistry::pin(const void* ptr, std::size_t bytes, unsigned flags) {
  if (bytes == 0) return nullptr;
  const auto start = reinterpret_cast<std::uintptr_t>(ptr);
  std::lock_guard lock(mutex_);
  auto next = ranges_.lower_bound(start);
  if (next != ranges_.end() && next->first == start) {
    if (next->second.bytes != bytes) return nullptr;  // same start, different range
    ++next->second.holders;
  } else {
    if (next != ranges_.end() && next->first < start + bytes) return nullptr;
    if (next != ranges_.begin()) {
      const auto& prev = *std::prev(next);
      if (prev.first + prev.second.bytes > start) return nullptr;
    }
    // Registered under the lock: a second pin of the same range must find it, not race it.
    ranges_.emplace(start, Entry{HostRegistration(const_cast<void*>(ptr), bytes, flags), 1, flags, bytes});
  }
  // The handle owns no memory; its deleter drops one holder.
  return std::shared_ptr<void>(const_cast<void*>(ptr), [this, start](void*) { release(start); });
}

void HostRegistry::release(std::uintptr_t start) noexcept {
  std::lock_guard lock(mutex_);
  auto it = ranges_.find(start);
  if (it != ranges_.end() && --it->second.holders == 0) ranges_.erase(it);  // unregisters
}

std::size_t HostRegistry::restore_after_reset() {
  std::lock_guard lock(mutex_);
  std::size_t restored = 0;
  for (auto& [start, e] : ranges_) {
    void* ptr = reinterpret_cast<void*>(start);
    if (is_page_locked(ptr)) continue;
    e.registration.abandon();
    try {
      e.registration = HostRegistration(ptr, e.bytes, e.flags);
      ++restored;
    } catch (const CudaError&) {
    }
  }
  return restored;
}

std::size_t HostRegistry::registered_bytes() const {
  std::lock_guard lock(mutex_);
  std::size_t total = 0;
  for (const auto& [start, e] : ranges_) total += e.registration.bytes();
  return total;
}

std::size_t HostRegistry::ranges() const {
  std::lock_guard lock(mutex_);
  return ranges_.size();
}

}  // namespace cuzk::cuda
