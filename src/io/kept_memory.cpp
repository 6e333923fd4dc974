#include "io/kept_memory.hpp"

#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <vector>

namespace cuzk::io::kept {

void UniqueFd::reset() noexcept {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

std::pair<UniqueFd, UniqueFd> channel() {
  int sv[2];
  if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0)
    throw KeeperError(std::string("socketpair for the memory keeper failed: ") + std::strerror(errno));
  return {UniqueFd(sv[0]), UniqueFd(sv[1])};
}

bool send_message(int socket, const std::string& payload, int fd) {
  iovec iov{const_cast<char*>(payload.data()), payload.size()};
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
  if (fd >= 0) {
    msg.msg_control = control;
    msg.msg_controllen = sizeof control;
    cmsghdr* c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    std::memcpy(CMSG_DATA(c), &fd, sizeof fd);
  }
  for (;;) {
    const ssize_t k = ::sendmsg(socket, &msg, MSG_NOSIGNAL);
    if (k < 0 && errno == EINTR) continue;
    return k == static_cast<ssize_t>(payload.size());
  }
}

std::optional<std::string> receive_message(int socket, UniqueFd* fd) {
  std::string payload(kMaxPacket, '\0');
  iovec iov{payload.data(), payload.size()};
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * 4)] = {};
  msg.msg_control = control;
  msg.msg_controllen = sizeof control;
  ssize_t k = 0;
  do {
    k = ::recvmsg(socket, &msg, MSG_CMSG_CLOEXEC);
  } while (k < 0 && errno == EINTR);
  if (k <= 0) return std::nullopt;
  // Every descriptor that came is owned here, so none leaks whatever the request was.
  std::vector<UniqueFd> fds;
  for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c != nullptr; c = CMSG_NXTHDR(&msg, c)) {
    if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
    const std::size_t n = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
    for (std::size_t i = 0; i < n; ++i) {
      int f = -1;
      std::memcpy(&f, CMSG_DATA(c) + i * sizeof(int), sizeof f);
      fds.emplace_back(f);
    }
  }
  if (fd && fds.size() == 1) *fd = std::move(fds[0]);
  if ((msg.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) != 0 || fds.size() > 1) return std::string();
  payload.resize(static_cast<std::size_t>(k));
  return payload;
}

namespace {

std::vector<std::string> split_lines(const std::string& s) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (;;) {
    const auto end = s.find('\n', start);
    out.push_back(s.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) return out;
    start = end + 1;
  }
}

std::optional<std::uint64_t> parse_u64(const std::string& s) {
  std::uint64_t v = 0;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

bool valid_name(const std::string& name) {
  return !name.empty() && name.size() <= kMaxName && name.find('\n') == std::string::npos;
}

std::string gib(std::uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f GiB", static_cast<double>(bytes) / double(std::uint64_t(1) << 30));
  return buf;
}

}  // namespace

Keeper::Keeper(std::string name, std::function<void(const std::string&)> log)
    : name_(std::move(name)), log_(std::move(log)) {}

void Keeper::serve(int socket) {
  for (;;) {
    UniqueFd received;
    const auto request = receive_message(socket, &received);
    if (!request) return;
    int send_fd = -1;
    UniqueFd dup_holder;
    std::string reply;
    try {
      reply = answer(*request, std::move(received), &send_fd, dup_holder);
    } catch (const std::exception& e) {
      reply = std::string("error\n") + e.what();
      send_fd = -1;
    }
    if (!send_message(socket, reply, send_fd)) return;
  }
}

std::string Keeper::answer(const std::string& request, UniqueFd received, int* send_fd,
                           UniqueFd& dup_holder) {
  const auto f = split_lines(request);
  const std::string& op = f[0];
  if (op == "get" && f.size() == 2 && valid_name(f[1])) {
    std::lock_guard lock(mutex_);
    const auto it = kept_.find(f[1]);
    if (it == kept_.end()) return "none";
    dup_holder = UniqueFd(::fcntl(it->second.fd.get(), F_DUPFD_CLOEXEC, 0));
    if (!dup_holder) return std::string("error\ncannot duplicate a kept descriptor: ") + std::strerror(errno);
    *send_fd = dup_holder.get();
    ++handed_back_;
    if (log_) log_("cuzk: " + name_ + ": handed back " + f[1] + " (" + gib(it->second.bytes) + ")");
    return "ok\n" + std::to_string(it->second.bytes) + "\n" + std::to_string(it->second.checksum);
  }
  if (op == "keep" && f.size() == 4 && valid_name(f[1])) {
    const auto bytes = parse_u64(f[2]), checksum = parse_u64(f[3]);
    if (!bytes || !checksum) return "error\nkeep: malformed size or checksum";
    if (!received) return "error\nkeep: no descriptor came with the request";
    {
      std::lock_guard lock(mutex_);
      kept_[f[1]] = Kept{std::move(received), *bytes, *checksum};
    }
    if (log_)
      log_("cuzk: " + name_ + ": keeping " + f[1] + " (" + gib(*bytes) + ") for the next worker process");
    return "ok";
  }
  if (op == "retain" && f.size() >= 1) {
    std::vector<std::string> prefixes(f.begin() + 1, f.end());
    for (const auto& p : prefixes)
      if (p.empty() || p.size() > kMaxName) return "error\nretain: empty or overlong prefix";
    return "ok\n" + std::to_string(retain(prefixes));
  }
  if ((op == "drop" || op == "held") && f.size() == 2 && f[1].size() <= kMaxName) {
    if (op == "drop") return "ok\n" + std::to_string(drop(f[1]));
    std::lock_guard lock(mutex_);
    std::uint64_t total = 0;
    for (auto it = kept_.lower_bound(f[1]); it != kept_.end() && it->first.starts_with(f[1]); ++it)
      total += it->second.bytes;
    return "ok\n" + std::to_string(total);
  }
  return "error\nmalformed request to the memory keeper";
}

