// A supervised child process that proves partitions for the engine (engine.isolation = "process"):
// `cuzk-worker` (src/worker/main.cpp) running its own engine on one device, fed over a socket pair.
//
// Why a process: on the H200's driver (580.159) a process whose CUDA context took a sticky fault never gets
// a new one (cudaDeviceReset, then "busy or unavailable" for as long as we waited, 55 s), while a new
// process has a usable context 0.2 s after the old one exited (`cuzk-bench sticky-probe`). So the worker
// process exits on a sticky fault, and the next call here starts a new one; every request it had in flight
// fails with WorkerDied, which the engine retries like any recovered fault. A crashing prover (a segfault
// in any code) is survived the same way.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "engine/worker_protocol.hpp"
#include "io/kept_memory.hpp"

namespace cuzk::engine {

// The worker process ended (crashed, or exited after a sticky CUDA fault) before it replied.
struct WorkerDied : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class WorkerProcess {
 public:
  // `argv[0]` is the executable; the child also gets `--fd N`, its end of the socket. `fallback_argv`, when
  // given, is what runs instead once the child has died kCrashLoop times in a row without answering anything
  // (a GPU that faults on every proof, or that no process can open any more): a CPU worker, so that jobs
  // still end in proofs; the device is then reported lost.
  WorkerProcess(std::string name, std::vector<std::string> argv, std::function<void(const std::string&)> log,
                std::vector<std::string> fallback_argv = {});
  static constexpr std::uint64_t kCrashLoop = 3;
  // How long a child whose socket ended is given to be reaped before it is declared dead while still
  // exiting (its replacement then starts at once): a process without a large CUDA context exits in
  // milliseconds.
  static constexpr int kQuickExitPolls = 25;
  static constexpr std::chrono::milliseconds kQuickExitPoll{10};
  static constexpr std::chrono::seconds kExitGrace{30};  // then a child that ended its connection is killed
  ~WorkerProcess();  // closes the socket (the child exits at end of stream) and reaps it
  WorkerProcess(const WorkerProcess&) = delete;
  WorkerProcess& operator=(const WorkerProcess&) = delete;

  // Sends the request (its id is assigned here) and waits for the reply, starting the child first if it is
  // not running. Thread-safe: concurrent calls share the child. Throws WorkerDied when the child ends before
  // replying, std::runtime_error when it cannot be started.
  // A positive `timeout` bounds the wait: past it the child is killed (SIGKILL), which fails every request
  // it had in flight with WorkerDied, as any death does.
  // When `*cancel` becomes true meanwhile, the child is asked to stop the proof at its next stage boundary
  // (the result then says cancelled).
  PartitionResult call(worker_protocol::Request request,
                       std::chrono::seconds timeout = std::chrono::seconds(0),
                       const std::atomic<bool>* cancel = nullptr);
  // A preload or evict request (worker_protocol::RequestKind), answered when the child has done it. Preload
  // starts the child if none runs; evict does not (a child not running holds nothing): nullopt then.
  // Throws WorkerDied if the child ends first.
  std::optional<worker_protocol::Reply> control(worker_protocol::Request request);
  // The running child's devices, faults and pinned memory, or nullopt when none runs (none is started for
  // this) or it does not answer within `timeout` (a status page must not hang on a busy worker).
  std::optional<EngineStatus> status(std::chrono::milliseconds timeout);
  // Starts the child now if none runs (the engine does at construction, so a child that cannot start is
  // seen at once); call() does it too.
  void start();

  // Whether the crash loop switched this worker to its fallback, and the death that did it.
  bool on_fallback() const;
  std::string lost_reason() const;
  std::uint64_t starts() const;    // children started so far
  std::uint64_t restarts() const;  // of which after one had died
  const std::string& name() const { return name_; }
  pid_t pid() const;  // the running child's process id, or -1 when none runs
  // The device memory this worker's children keep for their successors (io/kept_memory.hpp): each child
  // gets a channel to it (--keep-fd); what a child kept outlives it.
  io::kept::Keeper& keeper() { return keeper_; }
  const io::kept::Keeper& keeper() const { return keeper_; }

 private:
  struct Pending {
    bool done = false;
    bool died = false;
    worker_protocol::Reply reply;
  };
  // Registers `pending` under a fresh id and sends the request. If the child is gone, its reader fails
  // `pending`. With mutex_ held on entry and on return.
  void send_locked(std::unique_lock<std::mutex>& lock, worker_protocol::Request& request, Pending& pending);
  // Writes one frame to the current child, mutex_ released meanwhile (held on entry and on return).
  void write_locked(std::unique_lock<std::mutex>& lock, const worker_protocol::Request& request);
  void start_locked();  // with mutex_ held
  void read_replies(int fd, pid_t pid, std::uint64_t generation);
  void reap_locked();  // with mutex_ held, the child dead: sets its reader aside, closes the socket

  const std::string name_;
  const std::vector<std::string> argv_, fallback_argv_;
  const std::function<void(const std::string&)> log_;
  mutable std::mutex mutex_;
  std::condition_variable replied_;
  std::mutex write_mutex_;  // one frame at a time on the socket
  int fd_ = -1;             // the parent's end; -1 when no child runs
  pid_t pid_ = -1;
  bool alive_ = false;
  std::uint64_t generation_ = 0;  // children started
  std::uint64_t deaths_ = 0;
  std::uint64_t deaths_in_a_row_ = 0;  // without a reply in between
  bool fallback_ = false;
  std::string lost_reason_;
  std::string last_death_;
  std::thread reader_;
  std::vector<std::thread> retired_;  // readers of dead children still waiting for their exit
  bool closing_ = false;              // the destructor runs: children end normally, and are waited for
  int predecessor_pidfd_ = -1;        // the last dead child, still exiting: for the next child to wait for
  std::uint64_t next_id_ = 1;
  io::kept::Keeper keeper_;
  io::kept::UniqueFd keep_socket_;  // the latest child's channel to keeper_, served by keeper_thread_
  std::thread keeper_thread_;
  void stop_keeper_thread_locked();  // shuts the channel, joins its thread (the child it served is gone)
  std::map<std::uint64_t, Pending*> pending_;  // by request id, of the current child
};

}  // namespace cuzk::engine
