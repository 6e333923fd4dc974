// A replacement worker process and the one it replaces (engine/predecessor_exit.hpp): the daemon declares a
// worker dead when its socket ends, not when the kernel has finished its exit (seconds for a process holding
// a large CUDA context), and the replacement's GPU work waits for that exit through a pidfd. Real processes:
// forked children, and the build tree's cuzk-worker with a crash that closes its socket and lingers.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>

#include "engine/engine.hpp"
#include "engine/predecessor_exit.hpp"
#include "engine/worker_process.hpp"
#include "groth16/verifier.hpp"
#include "io/json.hpp"
#include "io/zkey.hpp"
#include "unit/engine_test_util.hpp"

namespace cuzk::engine {
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// A child that exits after `ms` (async-signal-safe calls only after the fork).
pid_t child_exiting_after(int ms) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::usleep(static_cast<useconds_t>(ms) * 1000);
    ::_exit(0);
  }
  return pid;
}

void reap(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
}

// Skips where the kernel has no pidfd_open (before Linux 5.3): the daemon then waits for the exit itself.
int pidfd_or_skip(pid_t pid) {
  const int fd = open_pidfd(pid);
  if (fd < 0) {
    ::kill(pid, SIGKILL);
    reap(pid);
  }
  return fd;
}

TEST(PredecessorExit, WaitsForTheProcessToExitOnceAndOnlyOnce) {
  const pid_t pid = child_exiting_after(400);
  const int fd = pidfd_or_skip(pid);
  if (fd < 0) GTEST_SKIP() << "no pidfd_open on this kernel";
  PredecessorExit exit(fd);
  const double waited = exit.wait(std::chrono::seconds(30));
  EXPECT_GE(waited, 300.0);
  EXPECT_LT(waited, 20000.0);
  EXPECT_FALSE(exit.timed_out());
  // Not waiting is telling apart from waiting out the 30 s limit; the bound leaves a loaded 2-core CI
  // machine room to deschedule the test (this is no speed check).
  EXPECT_LT(exit.wait(std::chrono::seconds(30)), 1000.0) << "a second wait waited again";
  reap(pid);
}

TEST(PredecessorExit, AnExitedProcessAndNoProcessAreNotWaitedFor) {
  const pid_t pid = child_exiting_after(0);
  const int fd = pidfd_or_skip(pid);
  if (fd < 0) GTEST_SKIP() << "no pidfd_open on this kernel";
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // a zombie now: exited, not reaped
  PredecessorExit exited(fd);
  EXPECT_LT(exited.wait(std::chrono::seconds(30)), 1000.0);  // not the 30 s limit (as above)
  reap(pid);
  PredecessorExit none;
  EXPECT_LT(none.wait(std::chrono::seconds(30)), 1000.0);
}

TEST(PredecessorExit, AProcessThatDoesNotExitHoldsTheWaitOnlyUpToItsLimit) {
  const pid_t pid = child_exiting_after(60000);
  const int fd = pidfd_or_skip(pid);
  if (fd < 0) GTEST_SKIP() << "no pidfd_open on this kernel";
  PredecessorExit exit(fd);
  const double waited = exit.wait(std::chrono::milliseconds(300));
  EXPECT_GE(waited, 250.0);
  EXPECT_LT(waited, 10000.0);
  EXPECT_TRUE(exit.timed_out());
  ::kill(pid, SIGKILL);
  reap(pid);
}