std::uint64_t Keeper::drop(const std::string& prefix) {
  std::uint64_t total = 0;
  std::size_t n = 0;
  {
    std::lock_guard lock(mutex_);
    for (auto it = kept_.lower_bound(prefix); it != kept_.end() && it->first.starts_with(prefix);) {
      total += it->second.bytes;
      ++n;
      it = kept_.erase(it);
    }
  }
  if (n > 0 && log_)
    log_("cuzk: " + name_ + ": dropped " + std::to_string(n) + " kept array(s), " + gib(total) +
         (prefix.empty() ? "" : " (" + prefix + "*)"));
  return total;
}

std::uint64_t Keeper::retain(const std::vector<std::string>& prefixes) {
  std::uint64_t total = 0;
  std::size_t n = 0;
  {
    std::lock_guard lock(mutex_);
    for (auto it = kept_.begin(); it != kept_.end();) {
      bool used = false;
      for (const auto& p : prefixes) used = used || it->first.starts_with(p);
      if (used) {
        ++it;
        continue;
      }
      total += it->second.bytes;
      ++n;
      it = kept_.erase(it);
    }
  }
  if (n > 0 && log_)
    log_("cuzk: " + name_ + ": dropped " + std::to_string(n) +
         " kept array(s) of keys no longer on the device, " + gib(total));
  return total;
}

std::uint64_t Keeper::bytes() const {
  std::lock_guard lock(mutex_);
  std::uint64_t total = 0;
  for (const auto& [name, k] : kept_) total += k.bytes;
  return total;
}

std::size_t Keeper::entries() const {
  std::lock_guard lock(mutex_);
  return kept_.size();
}

std::uint64_t Keeper::handed_back() const {
  std::lock_guard lock(mutex_);
  return handed_back_;
}

Client::Client(UniqueFd socket) : socket_(std::move(socket)) {}

std::string Client::call(const std::string& request, int send_fd, UniqueFd* received) {
  std::lock_guard lock(mutex_);
  if (!send_message(socket_.get(), request, send_fd))
    throw KeeperError("the memory keeper's channel is closed (sending)");
  const auto reply = receive_message(socket_.get(), received);
  if (!reply) throw KeeperError("the memory keeper's channel is closed (receiving)");
  if (reply->starts_with("error\n")) throw KeeperError("memory keeper: " + reply->substr(6));
  return *reply;
}

std::optional<Kept> Client::get(const std::string& name) {
  if (!valid_name(name)) throw KeeperError("invalid kept-memory name");
  UniqueFd fd;
  const auto reply = call("get\n" + name, -1, &fd);
  if (reply == "none") return std::nullopt;
  const auto f = split_lines(reply);
  const auto bytes = f.size() == 3 ? parse_u64(f[1]) : std::nullopt;
  const auto checksum = f.size() == 3 ? parse_u64(f[2]) : std::nullopt;
  if (f[0] != "ok" || !bytes || !checksum || !fd) throw KeeperError("memory keeper: malformed answer to get");
  return Kept{std::move(fd), *bytes, *checksum};
}

void Client::keep(const std::string& name, int fd, std::uint64_t bytes, std::uint64_t checksum) {
  if (!valid_name(name)) throw KeeperError("invalid kept-memory name");
  if (fd < 0) throw KeeperError("keep: no descriptor");
  (void)call("keep\n" + name + "\n" + std::to_string(bytes) + "\n" + std::to_string(checksum), fd, nullptr);
}

std::uint64_t Client::drop(const std::string& prefix) {
  const auto f = split_lines(call("drop\n" + prefix, -1, nullptr));
  const auto v = f.size() == 2 ? parse_u64(f[1]) : std::nullopt;
  if (!v) throw KeeperError("memory keeper: malformed answer to drop");
  return *v;
}

std::uint64_t Client::retain(const std::vector<std::string>& prefixes) {
  std::string request = "retain";
  for (const auto& p : prefixes) {
    if (p.empty() || p.size() > kMaxName || p.find('\n') != std::string::npos)
      throw KeeperError("invalid kept-memory prefix");
    request += "\n" + p;
  }
  if (request.size() > kMaxPacket) throw KeeperError("retain: too many prefixes for one request");
  const auto f = split_lines(call(request, -1, nullptr));
  const auto v = f.size() == 2 ? parse_u64(f[1]) : std::nullopt;
  if (!v) throw KeeperError("memory keeper: malformed answer to retain");
  return *v;
}

std::uint64_t Client::held(const std::string& prefix) {
  const auto f = split_lines(call("held\n" + prefix, -1, nullptr));
  const auto v = f.size() == 2 ? parse_u64(f[1]) : std::nullopt;
  if (!v) throw KeeperError("memory keeper: malformed answer to held");
  return *v;
}

namespace {
std::unique_ptr<Client>& installed() {
  static std::unique_ptr<Client> c;
  return c;
}
}  // namespace

void install_client(std::unique_ptr<Client> client) {
  installed() = std::move(client);
}
Client* client() {
  return installed().get();
}

}  // namespace cuzk::io::kept
