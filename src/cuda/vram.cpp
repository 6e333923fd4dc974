#include "cuda/vram.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
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
  std::size_t total = 0;           // the device's memory, read once
  cudaMemPool_t pool = nullptr;    // stream-ordered allocations; made on first use
  std::uint64_t pool_context = 1;  // raised at each reset: allocations of an older one died with it
  bool pool_unsupported = false;   // the device has no memory pools: stream-ordered means cudaMalloc
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
  free += pool_slack(device);
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

namespace {

// Counts `bytes` against the current device's account (*device set), or throws CudaError out_of_memory when
// a fault is injected or the policy refuses. The check and the update happen under one lock, so two workers
// cannot both take the last gigabyte; the allocation itself runs outside it (it can take milliseconds).
DeviceAccount& admit(std::size_t bytes, int* device, const std::string& what) {
  CUZK_CUDA_CHECK(cudaGetDevice(device));
  auto& a = account(*device);
  if (allocation_faults().fire()) {
    std::lock_guard lock(a.mutex);
    ++a.usage.injected;
    throw CudaError(cudaErrorMemoryAllocation, what + " failed: injected fault (CUZK_FAULT_ALLOC)");
  }
  const VramPolicy p = vram_policy();
  std::size_t free = SIZE_MAX, total = 0;
  {
    std::lock_guard lock(a.mutex);
    total = a.total;
  }
  if (bytes >= kCheckFreeFrom || total == 0) {
    CUZK_CUDA_CHECK(cudaMemGetInfo(&free, &total));
    free += pool_slack(*device);
    std::lock_guard lock(a.mutex);
    a.total = total;
  }
  std::lock_guard lock(a.mutex);
  const std::size_t avail = available_given(free, total, a.usage.in_use, p);
  if (bytes > avail) {
    ++a.usage.refused;
    throw CudaError(cudaErrorMemoryAllocation,
                    what + " refused: " + mib(avail) + " available (VRAM limit " +
                        (p.limit ? mib(p.limit) : std::string("none")) + ", margin " + mib(p.margin) +
                        ", this process holds " + mib(a.usage.in_use) + ", device free " +
                        (free == SIZE_MAX ? std::string("not asked") : mib(free)) + ")");
  }
  a.usage.in_use += bytes;
  a.usage.peak = std::max(a.usage.peak, a.usage.in_use);
  ++a.usage.live_buffers;
  return a;
}

// Undoes admit() after CUDA refused the allocation, and throws its error.
[[noreturn]] void refuse(DeviceAccount& a, std::size_t bytes, cudaError_t code, const std::string& what) {
  {
    std::lock_guard lock(a.mutex);
    a.usage.in_use -= bytes;
    --a.usage.live_buffers;
    if (classify(code) == CudaError::Kind::out_of_memory) ++a.usage.out_of_memory;
  }
  throw_error(code, what, __FILE__, __LINE__);
}

void count_on_thread(std::int64_t bytes) {
  thread_in_use += bytes;
  thread_peak = std::max(thread_peak, thread_in_use);
}

void uncount(std::size_t bytes, int device) noexcept {
  thread_in_use -= static_cast<std::int64_t>(bytes);
  if (device < 0 || device >= kMaxDevices) return;
  auto& a = accounts[static_cast<std::size_t>(device)];
  std::lock_guard lock(a.mutex);
  a.usage.in_use -= std::min(bytes, a.usage.in_use);
  if (a.usage.live_buffers > 0) --a.usage.live_buffers;
}

// The device's pool, made on first use. It keeps the memory it has taken (release threshold: no limit), as a
// caching allocator does: with CUDA's default of 0 it gave everything back at each synchronisation and mapped
// it again (zeroed) on the next allocation, and the classification, which synchronises between its small
// allocations, took 50 ms instead of 8 at K = 24. What it holds unused counts as free (pool_slack), and a
// cudaMalloc that does not fit has the pool trimmed first (vram_allocate). An allocation never waits for
// another stream's frees to complete (internal dependencies off), because that stream is another worker's.
// The pool comes with its context, read under the same lock, so an allocation is never stamped with a context
// newer than the pool it came from. {nullptr, 0} where the device has no memory pools.
struct PoolRef {
  cudaMemPool_t pool = nullptr;
  std::uint64_t context = 0;
};
PoolRef pool_of(int device) {
  auto& a = account(device);
  std::lock_guard lock(a.mutex);
  if (a.pool != nullptr) return {a.pool, a.pool_context};
  if (a.pool_unsupported) return {};
  int supported = 0;
  CUZK_CUDA_CHECK(cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, device));
  if (!supported) {
    a.pool_unsupported = true;
    return {};
  }
  cudaMemPoolProps props;
  std::memset(&props, 0, sizeof props);
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = device;
  cudaMemPool_t pool = nullptr;
  CUZK_CUDA_CHECK(cudaMemPoolCreate(&pool, &props));
  std::uint64_t threshold = UINT64_MAX;
  int no = 0;
  CUZK_CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
  CUZK_CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolReuseAllowInternalDependencies, &no));
  a.pool = pool;
  return {pool, a.pool_context};
}

// The device's pool if one was made (nullptr otherwise, or for an ordinal out of range); never makes one.
cudaMemPool_t existing_pool(int device) noexcept {
  if (device < 0 || device >= kMaxDevices) return nullptr;
  auto& a = accounts[static_cast<std::size_t>(device)];
  std::lock_guard lock(a.mutex);
  return a.pool;
}