// The engine's GPU region (a simulated device here) waits for the predecessor before its first partition:
// the wait shows in that partition's gpu_wait and in the log, and the proof is right.
TEST(PredecessorExit, TheFirstGpuRegionWaitsForThePredecessor) {
  test::TempRepository repo;
  const auto w = repo.add<Bn254>("bn", 300, 1);
  const pid_t pid = child_exiting_after(1500);
  const int fd = pidfd_or_skip(pid);
  if (fd < 0) GTEST_SKIP() << "no pidfd_open on this kernel";
  test::LogLines lines;
  EngineConfig cfg;
  cfg.repository = repo.root();
  cfg.backend = "cpu";
  cfg.simulated_devices = 1;
  cfg.gpu_workers_per_device = 1;
  cfg.predecessor_pidfd = fd;
  cfg.log = lines.sink();
  {
    Engine e(cfg);
    const auto r = e.await(e.submit({"after", "bn", std::nullopt, w}).job_id);
    ASSERT_EQ(r.status, JobStatus::kCompleted) << r.error;
    const auto& p = r.partitions.at(0);
    EXPECT_GE(p.stages.detail("gpu_wait"), 800.0) << "the region did not wait for the predecessor";
    const auto pk = io::read_zkey<Bn254>((repo.root() / "bn" / "circuit.zkey").string());
    EXPECT_TRUE(groth16::verify(pk.verifying_key(), io::public_from_json<Bn254>(p.public_json, "public"),
                                io::proof_from_json<Bn254>(p.proof_json, "proof"))
                    .valid);
  }
  EXPECT_EQ(lines.count("for the worker process this one replaces to exit (its device memory is free)"), 1u);
  reap(pid);
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A worker process whose socket ends while it goes on exiting (CUZK_FAULT_WORKER_EXIT_LINGER_MS: as a
// process with a large CUDA context dies) is declared dead at once, not when it is reaped: the partition
// fails over to a replacement started meanwhile, which holds a pidfd of its predecessor as fd 4, and the
// predecessor's exit is logged when it comes.
TEST(PredecessorExit, ADyingWorkerIsReplacedBeforeItsExitEnds) {
  if (const int fd = open_pidfd(::getpid()); fd < 0)
    GTEST_SKIP() << "no pidfd_open on this kernel: the daemon waits for every exit";
  else
    ::close(fd);
  test::TempRepository repo;
  repo.add<Bn254>("bn", 300, 1);
  ::setenv("CUZK_FAULT_WORKER_CRASH_EVERY", "2", 1);
  ::setenv("CUZK_FAULT_WORKER_EXIT_LINGER_MS", "6000", 1);
  const std::unique_ptr<void, void (*)(void*)> unset(reinterpret_cast<void*>(1), [](void*) {
    ::unsetenv("CUZK_FAULT_WORKER_CRASH_EVERY");
    ::unsetenv("CUZK_FAULT_WORKER_EXIT_LINGER_MS");
  });
  test::LogLines lines;
  WorkerProcess p("cpu", {CUZK_WORKER_EXE, "--repository", repo.root().string(), "--backend", "cpu"},
                  lines.sink());
  const worker_protocol::Request request{0, worker_protocol::RequestKind::kProve, "bn",
                                         (repo.root() / "bn" / "witness-0.wtns").string(), 0};
  EXPECT_EQ(p.call(request).state, PartitionState::kDone);
  const pid_t first = p.pid();
  const auto t0 = Clock::now();
  try {
    p.call(request);  // the child's second request: it closes its socket and lingers
    ADD_FAILURE() << "the dying worker answered";
  } catch (const WorkerDied& e) {
    EXPECT_NE(std::string(e.what()).find("ended its connection"), std::string::npos) << e.what();
  }
  EXPECT_LT(ms_since(t0), 3000.0) << "the death was seen only when the process was reaped";
  // The replacement proves at once, while the first is still exiting, and was handed a pidfd of it.
  const auto r = p.call(request);
  EXPECT_EQ(r.state, PartitionState::kDone) << r.error;
  const pid_t second = p.pid();
  ASSERT_NE(second, first);
  EXPECT_EQ(::kill(first, 0), 0) << "the first worker had exited already: nothing was overlapped";
  std::string cmdline = read_text("/proc/" + std::to_string(second) + "/cmdline");
  std::replace(cmdline.begin(), cmdline.end(), '\0', ' ');
  EXPECT_NE(cmdline.find("--after-pidfd 4"), std::string::npos) << cmdline;
  const std::string fdinfo = read_text("/proc/" + std::to_string(second) + "/fdinfo/4");
  EXPECT_NE(fdinfo.find("Pid:\t" + std::to_string(first)), std::string::npos) << fdinfo;
  // The first one's end is logged when the kernel is done with it.
  // The first one's end (its injected abort, once the linger is over) is logged when it comes.
  for (int i = 0; i < 400 && lines.count("s after its connection ended") == 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(lines.count("worker process " + std::to_string(first) + " killed by signal 6"), 1u);
  EXPECT_EQ(p.restarts(), 1u);
}

}  // namespace
}  // namespace cuzk::engine
