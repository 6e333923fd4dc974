// Shared by the fuzz harnesses (fuzz/*.cpp, each a libFuzzer LLVMFuzzerTestOneInput): the input as a file for
// the readers that take a path (an anonymous memory file, named /proc/self/fd/N, which they map as they map a
// real one), and the rule for what a reader may throw. A reader refuses bad input with an error derived from
// std::runtime_error (io::FormatError, C1Error, PostVanillaError, …) or std::invalid_argument; anything else
// escaping — std::out_of_range, std::length_error, std::bad_alloc, a logic_error — is a bug the fuzzer
// reports, as are the sanitizers' findings, hangs and the allocation limit.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>

namespace cuzk::fuzz {

class MemoryFile {
 public:
  MemoryFile(const std::uint8_t* data, std::size_t size) : fd_(::memfd_create("cuzk-fuzz", MFD_CLOEXEC)) {
    if (fd_ < 0) throw std::logic_error("memfd_create failed");
    std::size_t done = 0;
    while (done < size) {
      const ssize_t n = ::write(fd_, data + done, size - done);
      if (n <= 0) throw std::logic_error("writing the memory file failed");
      done += static_cast<std::size_t>(n);
    }
    path_ = "/proc/self/fd/" + std::to_string(fd_);
  }
  MemoryFile(const MemoryFile&) = delete;
  MemoryFile& operator=(const MemoryFile&) = delete;
  ~MemoryFile() { ::close(fd_); }
  const std::string& path() const { return path_; }

 private:
  int fd_;
  std::string path_;
};

// Runs `read`; a refusal the reader documents is an answer, not a finding.
template <class F>
void refusal_is_fine(F&& read) {
  try {
    read();
  } catch (const std::invalid_argument&) {
  } catch (const std::runtime_error&) {
  }
}

}  // namespace cuzk::fuzz
