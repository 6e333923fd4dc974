// Writer for the snarkjs binary container (see binfile.hpp for the layout).
//
// Sections are streamed: begin_section() writes the id and a placeholder size, end_section() seeks
// back and patches the size, so multi-gigabyte sections never need to be buffered in memory.
// The file is written to "<path>.partial" and renamed over <path> by finish(), so a failed or
// interrupted write never leaves a truncated file under the final name.
//
// Write errors throw std::runtime_error naming the file.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace cuzk::io {

class BinWriter {
 public:
  BinWriter(const std::string& path, std::string_view magic, std::uint32_t version, std::uint32_t n_sections);
  ~BinWriter();  // removes the partial file unless finish() succeeded
  BinWriter(const BinWriter&) = delete;
  BinWriter& operator=(const BinWriter&) = delete;

  void begin_section(std::uint32_t id);
  void end_section();

  void u32(std::uint32_t v) { bytes(&v, 4); }
  void u64(std::uint64_t v) { bytes(&v, 8); }
  void bytes(const void* p, std::size_t n);
  void zeros(std::size_t n);

  // Checks that exactly n_sections were written, flushes, closes and renames into place.
  void finish();

 private:
  [[noreturn]] void fail(const std::string& what) const;

  std::string path_, tmp_path_;
  std::FILE* f_ = nullptr;
  std::uint32_t expected_sections_, written_sections_ = 0;
  bool in_section_ = false;
  long long section_size_pos_ = 0;  // where the current section's u64 size lives
  std::uint64_t section_bytes_ = 0;
  bool finished_ = false;
};

}  // namespace cuzk::io
