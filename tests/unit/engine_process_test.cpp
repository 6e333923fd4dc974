// engine.isolation = "process" (engine/worker_process.hpp): partitions are proved by a cuzk-worker child
// process running its own engine on the same repository, and checked here. Real processes, a real socket,
// real files: a child that dies under a partition (injected with CUZK_FAULT_WORKER_CRASH_EVERY, which the
// child inherits) is started again and the partition proved again, so no job is lost.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "engine/engine.hpp"
#include "engine/worker_process.hpp"
#include "groth16/bellperson.hpp"
#include "groth16/verifier.hpp"
#include "io/json.hpp"
#include "io/zkey.hpp"
#include "unit/engine_result_check.hpp"
#include "unit/engine_test_util.hpp"

namespace cuzk::engine {
namespace {

// isolation = "process" on the CPU backend, the build tree's worker, and a spool folder inside the
// repository (so a test can see that spooled witnesses go away).
EngineConfig process_config(const test::TempRepository& repo) {
  EngineConfig cfg;
  cfg.repository = repo.root();
  cfg.backend = "cpu";
  cfg.isolation = "process";
  cfg.worker_exe = CUZK_WORKER_EXE;
  cfg.spool_dir = repo.root() / "spool";
  std::filesystem::create_directories(cfg.spool_dir);
  cfg.log = [](const std::string&) {};
  return cfg;
}

// The processes this one started whose program is `name` (their /proc entries' parent, and the file name of
// their argv[0]: the command name shows how the worker was executed, not what).
std::vector<std::string> children_named(const std::string& name) {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator("/proc")) {
    const std::string pid = e.path().filename().string();
    if (pid.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream status(e.path() / "status");
    std::string line;
    long ppid = -1;
    while (std::getline(status, line))
      if (line.rfind("PPid:", 0) == 0) ppid = std::atol(line.c_str() + 5);
    if (ppid != ::getpid()) continue;
    std::ifstream cmdline(e.path() / "cmdline");
    std::string argv0;
    std::getline(cmdline, argv0, '\0');
    if (std::filesystem::path(argv0).filename() == name) out.push_back(pid);
  }
  return out;
}

int oom_score_adj(const std::string& pid) {
  std::ifstream in("/proc/" + pid + "/oom_score_adj");
  int v = -10000;
  in >> v;
  return v;
}

// Spooled witnesses in `dir` (the key store's folder lives there too, while the engine runs).
std::size_t files_in(const std::filesystem::path& dir) {
  std::size_t n = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) n += e.path().extension() == ".witness";
  return n;
}

TEST(EngineProcess, WorkerProcessesProveAndEveryProofIsCheckedHere) {
  test::TempRepository repo;
  const auto bn = repo.add<Bn254>("bn", 300, 2);
  const auto bls = repo.add<Bls12_381>("bls", 200, 2, "partitions = 2\n");
  const auto bp = repo.add_bellperson("bp", 10, 2);
  const auto other = repo.add<Bn254>("other", 100);
  const auto spool = repo.root() / "spool";
  std::filesystem::create_directories(spool);
  // A dead daemon's spool file is removed at start (pid 2^22 + 1 is above Linux's pid limit: never alive);
  // another name, or a live pid's file, is left alone.
  const std::vector<std::string> kept = {"cuzk-" + std::to_string(::getpid()) + "-7.witness", "notes.txt"};
  for (const auto& n : kept) std::ofstream(spool / n) << "x";
  std::ofstream(spool / "cuzk-4194305-0.witness") << "x";
  auto cfg = process_config(repo);
  cfg.cpu_workers = 2;
  Engine e(cfg);
  EXPECT_FALSE(std::filesystem::exists(spool / "cuzk-4194305-0.witness"));
  for (const auto& n : kept) {
    EXPECT_TRUE(std::filesystem::exists(spool / n)) << n;
    std::filesystem::remove(spool / n);
  }
  std::vector<std::string> bn_jobs, bls_jobs;
  for (int i = 0; i < 4; ++i) bn_jobs.push_back(e.submit({"bn", "bn", std::nullopt, {bn[i % 2]}}).job_id);
  // Witness files are read by the worker process directly; inline ones go through the spool.
  bls_jobs.push_back(e.submit({"paths",
                               "bls",
                               std::nullopt,
                               {},
                               {(repo.root() / "bls" / "witness-0.wtns").string(),
                                (repo.root() / "bls" / "witness-1.wtns").string()}})
                         .job_id);
  bls_jobs.push_back(e.submit({"inline", "bls", std::nullopt, bls}).job_id);
  const auto bp_job = e.submit({"bp", "bp", std::nullopt, bp}).job_id;
  for (const auto& id : bn_jobs) {
    const auto r = e.await(id);
    ASSERT_EQ(r.status, JobStatus::kCompleted) << r.error;
    expect_valid<Bn254>(repo.root(), "bn", r.partitions.at(0));
    EXPECT_EQ(r.partitions[0].plan, "cpu");
    EXPECT_GT(r.partitions[0].verify_ms, 0.0);  // checked here too
  }
  for (const auto& id : bls_jobs) {
    const auto r = e.await(id);
    ASSERT_EQ(r.status, JobStatus::kCompleted) << r.error;
    ASSERT_EQ(r.partitions.size(), 2u);
    for (const auto& p : r.partitions) expect_valid<Bls12_381>(repo.root(), "bls", p);
  }
  const auto rb = e.await(bp_job);
  ASSERT_EQ(rb.status, JobStatus::kCompleted) << rb.error;
  for (const auto& p : rb.partitions) EXPECT_EQ(p.proof_bytes.size(), 192u);
  EXPECT_EQ(files_in(spool), 0u) << "spooled witnesses outlived their jobs";
  // Out of memory, the kernel ends a worker process (started again, its partitions proved again) before
  // this one, which holds the jobs: the workers raise their own score, this process keeps its own.
  const auto workers = children_named("cuzk-worker");
  ASSERT_FALSE(workers.empty()) << "no cuzk-worker child found in /proc";
  for (const auto& pid : workers) EXPECT_EQ(oom_score_adj(pid), 500) << "worker process " << pid;
  EXPECT_LT(oom_score_adj(std::to_string(::getpid())), 500);
  const auto s = e.status();
  EXPECT_EQ(s.faults.worker_restarts, 0u);
  // This process holds verifying keys only: the worker process holds the proving keys.
  for (const auto& c : s.circuits) EXPECT_LT(c.bytes, 64u * 1024) << c.id << " holds " << c.bytes << " bytes";
  // A malformed request is still this client's error at once, checked against the key's shape.
  try {
    e.submit({"bad", "bn", std::nullopt, {other[0]}});
    ADD_FAILURE() << "a witness of another circuit was accepted";
  } catch (const RequestError& err) {
    EXPECT_NE(std::string(err.what()).find("signals"), std::string::npos) << err.what();
  }
  auto wrong = bp[0];
  wrong.resize(wrong.size() / 2);
  EXPECT_THROW(e.submit({"bad", "bp", std::nullopt, {wrong, bp[1]}}), RequestError);
}

TEST(EngineProcess, AWorkerProcessThatDiesIsStartedAgainAndNoJobIsLost) {
  test::TempRepository repo;
  const auto bn = repo.add<Bn254>("bn", 300, 2, "partitions = 2\n");
  const auto spool = repo.root() / "spool";
  // Every third request the child receives kills it. One worker: requests are sequential, so the partition
  // that died is the first request of the next child and is proved there.
  ::setenv("CUZK_FAULT_WORKER_CRASH_EVERY", "3", 1);
  auto cfg = process_config(repo);
  cfg.cpu_workers = 1;
  test::LogLines lines;
  cfg.log = lines.sink();
  {
    Engine e(cfg);  // every child it starts inherits the variable
    std::vector<std::string> jobs;
    for (int i = 0; i < 5; ++i) jobs.push_back(e.submit({"j", "bn", std::nullopt, bn}).job_id);
    for (const auto& id : jobs) {
      const auto r = e.await(id);
      ASSERT_EQ(r.status, JobStatus::kCompleted) << r.error;
      for (const auto& p : r.partitions) expect_valid<Bn254>(repo.root(), "bn", p);
    }
    const auto s = e.status();
    // 10 partitions, two per child before the third request kills it.
    EXPECT_GE(s.faults.worker_restarts, 3u);
    EXPECT_GE(s.faults.retries, s.faults.worker_restarts);
  }
  ::unsetenv("CUZK_FAULT_WORKER_CRASH_EVERY");
  EXPECT_GE(lines.count("proved again in a new worker process"), 1u)
      << "the death of a worker process was not logged";
  EXPECT_EQ(files_in(spool), 0u);
}

// engine.key_store (engine/key_store.hpp): the worker process decodes each proving key once into the
// daemon's store; a worker started again after one died maps it and does not read the key file. Checked,
// not assumed: the key files are overwritten with garbage that keeps their identity before the restart, so
// a worker that read one could not prove.
TEST(EngineProcess, ARestartedWorkerMapsTheSharedKeyInsteadOfReadingTheKeyFile) {
  test::TempRepository repo;
  const auto bp = repo.add_bellperson("bp", 10, 1);
  const auto bn = repo.add<Bn254>("bn", 300, 1);
  const auto spool = repo.root() / "spool";
  const auto bn_key = io::read_zkey<Bn254>((repo.root() / "bn" / "circuit.zkey").string());
  // The child dies on its third proof request (unset however the test ends: later tests' children must not
  // inherit it).
  ::setenv("CUZK_FAULT_WORKER_CRASH_EVERY", "3", 1);
  const std::unique_ptr<void, void (*)(void*)> unset(
      reinterpret_cast<void*>(1), [](void*) { ::unsetenv("CUZK_FAULT_WORKER_CRASH_EVERY"); });
  auto cfg = process_config(repo);
  cfg.cpu_workers = 1;
  std::filesystem::path store;
  {
    Engine e(cfg);
    store = spool / ("cuzk-keys-" + std::to_string(::getpid()));
    ASSERT_TRUE(std::filesystem::is_directory(store));
    for (const auto& [id, w] : {std::pair{"bp", bp}, std::pair{"bn", bn}}) {
      const auto r = e.await(e.submit({"first", id, std::nullopt, w}).job_id);
      ASSERT_EQ(r.status, JobStatus::kCompleted) << r.error;
    }
    EXPECT_TRUE(std::filesystem::exists(store / "bp.key"));
    EXPECT_TRUE(std::filesystem::exists(store / "bn.key"));
    EXPECT_GT(e.status().key_store_bytes, 0u);
    test::scramble_keeping_identity(repo.root() / "bp" / "circuit.params");
    test::scramble_keeping_identity(repo.root() / "bn" / "circuit.zkey");
    // Request 3 kills the worker; the new one proves it, and the next, from the images alone.
    for (const auto& [id, w] : {std::pair{"bp", bp}, std::pair{"bn", bn}}) {
      const auto r = e.await(e.submit({"after", id, std::nullopt, w}).job_id);
      ASSERT_EQ(r.status, JobStatus::kCompleted) << r.error;  // checked here against the verifying key
      if (std::string(id) == "bn") {
        const auto& p = r.partitions.at(0);
        EXPECT_TRUE(groth16::verify(bn_key.verifying_key(),
                                    io::public_from_json<Bn254>(p.public_json, "public"),
                                    io::proof_from_json<Bn254>(p.proof_json, "proof"))
                        .valid);
      }
    }
    EXPECT_EQ(e.status().faults.worker_restarts, 1u);
    // Evict takes the image out of the store.
    EXPECT_TRUE(e.evict("bp").was_loaded);
    EXPECT_FALSE(std::filesystem::exists(store / "bp.key"));
    EXPECT_TRUE(std::filesystem::exists(store / "bn.key"));
  }
  EXPECT_FALSE(std::filesystem::exists(store)) << "the key store outlived its engine";
}

// engine.key_store = "off": each worker process reads its own copy, and nothing is put in the spool.
TEST(EngineProcess, WithoutAKeyStoreWorkersReadTheirOwnKeys) {
  test::TempRepository repo;
  const auto bn = repo.add<Bn254>("bn", 300, 1);
  auto cfg = process_config(repo);
  cfg.key_store = "off";
  Engine e(cfg);
  EXPECT_EQ(e.await(e.submit({"j", "bn", std::nullopt, bn}).job_id).status, JobStatus::kCompleted);
  EXPECT_FALSE(std::filesystem::exists(repo.root() / "spool" / ("cuzk-keys-" + std::to_string(::getpid()))));
  EXPECT_EQ(e.status().key_store_bytes, 0u);
}

// A key store that cannot be made (here: its parent is a file) costs the sharing, not the engine.
TEST(EngineProcess, AKeyStoreThatCannotBeMadeLeavesEachWorkerItsOwnKeys) {
  test::TempRepository repo;
  const auto bn = repo.add<Bn254>("bn", 300, 1);
  std::ofstream(repo.root() / "not-a-directory") << "x";
  auto cfg = process_config(repo);
  cfg.key_store = (repo.root() / "not-a-directory").string();
  test::LogLines lines;
  cfg.log = lines.sink();
  Engine e(cfg);
  EXPECT_EQ(e.await(e.submit({"j", "bn", std::nullopt, bn}).job_id).status, JobStatus::kCompleted);
  EXPECT_EQ(lines.count("no key store ("), 1u);
  EXPECT_EQ(e.status().key_store_bytes, 0u);
}

// The workers write to the daemon's stderr: every line says which process wrote it, and the timing lines
// are the parent's alone, under its own job ids (the worker's would name jobs no client ever saw).
TEST(EngineProcess, WorkerLinesNameTheirProcessAndTimingLinesAreTheParents) {
  test::TempRepository repo;
  const auto bn = repo.add<Bn254>("bn", 300, 2, "partitions = 2\n");
  auto cfg = process_config(repo);
  cfg.cpu_workers = 1;
  test::LogLines lines;
  cfg.log = lines.sink();
  const auto captured = repo.root() / "stderr.txt";
  std::fflush(stderr);
  const int saved = ::dup(2);
  {
    std::FILE* f = std::fopen(captured.c_str(), "w");
    ASSERT_NE(f, nullptr);
    ::dup2(::fileno(f), 2);  // the children inherit it
    std::fclose(f);
  }
  std::string job;
  {
    Engine e(cfg);
    job = e.submit({"j", "bn", std::nullopt, bn}).job_id;
    EXPECT_EQ(e.await(job).status, JobStatus::kCompleted);
  }
  std::fflush(stderr);
  ::dup2(saved, 2);
  ::close(saved);
  std::ifstream in(captured);
  std::size_t worker_lines = 0, child_timing_lines = 0;
  for (std::string l; std::getline(in, l);) {
    if (l.rfind("cuzk-worker[", 0) == 0 && l.find("] cpu: cuzk engine: backend cpu") != std::string::npos)
      ++worker_lines;
    if (l.find("state=") != std::string::npos) ++child_timing_lines;
  }
  EXPECT_GE(worker_lines, 1u) << "the worker's start line does not name its process";
  EXPECT_EQ(child_timing_lines, 0u) << "a worker wrote a timing line of its own";
  EXPECT_EQ(lines.count("cuzk: job=" + job + " partition="), 2u);
  EXPECT_EQ(lines.count(" plan=cpu "), 2u);
  EXPECT_EQ(lines.count(" gpu_total_ms=0.0 "), 2u) << "CPU proofs count no GPU time";
  EXPECT_EQ(lines.count(" gpu_wait_ms=0.0 "), 2u) << "CPU proofs wait for no GPU";
}

// A worker that stops answering (CUZK_FAULT_WORKER_HANG_EVERY=2: every second proof request) is killed
// after engine.partition_timeout and started again; the partition is proved again.
TEST(EngineProcess, AHungWorkerIsKilledAfterThePartitionTimeout) {
  test::TempRepository repo;
  const auto bn = repo.add<Bn254>("bn", 300, 1);
  ::setenv("CUZK_FAULT_WORKER_HANG_EVERY", "2", 1);
  auto cfg = process_config(repo);
  cfg.partition_timeout_s = 1;
  test::LogLines lines;
  cfg.log = lines.sink();
  {
    Engine e(cfg);
    for (int i = 0; i < 3; ++i) {  // requests 2 of the first two workers hang
      const auto r = e.await(e.submit({"h", "bn", std::nullopt, bn}).job_id);
      ASSERT_EQ(r.status, JobStatus::kCompleted) << r.error;
      expect_valid<Bn254>(repo.root(), "bn", r.partitions.at(0));
    }
    EXPECT_EQ(e.status().faults.worker_restarts, 2u);
  }
  ::unsetenv("CUZK_FAULT_WORKER_HANG_EVERY");
  EXPECT_EQ(lines.count("no answer for a partition after 1 s"), 2u);
}

// Cancelling a job reaches the partition running in the worker process: it stops at its next stage there,
// and the worker stays up for the next job.
TEST(EngineProcess, CancelReachesThePartitionInTheWorker) {
  test::TempRepository repo;
  const auto w = repo.add<Bn254>("big", 1 << 16, 2, "partitions = 2\n");
  Engine e(process_config(repo));
  const auto job = e.submit({"c", "big", std::nullopt, w}).job_id;
  for (int i = 0; i < 20000; ++i) {
    if (e.await(job, std::chrono::milliseconds(0)).partitions[0].state == PartitionState::kRunning) break;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  EXPECT_TRUE(e.cancel(job));
  const auto r = e.await(job);
  EXPECT_EQ(r.status, JobStatus::kCancelled);
  EXPECT_EQ(r.partitions[0].state, PartitionState::kCancelled);
  // Stopped in the worker: no proof came back to be checked here (a partition the worker finished anyway
  // would be checked, then dropped as cancelled).
  EXPECT_EQ(r.partitions[0].verify_ms, 0.0) << "the worker proved the cancelled partition to its end";
  EXPECT_EQ(r.partitions[1].state, PartitionState::kCancelled);
  const auto next = e.await(e.submit({"n", "big", std::nullopt, w}).job_id);
  EXPECT_EQ(next.status, JobStatus::kCompleted) << next.error;
  EXPECT_EQ(e.status().faults.worker_restarts, 0u);
}

// Preload and evict act on the proving keys, which live in the worker process: the daemon's own copy is a
// verifying key of a few hundred bytes.
TEST(EngineProcess, PreloadAndEvictReachTheWorker) {
  test::TempRepository repo;
  const auto bn = repo.add<Bn254>("bn", 2000, 1);
  Engine e(process_config(repo));
  EXPECT_FALSE(e.preload("bn").already_loaded);
  EXPECT_TRUE(e.preload("bn").already_loaded);
  EXPECT_THROW(e.preload("nope"), RequestError);
  const auto evicted = e.evict("bn");
  EXPECT_TRUE(evicted.was_loaded);
  // A 2,000-constraint BN254 key: its points alone are ~0.5 MB; a verifying key is under 1 KB.
  EXPECT_GT(evicted.freed_bytes, 100u * 1024);
  EXPECT_FALSE(e.preload("bn").already_loaded);  // gone from the worker, so loaded again
  const auto r = e.await(e.submit({"after", "bn", std::nullopt, bn}).job_id);
  EXPECT_EQ(r.status, JobStatus::kCompleted) << r.error;
}

// The arguments the worker process `pid` was started with.
std::vector<std::string> arguments_of(const std::string& pid) {
  std::ifstream in("/proc/" + pid + "/cmdline");
  std::vector<std::string> args;
  for (std::string a; std::getline(in, a, '\0');) args.push_back(a);
  return args;
}

// Each GPU's worker process gets its share of the witness pinned pool and of the host memory budget, as
// one pool and one budget serve every GPU in thread isolation: with the whole pool each, two GPUs' worker
// processes could page-lock twice what the host was meant to give. Two simulated GPUs here.
TEST(EngineProcess, EachGpusWorkerProcessGetsItsShareOfThePinnedPoolAndTheHostBudget) {
  test::TempRepository repo;
  const auto bn = repo.add<Bn254>("bn", 300, 1);
  auto cfg = process_config(repo);
  cfg.simulated_devices = 2;
  cfg.pinned_pool = std::size_t(8) << 30;
  cfg.host_memory_budget = std::size_t(20) << 30;
  Engine e(cfg);
  const auto r = e.await(e.submit({"one", "bn", std::nullopt, bn}).job_id);
  ASSERT_EQ(r.status, JobStatus::kCompleted) << r.error;
  std::vector<std::string> workers;
  for (int i = 0; i < 50 && (workers = children_named("cuzk-worker")).size() < 2; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  ASSERT_EQ(workers.size(), 2u);
  for (const auto& pid : workers) {
    const auto args = arguments_of(pid);
    auto value_of = [&](const std::string& option) {
      const auto it = std::find(args.begin(), args.end(), option);
      return it != args.end() && it + 1 != args.end() ? *(it + 1) : std::string("(missing)");
    };
    EXPECT_EQ(value_of("--pinned-pool"), std::to_string(std::size_t(4) << 30)) << "worker process " << pid;
    EXPECT_EQ(value_of("--host-memory-budget"), std::to_string(std::size_t(10) << 30))
        << "worker process " << pid;
  }
}

// The worker's own faults (here: corrupted proofs its self-check caught and proved again) appear in this
// engine's status, asked over the same socket.
TEST(EngineProcess, TheWorkersFaultsShowInThisEnginesStatus) {
  test::TempRepository repo;
  const auto bn = repo.add<Bn254>("bn", 300, 1);
  auto cfg = process_config(repo);
  cfg.fault_corrupt = {2, 0, 1};  // every second proof the worker makes is corrupted
  Engine e(cfg);
  // The worker's proofs 2, 4 and 6 are corrupted: jobs 2..4 each need a second attempt there.
  for (unsigned i = 0; i < 4; ++i) {
    const auto r = e.await(e.submit({"c", "bn", std::nullopt, bn}).job_id);
    ASSERT_EQ(r.status, JobStatus::kCompleted) << r.error;
    expect_valid<Bn254>(repo.root(), "bn", r.partitions.at(0));
    EXPECT_EQ(r.partitions[0].attempts, i == 0 ? 1u : 2u);
  }
  const auto s = e.status();
  EXPECT_EQ(s.faults.self_check, 3u);
  EXPECT_EQ(s.faults.retries, 3u);
  EXPECT_EQ(s.faults.worker_restarts, 0u);
}

// A worker that dies kCrashLoop times in a row without answering (here: it cannot start, as on a GPU no
// process can open any more) is replaced by its fallback (for a GPU: a CPU worker), which proves.
TEST(EngineProcess, AWorkerThatKeepsDyingIsReplacedByItsFallback) {
  test::TempRepository repo;
  repo.add<Bn254>("bn", 300, 1);
  ::setenv("CUZK_FAULT_WORKER_START_FAIL", "1", 1);
  const std::vector<std::string> argv = {CUZK_WORKER_EXE, "--repository", repo.root().string(), "--backend",
                                         "cpu"};
  auto fallback = argv;
  fallback.push_back("--fallback");
  test::LogLines lines;
  WorkerProcess p("cuda:7", argv, lines.sink(), fallback);
  const worker_protocol::Request request{0, worker_protocol::RequestKind::kProve, "bn",
                                         (repo.root() / "bn" / "witness-0.wtns").string(), 0};
  unsigned died = 0;
  PartitionResult r;
  for (;;) {
    try {
      r = p.call(request);
      break;
    } catch (const WorkerDied& e) {
      EXPECT_NE(std::string(e.what()).find("exited with status 1"), std::string::npos) << e.what();
      ASSERT_LT(++died, 10u) << "the fallback never took over";
    }
  }
  ::unsetenv("CUZK_FAULT_WORKER_START_FAIL");
  EXPECT_EQ(died, WorkerProcess::kCrashLoop);
  EXPECT_TRUE(p.on_fallback());
  EXPECT_NE(p.lost_reason().find("3 worker processes in a row"), std::string::npos) << p.lost_reason();
  expect_valid<Bn254>(repo.root(), "bn", r);
  EXPECT_EQ(lines.count("cuda:7 LOST"), 1u);
}

TEST(EngineProcess, AMissingWorkerExecutableIsAClearError) {
  test::TempRepository repo;
  auto cfg = process_config(repo);
  cfg.worker_exe = repo.root() / "no-such-worker";
  try {
    Engine e(cfg);
    ADD_FAILURE() << "an engine started without its worker executable";
  } catch (const std::invalid_argument& err) {
    EXPECT_NE(std::string(err.what()).find("no-such-worker"), std::string::npos) << err.what();
  }
  cfg.worker_exe = CUZK_WORKER_EXE;
  cfg.isolation = "fork";
  EXPECT_THROW(Engine e(cfg), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::engine
