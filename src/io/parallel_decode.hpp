// Decoding the records of a large vector (PoRep scale: hundreds of millions) in parallel blocks, while still
// reporting the first bad one as a serial reader would: the lowest index whose record does not decode.
#pragma once

#include <tbb/parallel_for.h>

#include <atomic>
#include <cstdint>

namespace cuzk::io {

// Calls decode(i) for i in [0, n) in parallel blocks; decode returns false for a bad record. Returns the
// lowest such i, or n when every record decoded (records past a bad one in its block may be skipped).
template <class Decode>
std::uint64_t decode_parallel(std::uint64_t n, Decode&& decode, std::uint64_t grain = 1 << 14) {
  std::atomic<std::uint64_t> first_bad{n};
  tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, n, grain), [&](const auto& range) {
    for (std::uint64_t i = range.begin(); i != range.end(); ++i) {
      if (decode(i)) continue;
      for (std::uint64_t seen = first_bad.load(); i < seen && !first_bad.compare_exchange_weak(seen, i);) {
      }
      return;  // the rest of this block cannot hold a lower one
    }
  });
  return first_bad.load();
}

}  // namespace cuzk::io
