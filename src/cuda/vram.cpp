#include "cuda/vram.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <mutex>
#include <string>

#include "cuda/error.hpp"
#include "cuda/fault_injection.hpp"

namespace cuzk::cuda {
namespace {

constexpr int kMaxDevices = 64;

struct DeviceAccount {
  std::mutex mutex;
  VramUsage usage;
  std::size_t total = 0;  // the device's memory, read once
};

// Below this, an allocation is checked against the limit only: asking the driver for its free memory
// (cudaMemGetInfo, ~0.1 ms) on each of a proof's many small allocations cost more than 10 % at 2^20.
// cudaMalloc itself still fails cleanly if the device is out.
constexpr std::size_t kCheckFreeFrom = std::size_t(16) << 20;

std::mutex policy_mutex;
VramPolicy policy;
std::array<DeviceAccount, kMaxDevices> accounts;

// This thread's allocations net of its frees (signed: a thread may free what another allocated), and their
// high-water mark, which a ThreadVramPeak lowers to the current value when it starts.
thread_local std::int64_t thread_in_use = 0;
thread_local std::int64_t thread_peak = 0;

DeviceAccount& account(int device) {
  if (device < 0 || device >= kMaxDevices)
    throw CudaError(cudaErrorInvalidDevice, "device ordinal out of range");
  return accounts[static_cast<std::size_t>(device)];
}

std::string mib(std::size_t bytes) {
  return std::to_string(bytes >> 20) + " MiB";
}

// What the policy leaves for one more allocation on `device`, given CUDA's free/total and our in-use.
std::size_t available_given(std::size_t free, std::size_t total, std::size_t in_use, const VramPolicy& p) {
  const std::size_t usable = p.limit ? std::min(p.limit, total) : total;
  const std::size_t by_limit = usable > p.margin + in_use ? usable - p.margin - in_use : 0;
  const std::size_t by_device = free > p.margin ? free - p.margin : 0;
  return std::min(by_limit, by_device);
}

}  // namespace

void set_vram_policy(VramPolicy p) {
  std::lock_guard lock(policy_mutex);
  policy = p;
}

VramPolicy vram_policy() {
  std::lock_guard lock(policy_mutex);
  return policy;
}

VramUsage vram_usage(int device) {
  auto& a = account(device);
  std::lock_guard lock(a.mutex);
  return a.usage;
}

namespace {

// What this process holds on the current device and what an allocation may take there, read together.
struct Room {
  std::size_t in_use = 0, available = 0;
};

Room room_now() {
  int device = 0;
  CUZK_CUDA_CHECK(cudaGetDevice(&device));
  std::size_t free = 0, total = 0;
  CUZK_CUDA_CHECK(cudaMemGetInfo(&free, &total));
  auto& a = account(device);
  std::lock_guard lock(a.mutex);
  return {a.usage.in_use, available_given(free, total, a.usage.in_use, vram_policy())};
}

}  // namespace

std::size_t vram_available() {
  return room_now().available;
}

std::size_t vram_capacity() {
  const Room r = room_now();
  return r.in_use + r.available;
}

void* vram_allocate(std::size_t bytes, int* device) {
  CUZK_CUDA_CHECK(cudaGetDevice(device));
  auto& a = account(*device);
  auto what = [&] { return "cudaMalloc of " + std::to_string(bytes) + " bytes"; };
  if (allocation_faults().fire()) {
    std::lock_guard lock(a.mutex);
    ++a.usage.injected;
    throw CudaError(cudaErrorMemoryAllocation, what() + " failed: injected fault (CUZK_FAULT_ALLOC)");
  }
  const VramPolicy p = vram_policy();
  std::size_t free = SIZE_MAX, total = 0;
  {
    std::lock_guard lock(a.mutex);
    total = a.total;
  }
  if (bytes >= kCheckFreeFrom || total == 0) {
    CUZK_CUDA_CHECK(cudaMemGetInfo(&free, &total));
    std::lock_guard lock(a.mutex);
    a.total = total;
  }
  // The check and the in-use update happen under one lock, so two workers cannot both take the last
  // gigabyte; cudaMalloc itself runs outside it (it can take milliseconds).
  {
    std::lock_guard lock(a.mutex);
    const std::size_t avail = available_given(free, total, a.usage.in_use, p);
    if (bytes > avail) {
      ++a.usage.refused;
      throw CudaError(cudaErrorMemoryAllocation,
                      what() + " refused: " + mib(avail) + " available (VRAM limit " +
                          (p.limit ? mib(p.limit) : std::string("none")) + ", margin " + mib(p.margin) +
                          ", this process holds " + mib(a.usage.in_use) + ", device free " +
                          (free == SIZE_MAX ? std::string("not asked") : mib(free)) + ")");
    }
    a.usage.in_use += bytes;
    a.usage.peak = std::max(a.usage.peak, a.usage.in_use);
    ++a.usage.live_buffers;
  }
  void* ptr = nullptr;
  if (const cudaError_t code = cudaMalloc(&ptr, bytes); code != cudaSuccess) {
    {
      std::lock_guard lock(a.mutex);
      a.usage.in_use -= bytes;
      --a.usage.live_buffers;
      if (classify(code) == CudaError::Kind::out_of_memory) ++a.usage.out_of_memory;
    }
    throw_error(code, what(), __FILE__, __LINE__);
  }
  thread_in_use += static_cast<std::int64_t>(bytes);
  thread_peak = std::max(thread_peak, thread_in_use);
  return ptr;
}

void vram_release(void* ptr, std::size_t bytes, int device) noexcept {
  if (ptr == nullptr) return;
  // cudaFree of a pointer from another device works under unified addressing; the current device is left
  // alone. On a poisoned context it fails, and the memory goes with the context when it is reset.
  if (const cudaError_t code = cudaFree(ptr); code != cudaSuccess) report_release_error(code, "cudaFree");
  thread_in_use -= static_cast<std::int64_t>(bytes);
  if (device < 0 || device >= kMaxDevices) return;
  auto& a = accounts[static_cast<std::size_t>(device)];
  std::lock_guard lock(a.mutex);
  a.usage.in_use -= std::min(bytes, a.usage.in_use);
  if (a.usage.live_buffers > 0) --a.usage.live_buffers;
}

ThreadVramPeak::ThreadVramPeak() : start_(thread_in_use) {
  thread_peak = thread_in_use;
}

std::size_t ThreadVramPeak::bytes() const {
  return static_cast<std::size_t>(std::max<std::int64_t>(0, thread_peak - start_));
}

}  // namespace cuzk::cuda
