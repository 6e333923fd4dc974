#include "io/key_image.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <tbb/parallel_for.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>

namespace cuzk::io::key_image {

namespace {

constexpr char kMagic[8] = {'C', 'U', 'Z', 'K', 'I', 'M', 'G', '1'};
constexpr std::uint32_t kKeyImageVersion = 1;

std::string errno_text() {
  return std::strerror(errno);
}

std::size_t align_up(std::size_t v, std::size_t a) {
  return (v + a - 1) / a * a;
}

// FNV-1a over the header's bytes: a damaged or half-written header is refused, not trusted.
std::uint64_t fnv1a(const std::uint8_t* p, std::size_t n) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (std::size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}

// A little-endian cursor over the header page.
struct Out {
  std::uint8_t* p;
  std::size_t at = 0;
  void bytes(const void* v, std::size_t n) {
    if (at + n > kHeaderBytes) throw ImageError("key image header: the key's fields do not fit in 64 KiB");
    if (n == 0) return;  // as In::bytes
    std::memcpy(p + at, v, n);
    at += n;
  }
  template <class T>
  void put(T v) {
    bytes(&v, sizeof v);
  }
};
struct In {
  const std::uint8_t* p;
  std::size_t end;
  const std::string& path;
  std::size_t at = 0;
  void bytes(void* v, std::size_t n) {
    if (n > end - at) throw ImageError(path + ": key image header truncated");
    if (n == 0) return;  // v may be an empty vector's data(): null, which memcpy must not get
    std::memcpy(v, p + at, n);
    at += n;
  }
  template <class T>
  T get() {
    T v{};
    bytes(&v, sizeof v);
    return v;
  }
};

}  // namespace

SourceIdentity identify(const std::filesystem::path& key_file) {
  struct stat st {};
  if (::stat(key_file.c_str(), &st) != 0)
    throw ImageError("cannot examine the key file " + key_file.string() + ": " + errno_text());
  return {static_cast<std::uint64_t>(st.st_size),
          static_cast<std::uint64_t>(st.st_mtim.tv_sec) * 1000000000ull +
              static_cast<std::uint64_t>(st.st_mtim.tv_nsec),
          static_cast<std::uint64_t>(st.st_ino)};
}

namespace {

// MAP_POPULATE faults a mapping in on the calling thread alone: 2.4 s for a 45 GB image in /dev/shm on an
// H100 host (bench/RESULTS.md, `cuzk-bench key-image`), which a restarted worker process waits for before
// its first proof. Split over the cores, each chunk with MADV_POPULATE_READ (Linux 5.14) or, where the kernel
// has none, a read of each of its pages.
void populate_on_all_cores(std::uint8_t* data, std::size_t bytes) {
  constexpr std::size_t kChunk = std::size_t(64) << 20;
  const long page_size = ::sysconf(_SC_PAGESIZE);
  const std::size_t page = page_size > 0 ? static_cast<std::size_t>(page_size) : 4096;
  tbb::parallel_for(std::size_t(0), (bytes + kChunk - 1) / kChunk, [&](std::size_t c) {
    const std::size_t from = c * kChunk, len = std::min(kChunk, bytes - from);
#ifdef MADV_POPULATE_READ
    if (::madvise(data + from, len, MADV_POPULATE_READ) == 0) return;
#endif
    const volatile std::uint8_t* bytes_read = data;  // volatile: each read happens
    for (std::size_t at = from; at < from + len; at += page) (void)bytes_read[at];
  });
}

}  // namespace

Mapping::Mapping(const std::filesystem::path& path, std::size_t bytes, bool create, bool populate) {
  fd_ = ::open(path.c_str(), create ? (O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC) : (O_RDWR | O_CLOEXEC), 0600);
  if (fd_ < 0) throw ImageError("cannot open the key image " + path.string() + ": " + errno_text());
  try {
    if (create) {
      // Reserved, not merely sized: on tmpfs a sparse file's pages are found missing only when written
      // through the mapping, as a SIGBUS that would kill the process.
      if (const int e = ::posix_fallocate(fd_, 0, static_cast<off_t>(bytes)); e != 0)
        throw ImageError("cannot reserve " + std::to_string(bytes >> 20) + " MiB for the key image " +
                         path.string() + ": " + std::strerror(e));
    } else {
      struct stat st {};
      if (::fstat(fd_, &st) != 0) throw ImageError("cannot examine " + path.string() + ": " + errno_text());
      bytes = static_cast<std::size_t>(st.st_size);
      if (bytes < kHeaderBytes) throw ImageError(path.string() + ": too short for a key image");
    }
    void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, 0);
    if (p == MAP_FAILED) throw ImageError("cannot map the key image " + path.string() + ": " + errno_text());
    data_ = static_cast<std::uint8_t*>(p);
    size_ = bytes;
    if (populate) populate_on_all_cores(data_, size_);
  } catch (...) {
    ::close(fd_);
    throw;
  }
}

