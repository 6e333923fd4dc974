#include "engine/worker_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>

#include "engine/predecessor_exit.hpp"

extern char** environ;

namespace cuzk::engine {

namespace {

// Reaps `pid` if it has exited (its status into *status); true also when there is nothing to reap.
bool try_reap(pid_t pid, int* status) {
  const pid_t r = ::waitpid(pid, status, WNOHANG);
  return r == pid || (r < 0 && errno != EINTR);
}

std::string describe_exit(int status) {
  return WIFSIGNALED(status) ? "killed by signal " + std::to_string(WTERMSIG(status))
                             : "exited with status " + std::to_string(WEXITSTATUS(status));
}

}  // namespace

WorkerProcess::WorkerProcess(std::string name, std::vector<std::string> argv,
                             std::function<void(const std::string&)> log,
                             std::vector<std::string> fallback_argv)
    : name_(std::move(name)),
      argv_(std::move(argv)),
      fallback_argv_(std::move(fallback_argv)),
      log_(std::move(log)),
      keeper_(name_, log_) {}

void WorkerProcess::stop_keeper_thread_locked() {
  if (keep_socket_) ::shutdown(keep_socket_.get(), SHUT_RDWR);  // serve() sees the end and returns
  if (keeper_thread_.joinable()) keeper_thread_.join();
  keep_socket_.reset();
}

bool WorkerProcess::on_fallback() const {
  std::lock_guard lock(mutex_);
  return fallback_;
}

std::string WorkerProcess::lost_reason() const {
  std::lock_guard lock(mutex_);
  return lost_reason_;
}

WorkerProcess::~WorkerProcess() {
  std::thread reader;
  std::vector<std::thread> retired;
  {
    std::lock_guard lock(mutex_);
    closing_ = true;                           // the child ends normally: its reader waits for it
    if (fd_ >= 0) ::shutdown(fd_, SHUT_RDWR);  // the child reads end of stream and exits; the reader wakes
    reader = std::move(reader_);
    retired = std::move(retired_);
  }
  if (reader.joinable()) reader.join();  // it takes mutex_ once more when the child is gone
  for (auto& t : retired) t.join();      // readers of earlier children, still reaping them
  {
    std::lock_guard lock(mutex_);
    stop_keeper_thread_locked();
  }
  if (fd_ >= 0) ::close(fd_);
  if (predecessor_pidfd_ >= 0) ::close(predecessor_pidfd_);
}

std::uint64_t WorkerProcess::starts() const {
  std::lock_guard lock(mutex_);
  return generation_;
}

std::uint64_t WorkerProcess::restarts() const {
  std::lock_guard lock(mutex_);
  return generation_ > 0 ? std::min(deaths_, generation_ - (alive_ ? 1 : 0)) : 0;
}

pid_t WorkerProcess::pid() const {
  std::lock_guard lock(mutex_);
  return alive_ ? pid_ : -1;
}

void WorkerProcess::reap_locked() {
  // The dead child's reader may still be waiting for the kernel to finish its exit (it needs mutex_ once
  // more then): it is kept aside and joined later, never here, where the lock is held.
  if (reader_.joinable()) retired_.push_back(std::move(reader_));
  if (fd_ >= 0) {
    ::close(fd_);
    fd_ = -1;
  }
}

void WorkerProcess::start_locked() {
  reap_locked();                // a dead child's reader and socket
  stop_keeper_thread_locked();  // and its channel to the keeper (what it kept stays)
  int sv[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
    throw std::runtime_error(name_ + ": socketpair failed: " + std::strerror(errno));
  // The child's end becomes its fd 3 (dup2 clears close-on-exec); every other descriptor of ours closes.
  constexpr int kChildFd = 3;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, sv[1], kChildFd);
  std::vector<std::string> args = fallback_ ? fallback_argv_ : argv_;
  args.push_back("--fd");
  args.push_back(std::to_string(kChildFd));
  // The predecessor still exiting: the child gets a pidfd of it as fd 4, and its GPU work waits for that exit
  // (engine/predecessor_exit.hpp). Moved above the low numbers first, so that no dup2 overwrites another.
  if (predecessor_pidfd_ >= 0) {
    constexpr int kPredecessorFd = kChildFd + 1;
    const int high = ::fcntl(predecessor_pidfd_, F_DUPFD_CLOEXEC, 16);
    ::close(predecessor_pidfd_);
    predecessor_pidfd_ = high;
    if (high >= 0) {
      posix_spawn_file_actions_adddup2(&actions, high, kPredecessorFd);
      args.push_back("--after-pidfd");
      args.push_back(std::to_string(kPredecessorFd));
    }
  }
  // A GPU worker's channel to the memory keeper as fd 5 (moved above the low numbers like the pidfd): the
  // device memory it keeps there outlives it (io/kept_memory.hpp).
  io::kept::UniqueFd keep_parent, keep_child;
  if (!fallback_) {
    constexpr int kKeepFd = kChildFd + 2;
    try {
      auto [parent, child] = io::kept::channel();
      keep_child = io::kept::UniqueFd(::fcntl(child.get(), F_DUPFD_CLOEXEC, 16));
      if (keep_child) {
        keep_parent = std::move(parent);
        posix_spawn_file_actions_adddup2(&actions, keep_child.get(), kKeepFd);
        args.push_back("--keep-fd");
        args.push_back(std::to_string(kKeepFd));
      }
    } catch (const io::kept::KeeperError& e) {
      if (log_) log_("cuzk: " + name_ + ": " + e.what() + "; this worker process keeps nothing for the next");
    }
  }
  std::vector<char*> cargs;
  for (auto& a : args) cargs.push_back(a.data());
  cargs.push_back(nullptr);
  // The daemon blocks its termination signals in every thread (it waits for them in one): the child starts
  // with none blocked and default dispositions, like any process.
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t none, all;
  sigemptyset(&none);
  sigfillset(&all);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &all);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  pid_t pid = -1;
  const int rc = ::posix_spawn(&pid, cargs[0], &actions, &attr, cargs.data(), environ);
  posix_spawnattr_destroy(&attr);
  posix_spawn_file_actions_destroy(&actions);
  ::close(sv[1]);
  keep_child.reset();             // the child has its own copy
  if (predecessor_pidfd_ >= 0) {  // the child has its own copy
    ::close(predecessor_pidfd_);
    predecessor_pidfd_ = -1;
  }
  if (rc != 0) {
    ::close(sv[0]);
    throw std::runtime_error(name_ + ": cannot start worker process " + args[0] + ": " + std::strerror(rc));
  }
  fd_ = sv[0];
  pid_ = pid;
  alive_ = true;
  if (keep_parent) {
    keep_socket_ = std::move(keep_parent);
    keeper_thread_ = std::thread([this, fd = keep_socket_.get()] { keeper_.serve(fd); });
  }
  ++generation_;
  if (log_)
    log_("cuzk: " + name_ + ": worker process " + std::to_string(pid) + " started" +
         (generation_ > 1 ? " (restart " + std::to_string(generation_ - 1) + ")" : ""));
  reader_ = std::thread([this, fd = fd_, pid, g = generation_] { read_replies(fd, pid, g); });
}

