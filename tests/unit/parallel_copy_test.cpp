// parallel_copy against the bytes it was given: sizes below, at and across its block boundaries.
#include "cuda/parallel_copy.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

namespace cuzk::cuda {
namespace {

TEST(ParallelCopy, CopiesEveryByteAcrossBlocks) {
  std::mt19937_64 rng(11);
  constexpr std::size_t kBlock = 4096;
  for (const std::size_t n :
       {std::size_t(0), std::size_t(1), kBlock - 1, kBlock, kBlock + 1, 37 * kBlock + 5}) {
    std::vector<std::uint8_t> src(n), dst(n + 2, 0xA5);
    std::generate(src.begin(), src.end(), [&] { return static_cast<std::uint8_t>(rng()); });
    parallel_copy(dst.data() + 1, src.data(), n, kBlock);
    EXPECT_TRUE(std::equal(src.begin(), src.end(), dst.begin() + 1)) << n;
    EXPECT_EQ(dst.front(), 0xA5) << n;  // nothing written outside the range
    EXPECT_EQ(dst.back(), 0xA5) << n;
  }
}

}  // namespace
}  // namespace cuzk::cuda