Mapping::~Mapping() {
  if (data_) ::munmap(data_, size_);
  if (fd_ >= 0) ::close(fd_);
}

void write_header(std::uint8_t* at, const Header& h) {
  std::memset(at, 0, kHeaderBytes);
  Out o{at};
  o.bytes(kMagic, sizeof kMagic);
  o.put(kKeyImageVersion);
  o.put(static_cast<std::uint32_t>(h.kind));
  o.put(h.source.size), o.put(h.source.mtime_ns), o.put(h.source.inode);
  o.put(h.file_bytes);
  o.put(static_cast<std::uint32_t>(h.fixed.size()));
  o.put(static_cast<std::uint32_t>(h.arrays.size()));
  o.bytes(h.fixed.data(), h.fixed.size());
  for (const ArrayEntry& e : h.arrays)
    o.put(e.offset), o.put(e.count), o.put(e.element_bytes), o.put(e.reserved);
  const std::uint64_t sum = fnv1a(at, o.at);
  o.put(sum);
}

Header read_header(const std::uint8_t* at, std::size_t file_bytes, const std::string& path) {
  In in{at, kHeaderBytes, path};
  char magic[8];
  in.bytes(magic, sizeof magic);
  if (std::memcmp(magic, kMagic, sizeof magic) != 0) throw ImageError(path + ": not a cuzk key image");
  if (const auto v = in.get<std::uint32_t>(); v != kKeyImageVersion)
    throw ImageError(path + ": key image version " + std::to_string(v) + ", this build reads " +
                     std::to_string(kKeyImageVersion));
  Header h;
  h.kind = static_cast<KeyKind>(in.get<std::uint32_t>());
  h.source.size = in.get<std::uint64_t>();
  h.source.mtime_ns = in.get<std::uint64_t>();
  h.source.inode = in.get<std::uint64_t>();
  h.file_bytes = in.get<std::uint64_t>();
  const auto fixed = in.get<std::uint32_t>(), arrays = in.get<std::uint32_t>();
  if (fixed > kHeaderBytes || arrays > kHeaderBytes / sizeof(ArrayEntry))
    throw ImageError(path + ": key image header damaged (field counts)");
  h.fixed.resize(fixed);
  in.bytes(h.fixed.data(), fixed);
  h.arrays.resize(arrays);
  for (ArrayEntry& e : h.arrays) {
    e.offset = in.get<std::uint64_t>();
    e.count = in.get<std::uint64_t>();
    e.element_bytes = in.get<std::uint32_t>();
    e.reserved = in.get<std::uint32_t>();
  }
  const std::size_t summed = in.at;
  if (in.get<std::uint64_t>() != fnv1a(at, summed))
    throw ImageError(path + ": key image header damaged (checksum)");
  if (h.file_bytes != file_bytes)
    throw ImageError(path + ": key image is " + std::to_string(file_bytes) + " bytes, its header says " +
                     std::to_string(h.file_bytes));
  for (const ArrayEntry& e : h.arrays)
    if (e.element_bytes == 0 || e.offset < kHeaderBytes || e.offset > file_bytes ||
        e.count > (file_bytes - e.offset) / e.element_bytes)
      throw ImageError(path + ": key image array outside the file");
  return h;
}

