// Host memory to page-lock, obtained the fast way: anonymous memory on transparent huge pages, first touched
// on all cores, then registered with CUDA (cudaHostRegister, through HostRegistry: PinnedBuffer). On an H100
// host (bench/RESULTS.md, "PoRep C2: process isolation against thread isolation") 8.6 GB take 283 ms this way
// against 2,461 ms by cudaMallocHost (which zeroes and locks 4 KiB pages on one thread, and serializes
// concurrent callers), free in 140 ms against 698, and a process killed while holding 25.8 GB of it is reaped
// in 0.5 s against 2.8 s: what a restarted worker process, which takes fresh leases while its predecessor's
// teardown ends, waits for.
#pragma once

#include <cstddef>

namespace cuzk::cuda {

// `bytes` (> 0) of anonymous memory, every page present (touched on all cores), aligned to 2 MiB and on huge
// pages when at least that large, and not inherited by forked children (a fork would otherwise copy pages
// that are page-locked eagerly). Throws CudaError (out_of_memory) when it cannot be mapped.
void* map_host_pages(std::size_t bytes);

// Unmaps what map_host_pages(bytes) returned. Never throws.
void unmap_host_pages(void* p, std::size_t bytes) noexcept;

// The length map_host_pages(bytes) maps: what to page-lock.
std::size_t host_pages_length(std::size_t bytes);

// Bytes of map_host_pages memory page-locked for PinnedBuffers now (their registry locks, whole pages): the
// engine's status tells them apart from the key ranges in the same registry.
std::size_t pinned_buffer_bytes() noexcept;
void count_pinned_buffer(std::ptrdiff_t bytes) noexcept;

}  // namespace cuzk::cuda
