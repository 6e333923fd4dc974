// A whole (small) file read into memory: proofs, spooled requests, certificates, C1 JSON. Large inputs
// (keys, witnesses) are mapped instead (mapped_file.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cuzk::io {

// The file's bytes. Throws FormatError (the path, and "cannot open" or "read failed") when it cannot be read
// to its end; an empty file is returned empty, for the caller to judge.
std::string read_whole_file(const std::string& path);
std::vector<std::uint8_t> read_whole_file_bytes(const std::string& path);

}  // namespace cuzk::io