Builder::Builder(std::filesystem::path final_path, std::size_t capacity)
    : final_(std::move(final_path)), temp_(final_.string() + ".tmp-" + std::to_string(::getpid())) {
  std::error_code ec;
  std::filesystem::remove(temp_, ec);  // a leftover of an earlier process with this pid
  mapping_ = std::make_shared<Mapping>(temp_, kHeaderBytes + align_up(capacity, kArrayAlign), true);
}

Builder::~Builder() {
  if (!sealed_) {
    std::error_code ec;
    std::filesystem::remove(temp_, ec);
  }
}

std::pair<void*, std::shared_ptr<void>> Builder::allocate(std::size_t bytes, std::size_t align) {
  std::lock_guard lock(mutex_);
  const std::size_t at = align_up(used_, std::max(align, kArrayAlign));
  if (at + bytes > mapping_->size())
    throw ImageError("key image " + final_.string() + ": the key needs more than the " +
                     std::to_string(mapping_->size() >> 20) + " MiB reserved for it");
  used_ = at + bytes;
  return {mapping_->data() + at, mapping_};
}

ArrayEntry Builder::place(const void* data, std::size_t count, std::size_t element_bytes, std::size_t align) {
  const auto* p = static_cast<const std::uint8_t*>(data);
  const std::size_t bytes = count * element_bytes;
  if (count && p >= mapping_->data() + kHeaderBytes && p + bytes <= mapping_->data() + used_)
    return {static_cast<std::uint64_t>(p - mapping_->data()), count,
            static_cast<std::uint32_t>(element_bytes), 0};
  auto [to, keeper] = allocate(bytes, align);
  if (bytes) std::memcpy(to, data, bytes);
  return {static_cast<std::uint64_t>(static_cast<std::uint8_t*>(to) - mapping_->data()), count,
          static_cast<std::uint32_t>(element_bytes), 0};
}

void Builder::seal(KeyKind kind, const SourceIdentity& source, std::vector<std::uint8_t> fixed,
                   std::vector<ArrayEntry> arrays) {
  const std::size_t file_bytes = align_up(used_, kArrayAlign);
  write_header(mapping_->data(), {kind, source, file_bytes, std::move(fixed), std::move(arrays)});
  // The room reserved beyond the arrays goes back to the file system; the mapping keeps its length, and
  // nothing touches its pages past the end.
  if (::ftruncate(mapping_->fd(), static_cast<off_t>(file_bytes)) != 0)
    throw ImageError("cannot trim the key image " + temp_.string() + ": " + errno_text());
  std::error_code ec;
  std::filesystem::rename(temp_, final_, ec);
  if (ec) throw ImageError("cannot put the key image in place at " + final_.string() + ": " + ec.message());
  sealed_ = true;
}

std::pair<std::shared_ptr<Mapping>, Header> open_image(const std::filesystem::path& path, bool populate) {
  auto mapping = std::make_shared<Mapping>(path, 0, false, populate);
  Header h = read_header(mapping->data(), mapping->size(), path.string());
  return {std::move(mapping), std::move(h)};
}

Header peek_header(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw ImageError("cannot open the key image " + path.string() + ": " + errno_text());
  std::vector<std::uint8_t> page(kHeaderBytes);
  struct stat st {};
  const bool stated = ::fstat(fd, &st) == 0;
  const ssize_t got = ::pread(fd, page.data(), page.size(), 0);
  ::close(fd);
  if (!stated || got != static_cast<ssize_t>(page.size()))
    throw ImageError(path.string() + ": too short for a key image");
  return read_header(page.data(), static_cast<std::size_t>(st.st_size), path.string());
}

const ArrayEntry& Reader::next(std::size_t element_bytes, std::size_t align) {
  if (array_at >= header.arrays.size()) fail("holds fewer arrays than this key has");
  const ArrayEntry& e = header.arrays[array_at++];
  if (e.element_bytes != element_bytes)
    fail("array " + std::to_string(array_at - 1) + " has " + std::to_string(e.element_bytes) +
         "-byte elements, this build's are " + std::to_string(element_bytes) +
         " bytes (another build's image)");
  if (e.offset % align != 0) fail("array " + std::to_string(array_at - 1) + " is misaligned");
  return e;
}

void Reader::fail(const std::string& what) const {
  throw ImageError(path + ": key image " + what);
}

}  // namespace cuzk::io::key_image
