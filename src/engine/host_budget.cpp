#include "engine/host_budget.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>

namespace cuzk::engine {

HostMemoryBudget::HostMemoryBudget(std::size_t budget, std::function<std::size_t()> keys)
    : budget_(budget), keys_(std::move(keys)) {}

HostMemoryBudget::Reservation& HostMemoryBudget::Reservation::operator=(Reservation&& o) noexcept {
  if (this != &o) {
    release();
    owner_ = o.owner_;
    bytes_ = o.bytes_;
    o.owner_ = nullptr;
  }
  return *this;
}

void HostMemoryBudget::Reservation::release() {
  if (owner_) owner_->give_back(bytes_);
  owner_ = nullptr;
}

void HostMemoryBudget::give_back(std::size_t bytes) {
  {
    std::lock_guard lock(mutex_);
    reserved_ -= std::min(bytes, reserved_);
    --holders_;
  }
  returned_.notify_all();
}

HostMemoryBudget::Reservation HostMemoryBudget::reserve(std::size_t bytes, const std::function<bool()>& stop,
                                                        double* waited_ms) {
  const auto t0 = std::chrono::steady_clock::now();
  std::unique_lock lock(mutex_);
  auto fits = [&] {
    if (budget_ == 0 || holders_ == 0) return true;
    const std::size_t keys = keys_ ? keys_() : 0;
    return keys + reserved_ + bytes <= budget_;
  };
  bool stopped = false;
  while (!fits()) {
    if (stop && stop()) {
      stopped = true;
      break;
    }
    returned_.wait_for(lock, std::chrono::milliseconds(100));
  }
  if (waited_ms)
    *waited_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  if (stopped) return {};
  reserved_ += bytes;
  ++holders_;
  return Reservation(this, bytes);
}

std::size_t HostMemoryBudget::fitting(std::size_t bytes) const {
  if (budget_ == 0 || bytes == 0) return SIZE_MAX;
  const std::size_t keys = keys_ ? keys_() : 0;
  return std::max<std::size_t>(1, keys < budget_ ? (budget_ - keys) / bytes : 0);
}

std::size_t HostMemoryBudget::reserved() const {
  std::lock_guard lock(mutex_);
  return reserved_;
}

std::size_t auto_host_memory_budget(std::size_t physical_bytes) {
  const std::size_t reserve = std::max(physical_bytes / 10, std::size_t(8) << 30);
  return physical_bytes > reserve ? physical_bytes - reserve : 0;
}

}  // namespace cuzk::engine
