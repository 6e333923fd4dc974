// io::read_whole_file: every byte (zeros and high bytes included), an empty file as empty, and a clear error
// naming the path for one that cannot be read.
#include <gtest/gtest.h>

#include "io/whole_file.hpp"
#include "unit/io_test_util.hpp"

using namespace cuzk;
using test::TempDir;

TEST(WholeFile, ReadsEveryByte) {
  TempDir dir;
  test::Bytes bytes;
  for (int i = 0; i < 70000; ++i) bytes.push_back(static_cast<std::uint8_t>(i * 151 + (i >> 8)));
  test::write_bytes(dir.file("f.bin"), bytes);
  EXPECT_EQ(io::read_whole_file_bytes(dir.file("f.bin")), bytes);
  EXPECT_EQ(io::read_whole_file(dir.file("f.bin")), std::string(bytes.begin(), bytes.end()));
  test::write_bytes(dir.file("empty"), {});
  EXPECT_TRUE(io::read_whole_file(dir.file("empty")).empty());
}

TEST(WholeFile, AFileThatCannotBeReadIsNamed) {
  TempDir dir;
  for (const std::string& path : {dir.file("missing"), dir.file("")}) {  // the second is the directory
    try {
      io::read_whole_file_bytes(path);
      FAIL() << path;
    } catch (const io::FormatError& e) {
      EXPECT_EQ(e.file(), path);
    }
  }
}
