// The one exception type for malformed or unreadable input files.
//
// Readers never assert or crash on bad bytes: every size, count, offset and value is checked, and a
// failure is reported as a FormatError whose message says which file, where (section and byte offset
// for the binary container, the JSON field for JSON) and what was expected. Callers such as the CLI
// catch this one type to tell "your input is bad" apart from internal errors.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace cuzk::io {

class FormatError : public std::runtime_error {
 public:
  // "<file>: <what>"
  FormatError(const std::string& file, const std::string& what)
      : std::runtime_error(file + ": " + what), file_(file) {}

  // "<file>: section <id> (<name>) at offset <offset>: <what>". The offset counts from the start of
  // the file (not the section) so that it can be looked up directly with a hex dump.
  FormatError(const std::string& file, std::uint32_t section, std::string_view section_name,
              std::uint64_t offset, const std::string& what)
      : std::runtime_error(file + ": section " + std::to_string(section) + " (" + std::string(section_name) +
                           ") at offset " + std::to_string(offset) + ": " + what),
        file_(file),
        section_(section),
        offset_(offset) {}

  const std::string& file() const { return file_; }
  std::optional<std::uint32_t> section() const { return section_; }
  std::optional<std::uint64_t> offset() const { return offset_; }

 private:
  std::string file_;
  std::optional<std::uint32_t> section_;
  std::optional<std::uint64_t> offset_;
};

}  // namespace cuzk::io
