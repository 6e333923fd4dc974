#include "engine/predecessor_exit.hpp"

#include <poll.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>

namespace cuzk::engine {

int open_pidfd(pid_t pid) {
#ifdef SYS_pidfd_open
  // The syscall, not glibc's wrapper (2.36 and later): the build machines' libraries are older.
  const long fd = ::syscall(SYS_pidfd_open, pid, 0);
  return fd < 0 ? -1 : static_cast<int>(fd);
#else
  (void)pid;
  return -1;
#endif
}

PredecessorExit::PredecessorExit(int pidfd) : fd_(pidfd) {}

PredecessorExit::~PredecessorExit() {
  if (fd_ >= 0) ::close(fd_);
}

double PredecessorExit::wait(std::chrono::milliseconds limit) {
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  std::lock_guard lock(mutex_);  // concurrent callers queue here and find it done
  if (fd_ < 0) return 0;         // none, or another caller waited for it
  const auto deadline = t0 + limit;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    pollfd p{fd_, POLLIN, 0};
    const int rc = ::poll(&p, 1, static_cast<int>(std::max<long long>(left, 0)));
    if (rc < 0 && errno == EINTR) continue;
    timed_out_ = rc == 0;
    break;  // readable: it exited; an error: nothing to wait for
  }
  ::close(fd_);
  fd_ = -1;
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

bool PredecessorExit::timed_out() const {
  std::lock_guard lock(mutex_);
  return timed_out_;
}

}  // namespace cuzk::engine
