// io::MappedFile::drop: a decoded range's pages leave the process's resident set, and its bytes read back
// the same afterwards (from the page cache). Resident memory from /proc/self/statm.
#include "io/mapped_file.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <span>
#include <vector>

using namespace cuzk;

namespace {

std::size_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::size_t size = 0, resident = 0;
  statm >> size >> resident;
  return resident * static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
}

std::uint64_t sum(std::span<const std::uint8_t> b) {
  return std::accumulate(b.begin(), b.end(), std::uint64_t{0});
}

}  // namespace

TEST(MappedFile, DropLeavesTheResidentSetAndTheBytesReadBackTheSame) {
  const std::size_t mib = std::size_t(1) << 20, bytes = 64 * mib;
  const auto path = std::filesystem::temp_directory_path() / ("cuzk-mapped-" + std::to_string(::getpid()));
  {
    std::vector<std::uint8_t> data(bytes);
    for (std::size_t i = 0; i < bytes; ++i) data[i] = static_cast<std::uint8_t>(i * 2654435761u >> 13);
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(data.data()), bytes);
  }
  const io::MappedFile f(path.string());
  const std::uint64_t expect = sum(f.bytes());  // touches every page: all of them resident now
  const std::size_t before = resident_bytes();
  f.drop(0, bytes / 2 + 123);  // whole pages inside the range only
  const std::size_t after = resident_bytes();
  EXPECT_GE(before - after, bytes / 2 - mib) << before << " -> " << after;
  EXPECT_LE(before - after, bytes / 2 + mib) << before << " -> " << after;
  EXPECT_EQ(sum(f.bytes()), expect);  // from the page cache again
  f.drop(bytes - 10, 1000);           // past the end: clipped, no error
  f.drop(bytes + 5, 10);
  std::filesystem::remove(path);
}
