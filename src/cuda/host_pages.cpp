#include "cuda/host_pages.hpp"

#include <cuda_runtime_api.h>
#include <sys/mman.h>
#include <tbb/parallel_for.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <string>

#include "cuda/error.hpp"

namespace cuzk::cuda {

namespace {

constexpr std::size_t kHuge = std::size_t(2) << 20;

std::size_t page_size() {
  static const std::size_t page = [] {
    const long p = ::sysconf(_SC_PAGESIZE);
    return p > 0 ? static_cast<std::size_t>(p) : std::size_t(4096);
  }();
  return page;
}

}  // namespace

// Whole huge pages from 2 MiB up, whole pages below.
std::size_t host_pages_length(std::size_t bytes) {
  const std::size_t unit = bytes >= kHuge ? kHuge : page_size();
  return (bytes + unit - 1) / unit * unit;
}

void* map_host_pages(std::size_t bytes) {
  const std::size_t length = host_pages_length(bytes);
  const bool huge = length >= kHuge;
  // Over-map by one huge page and trim, so that the range starts on a huge-page boundary.
  const std::size_t span = huge ? length + kHuge : length;
  void* raw = ::mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED)
    throw_error(cudaErrorMemoryAllocation,
                "mmap of " + std::to_string(span) + " bytes for page-locked memory", __FILE__, __LINE__);
  auto* base = static_cast<std::uint8_t*>(raw);
  auto* p = base;
  if (huge) {
    p = reinterpret_cast<std::uint8_t*>((reinterpret_cast<std::uintptr_t>(base) + kHuge - 1) & ~(kHuge - 1));
    if (p > base) ::munmap(base, static_cast<std::size_t>(p - base));
    if (const std::size_t tail = static_cast<std::size_t>(base + span - (p + length)); tail > 0)
      ::munmap(p + length, tail);
    ::madvise(p, length, MADV_HUGEPAGE);  // advice: where the kernel has no huge pages this does nothing
  }
  ::madvise(p, length, MADV_DONTFORK);
  // The first touch allocates and zeroes the pages: on all cores, rather than inside cudaHostRegister's
  // single thread.
  // Every page, in case the kernel gave no huge page somewhere.
  const std::size_t page = page_size(), chunks = (length + kHuge - 1) / kHuge;
  tbb::parallel_for(std::size_t(0), chunks, [&](std::size_t c) {
    const std::size_t end = std::min(length, (c + 1) * kHuge);
    for (std::size_t at = c * kHuge; at < end; at += page) p[at] = 0;
  });
  return p;
}

void unmap_host_pages(void* p, std::size_t bytes) noexcept {
  if (p != nullptr) ::munmap(p, host_pages_length(bytes));
}

namespace {
std::atomic<std::size_t> pinned_buffers{0};
}  // namespace

std::size_t pinned_buffer_bytes() noexcept {
  return pinned_buffers.load();
}
void count_pinned_buffer(std::ptrdiff_t bytes) noexcept {
  pinned_buffers.fetch_add(static_cast<std::size_t>(bytes));  // wraps back for negative values
}

}  // namespace cuzk::cuda
