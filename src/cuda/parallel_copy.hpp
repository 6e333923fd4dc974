// A large host-to-host copy split over the cores, for filling page-locked buffers: pre-staging copies a
// partition's input into a pinned lease before its GPU region (12.9 GB of a, b, c for a 32 GiB PoRep
// partition: seconds on one core, which two workers per GPU cannot hide behind a ~3 s GPU region), and
// StagedUpload fills its staging buffers (11.5 GB/s on one core of the H200 host, 51 GB/s on all 16).
#pragma once

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstddef>
#include <cstring>

namespace cuzk::cuda {

inline void parallel_copy(void* dst, const void* src, std::size_t bytes,
                          std::size_t block = std::size_t(16) << 20) {
  auto* out = static_cast<std::byte*>(dst);
  const auto* in = static_cast<const std::byte*>(src);
  const std::size_t blocks = (bytes + block - 1) / block;
  if (blocks <= 1) {
    if (bytes) std::memcpy(out, in, bytes);
    return;
  }
  tbb::parallel_for(std::size_t(0), blocks, [&](std::size_t b) {
    const std::size_t from = b * block;
    std::memcpy(out + from, in + from, std::min(block, bytes - from));
  });
}

}  // namespace cuzk::cuda
