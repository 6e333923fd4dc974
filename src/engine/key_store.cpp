#include "engine/key_store.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace cuzk::engine {

namespace {

std::string mib_text(std::size_t bytes) {
  return std::to_string(bytes >> 20) + " MiB";
}

constexpr const char* kPrefix = "cuzk-keys-";

}  // namespace

KeyStore::KeyStore(std::filesystem::path dir, std::function<void(const std::string&)> log)
    : dir_(std::move(dir)), log_(std::move(log)) {
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  if (!std::filesystem::is_directory(dir_))
    throw std::runtime_error("the key store " + dir_.string() + " is not a directory it can make");
}

KeyStore::Lock::Lock(const KeyStore& store, const std::string& id) {
  const auto path = store.dir_ / (id + ".lock");
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd_ < 0)
    throw io::key_image::ImageError("cannot open the key store's lock " + path.string() + ": " +
                                    std::strerror(errno));
  while (::flock(fd_, LOCK_EX) != 0)
    if (errno != EINTR) {
      const int e = errno;
      ::close(fd_);
      throw io::key_image::ImageError("cannot lock " + path.string() + ": " + std::strerror(e));
    }
}

KeyStore::Lock::~Lock() {
  ::close(fd_);
}  // closing releases the lock

std::size_t KeyStore::capacity_for(std::size_t file_bytes) {
  return file_bytes + file_bytes / 8 + (std::size_t(1) << 20);
}

std::size_t KeyStore::free_bytes() const {
  struct statvfs fs {};
  if (::statvfs(dir_.c_str(), &fs) != 0) return 0;
  return static_cast<std::size_t>(fs.f_bavail) * fs.f_frsize;
}

std::string KeyStore::no_room(std::size_t bytes) const {
  const std::size_t free = free_bytes();
  if (free >= bytes + io::key_image::kHeaderBytes) return {};
  return dir_.string() + " has " + mib_text(free) + " free and the key needs up to " + mib_text(bytes) +
         " (raise the size of its file system, e.g. /dev/shm's, or set engine.key_store to a larger one)";
}

void KeyStore::discard(const std::string& id, const std::string& why) {
  if (log_) log_("cuzk: key store: circuit " + id + ": image not used (" + why + "); decoding it again");
  std::error_code ec;
  std::filesystem::remove(image_path(id), ec);
}

void KeyStore::read_privately(const std::string& id, const std::string& why) {
  if (log_)
    log_("cuzk: key store: circuit " + id + ": " + why +
         "; this worker process reads the key into its own memory (a restart reads it again)");
}

void KeyStore::built(const std::string& id, const std::filesystem::path& path) {
  std::error_code ec;
  const auto bytes = std::filesystem::file_size(path, ec);
  if (log_)
    log_("cuzk: key store: circuit " + id + ": key decoded into the shared image " + path.string() + " (" +
         mib_text(ec ? 0 : bytes) + ")");
}

void KeyStore::mapped(const std::string& id, const std::filesystem::path& path) {
  if (log_)
    log_("cuzk: key store: circuit " + id + ": mapped the shared image " + path.string() +
         " (the key file was not read)");
}

std::optional<io::key_image::KeyKind> KeyStore::image_kind(const std::string& id,
                                                           const std::filesystem::path& key_file) const {
  try {
    const auto header = io::key_image::peek_header(image_path(id));
    if (header.source == io::key_image::identify(key_file)) return header.kind;
  } catch (const io::key_image::ImageError&) {  // none, or not usable: the key file decides
  }
  return std::nullopt;
}

void KeyStore::remove(const std::string& id) {
  const Lock lock(*this, id);  // not under a build in progress
  std::error_code ec;
  std::filesystem::remove(image_path(id), ec);
}

std::size_t KeyStore::bytes() const {
  std::size_t total = 0;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir_, ec))
    if (e.path().extension() == ".key") total += e.file_size(ec);
  return total;
}

std::filesystem::path KeyStore::create_for_this_process(const std::filesystem::path& parent) {
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(parent, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(kPrefix, 0) != 0) continue;
    pid_t pid = 0;
    try {
      std::size_t used = 0;
      pid = static_cast<pid_t>(std::stol(name.substr(std::strlen(kPrefix)), &used));
      if (used != name.size() - std::strlen(kPrefix)) continue;
    } catch (const std::exception&) {
      continue;
    }
    if (pid > 0 && pid != ::getpid() && ::kill(pid, 0) != 0 && errno == ESRCH) remove_store(entry.path());
  }
  const auto dir = parent / (kPrefix + std::to_string(::getpid()));
  std::filesystem::create_directories(dir, ec);
  if (!std::filesystem::is_directory(dir))
    throw std::runtime_error("cannot make the key store " + dir.string() + ": " + ec.message());
  return dir;
}

void KeyStore::remove_store(const std::filesystem::path& dir) {
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}

}  // namespace cuzk::engine
