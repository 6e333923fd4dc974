#include "io/whole_file.hpp"

#include <fstream>
#include <ios>
#include <iterator>
#include <string>

#include "io/error.hpp"

namespace cuzk::io {

namespace {

template <class Container>
Container read_into(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw FormatError(path, "cannot open");
  try {
    // libstdc++ throws from the iterator for some failures (a directory opens, then its read fails).
    Container out{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    if (in.bad()) throw FormatError(path, "read failed");
    return out;
  } catch (const std::ios_base::failure& e) {
    throw FormatError(path, std::string("read failed: ") + e.what());
  }
}

}  // namespace

std::string read_whole_file(const std::string& path) {
  return read_into<std::string>(path);
}

std::vector<std::uint8_t> read_whole_file_bytes(const std::string& path) {
  return read_into<std::vector<std::uint8_t>>(path);
}

}  // namespace cuzk::io