void WorkerProcess::read_replies(int fd, pid_t pid, std::uint64_t generation) {
  for (;;) {
    auto frame = worker_protocol::read_frame(fd);
    if (!frame) break;
    worker_protocol::Reply reply;
    try {
      reply = worker_protocol::decode_reply(*frame);
    } catch (const std::exception& e) {
      if (log_) log_("cuzk: " + name_ + ": " + e.what() + "; stopping the worker process");
      ::kill(pid, SIGKILL);
      break;
    }
    std::lock_guard lock(mutex_);
    deaths_in_a_row_ = 0;
    if (auto it = pending_.find(reply.id); it != pending_.end()) {
      it->second->reply = std::move(reply);
      it->second->done = true;
      pending_.erase(it);
      replied_.notify_all();
    }
  }
  // End of stream. A child closes its socket early in its exit, and the kernel may take seconds more to
  // release its CUDA context and page-locked memory (engine/predecessor_exit.hpp). A quick exit is reaped at
  // once, with its status; a slow one is declared dead now, so that its partitions go to a replacement whose
  // host work overlaps the teardown, and which gets a pidfd of it to hold its GPU work until the exit.
  int status = 0;
  bool reaped = false, closing = false;
  {
    std::lock_guard lock(mutex_);
    closing = closing_;
  }
  for (int i = 0; i < kQuickExitPolls && !(reaped = try_reap(pid, &status)); ++i)
    std::this_thread::sleep_for(kQuickExitPoll);
  const int pidfd = !reaped && !closing ? open_pidfd(pid) : -1;
  const auto ended = std::chrono::steady_clock::now();
  // A child that ended its connection is leaving (a crash, a kill, a sticky fault's exit) or of no use any
  // more: one still there after kExitGrace is killed, which cannot cut the kernel's teardown short but ends a
  // child that closed its socket and stayed.
  auto reap = [&] {
    while (!try_reap(pid, &status)) {
      if (std::chrono::steady_clock::now() - ended > kExitGrace) {
        ::kill(pid, SIGKILL);
        while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        return;
      }
      std::this_thread::sleep_for(kQuickExitPoll * 5);
    }
  };
  if (!reaped && pidfd < 0) {  // shutting down, or no pidfd to hand over: wait for the exit here
    reap();
    reaped = true;
  }
  const std::string how =
      reaped ? describe_exit(status)
             : std::string(
                   "ended its connection and is exiting (its replacement's GPU work waits for the exit)");
  std::unique_lock lock(mutex_);
  if (generation != generation_) {
    if (pidfd >= 0) ::close(pidfd);
    lock.unlock();
    if (!reaped) reap();
    return;
  }
  alive_ = false;
  ++deaths_;
  last_death_ = "worker process " + std::to_string(pid) + " " + how;
  if (pidfd >= 0) {
    if (predecessor_pidfd_ >= 0) ::close(predecessor_pidfd_);
    predecessor_pidfd_ = pidfd;
  }
  if (++deaths_in_a_row_ >= kCrashLoop && !fallback_ && !fallback_argv_.empty()) {
    fallback_ = true;
    lost_reason_ = std::to_string(deaths_in_a_row_) +
                   " worker processes in a row died without answering (the last " + how + ")";
    keeper_.drop("");  // the lost GPU's kept memory: no GPU worker comes back to it
    if (log_)
      log_("cuzk: " + name_ + " LOST: " + lost_reason_ +
           "; until the daemon is restarted its partitions go to the other GPUs, or to a CPU worker process "
           "when no other GPU is left");
  }
  if (!pending_.empty() && log_)
    log_("cuzk: " + name_ + ": " + last_death_ + " with " + std::to_string(pending_.size()) +
         " partition(s) in flight; they are proved again in a new worker process");
  for (auto& [id, p] : pending_) {
    p->died = true;
    p->done = true;
  }
  pending_.clear();
  replied_.notify_all();
  if (reaped) return;
  lock.unlock();
  reap();  // the kernel's teardown of the dead child; its replacement may be running already
  const double s_after = std::chrono::duration<double>(std::chrono::steady_clock::now() - ended).count();
  if (log_) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", s_after);
    log_("cuzk: " + name_ + ": worker process " + std::to_string(pid) + " " + describe_exit(status) + ", " +
         buf + " s after its connection ended");
  }
}

