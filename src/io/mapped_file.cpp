#include "io/mapped_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

#include "io/error.hpp"

namespace cuzk::io {

namespace {

// Closes the descriptor on every exit path of the constructor.
struct FdGuard {
  int fd;
  ~FdGuard() {
    if (fd >= 0) ::close(fd);
  }
};

std::string errno_text(int e) {
  return std::strerror(e);
}

}  // namespace

MappedFile::MappedFile(const std::string& path) {
  FdGuard g{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
  if (g.fd < 0) throw FormatError(path, "cannot open: " + errno_text(errno));
  struct stat st {};
  if (::fstat(g.fd, &st) != 0) throw FormatError(path, "cannot stat: " + errno_text(errno));
  if (S_ISDIR(st.st_mode)) throw FormatError(path, "is a directory, expected a file");

  if (S_ISREG(st.st_mode) && st.st_size > 0) {
    void* p = ::mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, MAP_PRIVATE, g.fd, 0);
    if (p != MAP_FAILED) {
      map_ = p;
      map_len_ = static_cast<std::size_t>(st.st_size);
      // Readers walk sections front to back.
      ::madvise(map_, map_len_, MADV_SEQUENTIAL);
      return;
    }
    // Fall through to plain reads (e.g. a file system without mmap support).
  }

  std::uint8_t chunk[1 << 16];
  for (;;) {
    ssize_t n = ::read(g.fd, chunk, sizeof chunk);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw FormatError(path, "read failed: " + errno_text(errno));
    }
    if (n == 0) break;
    buf_.insert(buf_.end(), chunk, chunk + n);
  }
}

MappedFile::~MappedFile() {
  release();
}

MappedFile::MappedFile(MappedFile&& o) noexcept
    : map_(std::exchange(o.map_, nullptr)), map_len_(std::exchange(o.map_len_, 0)), buf_(std::move(o.buf_)) {}

MappedFile& MappedFile::operator=(MappedFile&& o) noexcept {
  if (this != &o) {
    release();
    map_ = std::exchange(o.map_, nullptr);
    map_len_ = std::exchange(o.map_len_, 0);
    buf_ = std::move(o.buf_);
  }
  return *this;
}

void MappedFile::drop(std::size_t offset, std::size_t length) const noexcept {
  if (!map_ || offset >= map_len_) return;
  const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  const std::size_t begin = (offset + page - 1) / page * page;
  const std::size_t end = std::min(map_len_, offset + length) / page * page;
  if (end > begin) ::madvise(static_cast<std::uint8_t*>(map_) + begin, end - begin, MADV_DONTNEED);
}

void MappedFile::release() noexcept {
  if (map_) ::munmap(map_, map_len_);
  map_ = nullptr;
  map_len_ = 0;
}

}  // namespace cuzk::io
