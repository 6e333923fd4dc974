// The exit of the worker process that a new one replaces (engine.isolation = "process").
//
// A worker process closes its socket to the daemon early in its exit (a sticky fault shuts it down on
// purpose before exiting), while the kernel may need seconds more to release its CUDA context and page-locked
// memory: 8.7 s from a SIGKILL to the reap on an H100 holding a 32 GiB PoRep key and a 36 GiB witness pool
// (bench/RESULTS.md, "Keys page-locked only while a plan streams them"). The daemon therefore starts the
// replacement as soon as the socket ends, so that its host work (mapping the keys, reading the re-sent
// witnesses) overlaps that teardown, and hands it a pidfd of its predecessor: the replacement's first GPU
// work waits for that exit, as the device memory the old context still holds would otherwise make a resident
// key look as if it did not fit.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <mutex>

namespace cuzk::engine {

// A pidfd of `pid` (pidfd_open), or -1 where the kernel has none (before Linux 5.3) or the process is gone.
int open_pidfd(pid_t pid);

class PredecessorExit {
 public:
  // Owns `pidfd` (a pidfd of the predecessor, readable once it has exited); -1: no predecessor.
  explicit PredecessorExit(int pidfd = -1);
  ~PredecessorExit();
  PredecessorExit(const PredecessorExit&) = delete;
  PredecessorExit& operator=(const PredecessorExit&) = delete;

  // Blocks until the predecessor has exited or `limit` has passed (a teardown that never ends must not hold
  // the GPU forever); the first call waits, later ones return at once. Thread-safe: concurrent callers wait
  // together. Returns the milliseconds this call spent waiting for the exit: 0 for a call that found it done,
  // one queued behind the call that waited included (so the engine says the wait once).
  double wait(std::chrono::milliseconds limit);
  // Whether the last wait ended at `limit` with the predecessor still there.
  bool timed_out() const;

 private:
  mutable std::mutex mutex_;
  int fd_;
  bool timed_out_ = false;
};

}  // namespace cuzk::engine