void WorkerProcess::start() {
  std::lock_guard lock(mutex_);
  if (!alive_) start_locked();
}

void WorkerProcess::send_locked(std::unique_lock<std::mutex>& lock, worker_protocol::Request& request,
                                Pending& pending) {
  request.id = next_id_++;
  pending_[request.id] = &pending;
  write_locked(lock, request);
}

void WorkerProcess::write_locked(std::unique_lock<std::mutex>& lock,
                                 const worker_protocol::Request& request) {
  const int fd = fd_;
  lock.unlock();
  {
    // A failed send means the child is gone: its reader fails every pending request.
    std::lock_guard w(write_mutex_);
    worker_protocol::send_frame(fd, worker_protocol::encode(request));
  }
  lock.lock();
}

PartitionResult WorkerProcess::call(worker_protocol::Request request, std::chrono::seconds timeout,
                                    const std::atomic<bool>* cancel) {
  using Clock = std::chrono::steady_clock;
  Pending pending;
  std::unique_lock lock(mutex_);
  if (!alive_) start_locked();
  request.kind = worker_protocol::RequestKind::kProve;
  send_locked(lock, request, pending);
  const auto deadline = timeout.count() > 0 ? Clock::now() + timeout : Clock::time_point::max();
  bool cancel_sent = false;
  // Woken by the reply, or every 100 ms to look at the cancel flag and the deadline.
  while (!replied_.wait_for(lock, std::chrono::milliseconds(100), [&] { return pending.done; })) {
    if (cancel && !cancel_sent && cancel->load()) {
      cancel_sent = true;
      worker_protocol::Request stop;
      stop.kind = worker_protocol::RequestKind::kCancel;
      stop.target = request.id;
      write_locked(lock, stop);
    }
    if (Clock::now() >= deadline && alive_) {
      if (log_)
        log_("cuzk: " + name_ + ": no answer for a partition after " + std::to_string(timeout.count()) +
             " s; killing worker process " + std::to_string(pid_));
      ::kill(pid_, SIGKILL);  // its reader then fails this request and the others in flight
      replied_.wait(lock, [&] { return pending.done; });
    }
  }
  if (pending.died) throw WorkerDied(name_ + ": " + last_death_ + " before the partition was proved");
  return std::move(pending.reply.result);
}

std::optional<worker_protocol::Reply> WorkerProcess::control(worker_protocol::Request request) {
  Pending pending;
  std::unique_lock lock(mutex_);
  if (!alive_) {
    // No child holds the key, but the keeper may hold its device copy for the next one: it goes too.
    if (request.kind == worker_protocol::RequestKind::kEvict) keeper_.drop(request.circuit_id + "@");
    if (request.kind != worker_protocol::RequestKind::kPreload) return std::nullopt;
    start_locked();
  }
  send_locked(lock, request, pending);
  replied_.wait(lock, [&] { return pending.done; });
  if (pending.died) throw WorkerDied(name_ + ": " + last_death_ + " before it answered");
  return std::move(pending.reply);
}

std::optional<EngineStatus> WorkerProcess::status(std::chrono::milliseconds timeout) {
  Pending pending;
  std::unique_lock lock(mutex_);
  if (!alive_) return std::nullopt;
  worker_protocol::Request request;
  request.kind = worker_protocol::RequestKind::kStatus;
  send_locked(lock, request, pending);
  if (!replied_.wait_for(lock, timeout, [&] { return pending.done; })) {
    pending_.erase(request.id);  // a late reply finds no one waiting
    return std::nullopt;
  }
  if (pending.died) return std::nullopt;
  return std::move(pending.reply.status);
}

}  // namespace cuzk::engine
