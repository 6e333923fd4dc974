// A whole input file as one read-only byte span.
//
// Regular files are mmap'ed: a proving key can be gigabytes, and the readers copy points straight out
// of the mapping into their final vectors, so mapping avoids holding the file twice. Anything that
// cannot be mapped (pipes, /dev/stdin, empty files) is read into a buffer instead.
//
// Caveat: if another process truncates a mapped file while we read it, the kernel raises SIGBUS.
// Input files are not expected to change under the prover, so this is accepted.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace cuzk::io {

class MappedFile {
 public:
  // Throws FormatError naming the file when it cannot be opened or read.
  explicit MappedFile(const std::string& path);
  // Bytes already in memory (a witness received over the network), read through the same parsers.
  static MappedFile from_bytes(std::vector<std::uint8_t> bytes) {
    MappedFile f;
    f.buf_ = std::move(bytes);
    return f;
  }
  ~MappedFile();
  MappedFile(MappedFile&& o) noexcept;
  MappedFile& operator=(MappedFile&& o) noexcept;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  std::span<const std::uint8_t> bytes() const {
    return map_ ? std::span<const std::uint8_t>(static_cast<const std::uint8_t*>(map_), map_len_)
                : std::span<const std::uint8_t>(buf_);
  }
  std::size_t size() const { return bytes().size(); }

  // Bytes [offset, offset + length) have been decoded and will not be read again: their pages leave this
  // process's resident set (they stay in the page cache, and reading them again maps them back). Without it
  // a 45 GB key counted twice in the daemon's resident memory while it loaded (decoded and mapped), and a
  // 16.7 GB assignment likewise. Whole pages inside the range only; nothing for bytes that are not mapped.
  void drop(std::size_t offset, std::size_t length) const noexcept;

 private:
  MappedFile() = default;
  void release() noexcept;

  void* map_ = nullptr;
  std::size_t map_len_ = 0;
  std::vector<std::uint8_t> buf_;  // used when the file is not mapped
};

}  // namespace cuzk::io
