// Memory that outlives the process that filled it: the daemon keeps descriptors of it for its worker
// processes (engine.isolation = "process").
//
// Why: a worker process that dies (a sticky CUDA fault, a crash, SIGKILL) takes its device memory with it,
// and its replacement had to upload the 45 GB key of a 32 GiB PoRep again before its first proof (~3 s of
// PCIe and page faults on the mapped key image, the largest part of a restart). A CUDA allocation made
// exportable (cuda/shared_device_memory.hpp) is a file descriptor; the memory lives while any process holds
// that descriptor or a mapping of it. So the worker hands the daemon a descriptor of each device array it
// fills for a key, the daemon (which runs no CUDA code in this mode and so never loses a context) holds it,
// and a replacement asks for it back by name and maps it instead of uploading. A name says what the memory
// holds (circuit, key file version, array); a checksum taken when it was filled is compared on the device
// before the memory is used again, so a replacement never proves with memory a faulting kernel wrote over.
//
// The channel is a SOCK_SEQPACKET socket pair per worker process (one message a packet, the descriptor as
// SCM_RIGHTS): the worker asks, the daemon answers. Requests are small text packets.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace cuzk::io::kept {

// The owner of one file descriptor (closed when it goes).
class UniqueFd {
 public:
  UniqueFd() noexcept = default;
  explicit UniqueFd(int fd) noexcept : fd_(fd) {}
  ~UniqueFd() { reset(); }
  UniqueFd(UniqueFd&& o) noexcept : fd_(o.release()) {}
  UniqueFd& operator=(UniqueFd&& o) noexcept {
    if (this != &o) {
      reset();
      fd_ = o.release();
    }
    return *this;
  }
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  int get() const noexcept { return fd_; }
  int release() noexcept {
    const int fd = fd_;
    fd_ = -1;
    return fd;
  }
  void reset() noexcept;
  explicit operator bool() const noexcept { return fd_ >= 0; }

 private:
  int fd_ = -1;
};

// What is kept under one name: a descriptor of the memory, its size and the checksum taken when filled.
struct Kept {
  UniqueFd fd;
  std::uint64_t bytes = 0;
  std::uint64_t checksum = 0;
};

struct KeeperError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A SOCK_SEQPACKET socket pair for a keeper and its client: [0] the keeper's end, [1] the client's, both
// close-on-exec. Throws KeeperError.
std::pair<UniqueFd, UniqueFd> channel();

// One packet on such a socket, with `fd` attached when >= 0; false when the peer is gone. And one received:
// nullopt at end of stream (an empty packet reads as that too) or on an error; the descriptor that came with
// it into *fd (every other is closed); a packet cut at kMaxPacket, or with more than one descriptor, is
// returned empty, which no request is.
bool send_message(int socket, const std::string& payload, int fd = -1);
std::optional<std::string> receive_message(int socket, UniqueFd* fd);

// The daemon's side: the descriptors, by name. Thread-safe; serve() runs on one thread per worker process.
class Keeper {
 public:
  // `log` gets a line for each array kept, handed back or dropped.
  explicit Keeper(std::string name = "keeper", std::function<void(const std::string&)> log = {});
  Keeper(const Keeper&) = delete;
  Keeper& operator=(const Keeper&) = delete;

  // Answers the requests that arrive on `socket` until the other end closes it (the worker exited or died);
  // what was kept stays. Malformed requests are answered with an error; nothing here throws.
  void serve(int socket);

  // Closes the descriptors of every name that starts with `prefix` ("" = all): their memory is freed once no
  // process maps it. Returns the bytes dropped.
  std::uint64_t drop(const std::string& prefix);
  std::uint64_t retain(const std::vector<std::string>& prefixes);  // drops the names outside them
  std::uint64_t bytes() const;                                     // kept now
  std::size_t entries() const;
  std::uint64_t handed_back() const;  // arrays given to a client that asked for them by name

 private:
  std::string answer(const std::string& request, UniqueFd received, int* send_fd, UniqueFd& dup_holder);

  const std::string name_;
  const std::function<void(const std::string&)> log_;
  mutable std::mutex mutex_;
  std::map<std::string, Kept> kept_;
  std::uint64_t handed_back_ = 0;
};

// The worker's side. Thread-safe (one request at a time). Every call throws KeeperError when the channel is
// broken or the keeper answers with an error.
class Client {
 public:
  explicit Client(UniqueFd socket);
  // A new descriptor of what is kept under `name`, or nullopt when nothing is.
  std::optional<Kept> get(const std::string& name);
  // Hands the keeper its own descriptor of `fd` (this one stays the caller's), replacing what was kept
  // under `name`.
  void keep(const std::string& name, int fd, std::uint64_t bytes, std::uint64_t checksum);
  std::uint64_t drop(const std::string& prefix);  // bytes dropped
  // Drops every name that starts with none of `prefixes` (what no key of this process uses: an earlier
  // process's keys); returns the bytes dropped.
  std::uint64_t retain(const std::vector<std::string>& prefixes);
  std::uint64_t held(const std::string& prefix);  // bytes kept under names starting with `prefix`

 private:
  std::string call(const std::string& request, int send_fd, UniqueFd* received);

  UniqueFd socket_;
  std::mutex mutex_;
};

// The process's client, installed by cuzk-worker when its parent keeps memory for it (--keep-fd); nullptr
// otherwise (every other process uploads as it always did).
void install_client(std::unique_ptr<Client> client);
Client* client();

// Longest name and request accepted.
constexpr std::size_t kMaxName = 1024;
constexpr std::size_t kMaxPacket = 4096;

}  // namespace cuzk::io::kept
