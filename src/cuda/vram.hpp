// The one allocator for device memory: every cudaMalloc of the project goes through vram_allocate (via
// DeviceBuffer), which knows how much this process may still take on each device.
//
// The original system failed when two workers each planned as if they had the whole 16 GiB card. Here an
// allocation is refused (CudaError, kind out_of_memory, before CUDA is asked) when it would leave less
// than `margin` bytes free on the device, or take this process's device memory beyond `limit`. The limit
// lets a large GPU behave like a small card in tests, and lets an operator leave room for other
// processes. Refusals, injected failures (cuda/fault_injection.hpp) and CUDA's own out-of-memory all look
// the same to callers, who then fall back to a smaller-footprint plan.
//
// In-use bytes are counted per device and returned by every DeviceBuffer destructor, so a job's memory is
// back to its baseline when the job's buffers are gone: the engine and the gpu tests check that.
//
// Stream-ordered allocations (vram_allocate_on) come from one memory pool per device and are freed on their
// stream. cudaFree waits for all work on the device, the other workers' uploads and kernels included: a 2^26
// MSM beside another thread's 4 GiB upload took 64-76 % longer only because its own frees waited for that
// upload (bench/RESULTS.md "Stream-ordered allocation"). A pool free waits for nothing. The pool keeps the
// memory it has taken, like a caching allocator: what it holds unused counts as free here (pool_slack), so
// the account and the planners see the same room as with cudaFree, and a cudaMalloc that does not fit has the
// pool give its unused memory back first.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace cuzk::cuda {

struct VramPolicy {
  std::size_t limit = 0;                        // bytes this process may hold per device; 0: the whole device
  std::size_t margin = std::size_t(512) << 20;  // bytes always left free on the device
};

// Process-wide; set before the first allocation (the daemon does it from its configuration).
void set_vram_policy(VramPolicy policy);
VramPolicy vram_policy();

struct VramUsage {
  std::size_t in_use = 0;           // bytes this process holds on the device now
  std::size_t peak = 0;             // the most it held at once
  std::size_t live_buffers = 0;     // allocations not yet freed
  std::uint64_t refused = 0;        // allocations refused by the limit or margin
  std::uint64_t injected = 0;       // allocations failed on purpose (fault injection)
  std::uint64_t out_of_memory = 0;  // allocations CUDA itself refused
};
VramUsage vram_usage(int device);

// Bytes an allocation on the current device may take now: within the limit and leaving the margin free.
std::size_t vram_available();

// What this process may hold on the current device in all: in_use + vram_available(), from one snapshot.
// Summing the two calls instead over-counts whatever another thread frees between them (pre-staging, admitted
// by that sum while the proof in progress freed a buffer, took room the proof still needed).
std::size_t vram_capacity();

// cudaMalloc on the current device under the policy; returns the pointer and sets *device. Throws
// CudaError (out_of_memory when refused, injected or failed for lack of memory). bytes > 0.
void* vram_allocate(std::size_t bytes, int* device);

// cudaFree of a vram_allocate pointer; never throws (a failure is reported once on stderr).
void vram_release(void* ptr, std::size_t bytes, int device) noexcept;

// Device memory allocated outside cudaMalloc and counted here all the same: exportable allocations
// (cuda/shared_device_memory.hpp), made with CUDA's virtual memory calls. vram_admit checks and counts
// `bytes` on the current device as vram_allocate does before calling CUDA (and throws as it does);
// vram_admit_failed undoes that after CUDA refused, and throws CUDA's error as CudaError. vram_count_mapped
// counts memory that is already on the device (allocated by another process, mapped into this one): never
// refused. vram_uncount undoes either once the memory is unmapped.
void vram_admit(std::size_t bytes, int* device, const std::string& what);
[[noreturn]] void vram_admit_failed(std::size_t bytes, int device, cudaError_t code, const std::string& what);
void vram_count_mapped(std::size_t bytes, int* device);
void vram_uncount(std::size_t bytes, int device) noexcept;

// Like vram_allocate, from the device's pool in `stream`'s order (cudaMallocFromPoolAsync): the memory may be
// used by work on `stream`, or on other streams ordered after this call by an event. Falls back to
// vram_allocate when stream-ordered allocation is off (CUZK_STREAM_ORDERED_ALLOC=0) or unsupported. *context
// is the pool's context (its generation on the device, never 0) for vram_release_on, or 0 when it fell back.
void* vram_allocate_on(std::size_t bytes, cudaStream_t stream, int* device, std::uint64_t* context);

// cudaFreeAsync of a vram_allocate_on pointer on `stream`: the memory is reused once `stream` reaches this
// point, so all work using it must be on `stream` or ordered before it. Never throws. A pointer from a
// context that was reset since (`context` no longer the device's) is only uncounted: its memory went with
// that context, and its stream's handle names nothing any more.
void vram_release_on(void* ptr, std::size_t bytes, int device, cudaStream_t stream,
                     std::uint64_t context) noexcept;

// Whether vram_allocate_on uses the pool (CUZK_STREAM_ORDERED_ALLOC, read once; on by default).
bool stream_ordered_allocation();

// Bytes the device's pool holds and no allocation uses (freed, not yet given back to CUDA). They count as
// free memory in every room computed here and in cuda::mem_info.
std::size_t pool_slack(int device);

// After cudaDeviceReset (cuda::reset_device): the pool went with the old context; the next stream-ordered
// allocation creates a new one, in a new pool context, and buffers of the old one are not freed.
void forget_memory_pool(int device) noexcept;

// The most device memory this thread's allocations held at once, net of its frees, since the scope began:
// what one proof really took (a proof allocates and frees its buffers on its worker's thread, while other
// workers' allocations land on theirs). The engine learns each circuit's per-proof need from it, because
// an estimate that is short by a few hundred MiB is exactly how a second worker's pre-staging ran a small
// card out of memory.
class ThreadVramPeak {
 public:
  ThreadVramPeak();
  std::size_t bytes() const;  // the peak above this thread's in-use bytes at the start

 private:
  std::int64_t start_;
};

}  // namespace cuzk::cuda