// Whether `context` is the device's pool context now (false for an ordinal out of range).
bool is_current_pool_context(int device, std::uint64_t context) noexcept {
  if (device < 0 || device >= kMaxDevices) return false;
  auto& a = accounts[static_cast<std::size_t>(device)];
  std::lock_guard lock(a.mutex);
  return context == a.pool_context;
}

// Memory the pool holds after frees that completed goes back to CUDA, for a cudaMalloc that did not fit.
bool trim_pool(int device) noexcept {
  cudaMemPool_t pool = existing_pool(device);
  return pool != nullptr && cudaMemPoolTrimTo(pool, 0) == cudaSuccess;
}

}  // namespace

void* vram_allocate(std::size_t bytes, int* device) {
  const std::string what = "cudaMalloc of " + std::to_string(bytes) + " bytes";
  auto& a = admit(bytes, device, what);
  void* ptr = nullptr;
  cudaError_t code = cudaMalloc(&ptr, bytes);
  if (code == cudaErrorMemoryAllocation && pool_slack(*device) > 0 && trim_pool(*device)) {
    (void)cudaGetLastError();  // the failed cudaMalloc's error, not sticky
    code = cudaMalloc(&ptr, bytes);
  }
  if (code != cudaSuccess) refuse(a, bytes, code, what);
  count_on_thread(static_cast<std::int64_t>(bytes));
  return ptr;
}

void vram_release(void* ptr, std::size_t bytes, int device) noexcept {
  if (ptr == nullptr) return;
  // cudaFree of a pointer from another device works under unified addressing; the current device is left
  // alone. On a poisoned context it fails, and the memory goes with the context when it is reset.
  if (const cudaError_t code = cudaFree(ptr); code != cudaSuccess) report_release_error(code, "cudaFree");
  uncount(bytes, device);
}

void vram_admit(std::size_t bytes, int* device, const std::string& what) {
  (void)admit(bytes, device, what);
  count_on_thread(static_cast<std::int64_t>(bytes));
}

void vram_admit_failed(std::size_t bytes, int device, cudaError_t code, const std::string& what) {
  thread_in_use -= static_cast<std::int64_t>(bytes);
  refuse(account(device), bytes, code, what);
}

void vram_count_mapped(std::size_t bytes, int* device) {
  CUZK_CUDA_CHECK(cudaGetDevice(device));
  auto& a = account(*device);
  {
    std::lock_guard lock(a.mutex);
    a.usage.in_use += bytes;
    a.usage.peak = std::max(a.usage.peak, a.usage.in_use);
    ++a.usage.live_buffers;
  }
  count_on_thread(static_cast<std::int64_t>(bytes));
}

void vram_uncount(std::size_t bytes, int device) noexcept {
  uncount(bytes, device);
}

bool stream_ordered_allocation() {
  static const bool on = [] {
    const char* v = std::getenv("CUZK_STREAM_ORDERED_ALLOC");
    return v == nullptr || std::string(v) != "0";
  }();
  return on;
}

void* vram_allocate_on(std::size_t bytes, cudaStream_t stream, int* device, std::uint64_t* context) {
  int current = 0;
  CUZK_CUDA_CHECK(cudaGetDevice(&current));
  const PoolRef ref = stream_ordered_allocation() ? pool_of(current) : PoolRef{};
  *context = ref.context;
  if (ref.pool == nullptr) return vram_allocate(bytes, device);
  const std::string what = "cudaMallocAsync of " + std::to_string(bytes) + " bytes";
  auto& a = admit(bytes, device, what);
  void* ptr = nullptr;
  cudaError_t code = cudaMallocFromPoolAsync(&ptr, bytes, ref.pool, stream);
  if (code == cudaErrorMemoryAllocation) {
    // The stream's own frees may not have completed yet: once they have, the pool reuses their memory, or
    // gives back what it holds in pieces too small, so that it can grow by one piece of this size.
    (void)cudaGetLastError();
    if (cudaStreamSynchronize(stream) == cudaSuccess) {
      trim_pool(current);
      code = cudaMallocFromPoolAsync(&ptr, bytes, ref.pool, stream);
    }
  }
  if (code != cudaSuccess) refuse(a, bytes, code, what);
  count_on_thread(static_cast<std::int64_t>(bytes));
  return ptr;
}

void vram_release_on(void* ptr, std::size_t bytes, int device, cudaStream_t stream,
                     std::uint64_t context) noexcept {
  if (ptr == nullptr) return;
  if (is_current_pool_context(device, context)) {
    if (const cudaError_t code = cudaFreeAsync(ptr, stream); code != cudaSuccess)
      report_release_error(code, "cudaFreeAsync");
  }
  uncount(bytes, device);
}

std::size_t pool_slack(int device) {
  cudaMemPool_t pool = existing_pool(device);
  if (pool == nullptr) return 0;
  std::uint64_t reserved = 0, used = 0;
  if (cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, &reserved) != cudaSuccess ||
      cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used) != cudaSuccess)
    return 0;
  return reserved > used ? static_cast<std::size_t>(reserved - used) : 0;
}

void forget_memory_pool(int device) noexcept {
  if (device < 0 || device >= kMaxDevices) return;
  auto& a = accounts[static_cast<std::size_t>(device)];
  std::lock_guard lock(a.mutex);
  a.pool = nullptr;
  ++a.pool_context;
}

ThreadVramPeak::ThreadVramPeak() : start_(thread_in_use) {
  thread_peak = thread_in_use;
}

std::size_t ThreadVramPeak::bytes() const {
  return static_cast<std::size_t>(std::max<std::int64_t>(0, thread_peak - start_));
}

}  // namespace cuzk::cuda
