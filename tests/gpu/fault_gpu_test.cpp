// GPU memory discipline and fault recovery (issue 5): the VRAM policy refuses what would pass its limit and
// accounts every byte; a sticky fault is survived by resetting the context; and the engine, with two
// workers on one GPU, turns injected out-of-memory, sticky faults and corrupted proofs into retried
// partitions — every job ends proved (or with a clear error once its attempts are spent), no invalid
// proof is returned, device memory and page locks return to their baseline.
//
// How many faults of each kind the engine test injects: CUZK_FAULT_TEST_COUNT (default 40; the device run
// in the issue note used 1000 for allocation and corruption faults) and CUZK_FAULT_TEST_STICKY (default 5;
// each one recreates the context). Sticky faults come last: on a driver that will not give the process a
// new context the device is lost for the rest of the process. With isolation = "process" they cost a
// worker restart instead: CUZK_FAULT_TEST_STICKY_PROCESS of them (default 3).
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <thread>

#include "cuda/device.hpp"
#include "cuda/device_buffer.hpp"
#include "cuda/fault_injection.hpp"
#include "cuda/host_registry.hpp"
#include "cuda/pinned_pool.hpp"
#include "cuda/shared_device_memory.hpp"
#include "cuda/staged_upload.hpp"
#include "cuda/stream.hpp"
#include "cuda/vram.hpp"
#include "engine/engine.hpp"
#include "gpu/gpu_test_util.hpp"
#include "groth16/bellperson.hpp"
#include "groth16/gpu_plan.hpp"
#include "groth16/verifier.hpp"
#include "io/bellperson.hpp"
#include "io/json.hpp"
#include "io/zkey.hpp"
#include "unit/engine_test_util.hpp"

namespace cuzk {
namespace {

std::size_t env_count(const char* name, std::size_t fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::stoull(v) : fallback;
}

constexpr std::size_t kMiB = std::size_t(1) << 20;

TEST(Vram, TheLimitRefusesBeyondItAndEveryByteIsAccounted) {
  CUZK_REQUIRE_GPU();
  cuda::select_device(0);
  const auto saved = cuda::vram_policy();
  const auto before = cuda::vram_usage(0);
  cuda::set_vram_policy({before.in_use + 256 * kMiB, 0});
  {
    cuda::DeviceBuffer<std::uint8_t> a(200 * kMiB);
    EXPECT_EQ(cuda::vram_usage(0).in_use, before.in_use + 200 * kMiB);
    EXPECT_LE(cuda::vram_available(), 56 * kMiB);
    try {
      cuda::DeviceBuffer<std::uint8_t> b(100 * kMiB);
      ADD_FAILURE() << "allocated past the VRAM limit";
    } catch (const cuda::CudaError& e) {
      EXPECT_EQ(e.kind(), cuda::CudaError::Kind::out_of_memory);
      EXPECT_NE(std::string(e.what()).find("refused"), std::string::npos) << e.what();
    }
    cuda::DeviceBuffer<std::uint8_t> c(50 * kMiB);  // what is left still serves
    EXPECT_EQ(cuda::vram_usage(0).live_buffers, before.live_buffers + 2);
  }
  EXPECT_EQ(cuda::vram_usage(0).in_use, before.in_use);
  EXPECT_EQ(cuda::vram_usage(0).refused, before.refused + 1);
  // The margin: an allocation that would leave less than it free on the device is refused too.
  cuda::set_vram_policy({0, cuda::mem_info().second});
  EXPECT_THROW({ cuda::DeviceBuffer<std::uint8_t> refused(kMiB); }, cuda::CudaError);
  cuda::set_vram_policy(saved);
}

TEST(Vram, InjectedAllocationFailuresLookLikeOutOfMemory) {
  CUZK_REQUIRE_GPU();
  cuda::allocation_faults().configure({2, 0, 1});
  cuda::DeviceBuffer<std::uint8_t> first(kMiB);
  try {
    cuda::DeviceBuffer<std::uint8_t> second(kMiB);
    ADD_FAILURE() << "the injected failure did not fire";
  } catch (const cuda::CudaError& e) {
    EXPECT_EQ(e.kind(), cuda::CudaError::Kind::out_of_memory);
    EXPECT_NE(std::string(e.what()).find("injected"), std::string::npos);
  }
  cuda::allocation_faults().configure({});
  cuda::DeviceBuffer<std::uint8_t> third(kMiB);
}

TEST(PinnedPool, LeasesWithinTheBudgetAndReusesBuffers) {
  CUZK_REQUIRE_GPU();
  cuda::PinnedPool pool(10 * kMiB);
  auto a = pool.lease(4 * kMiB), b = pool.lease(4 * kMiB);
  ASSERT_TRUE(a && b);
  a.data()[0] = std::byte{7};
  EXPECT_FALSE(pool.lease(4 * kMiB));  // 12 MiB would pass the budget
  EXPECT_EQ(pool.stats().refused, 1u);
  const std::byte* first = a.data();
  a = {};  // back to the pool, still page-locked
  EXPECT_EQ(pool.stats().held, 8 * kMiB);
  auto c = pool.lease(3 * kMiB);  // reuses the idle 4 MiB buffer
  EXPECT_EQ(c.data(), first);
  EXPECT_EQ(pool.stats().held, 8 * kMiB);
  cudaPointerAttributes attr{};
  ASSERT_EQ(cudaPointerGetAttributes(&attr, c.data()), cudaSuccess);
  EXPECT_EQ(attr.type, cudaMemoryTypeHost);
  c = {};
  b = {};
  // A request no idle buffer fits frees idle ones to make room within the budget.
  auto big = pool.lease(9 * kMiB);
  EXPECT_TRUE(big);
  EXPECT_EQ(pool.stats().held, 9 * kMiB);
  big = {};
  pool.trim();
  EXPECT_EQ(pool.stats().held, 0u);
}

// Filling in the background: a lease with no idle buffer is refused at once and its buffer page-locked on
// the pool's thread; asking again while that runs starts no second one; once filled, the next lease gets it.
TEST(PinnedPool, FillsInTheBackgroundWithoutMakingTheCallerWait) {
  CUZK_REQUIRE_GPU();
  cuda::PinnedPool pool(10 * kMiB, cuda::PinnedPool::Fill::kInBackground);
  EXPECT_FALSE(pool.lease(4 * kMiB));
  EXPECT_FALSE(pool.lease(3 * kMiB));  // the 4 MiB fill under way will serve it: no second fill
  pool.wait_for_fills();
  auto s = pool.stats();
  EXPECT_EQ(s.held, 4 * kMiB);
  EXPECT_EQ(s.filling, 0u);
  EXPECT_EQ(s.deferred, 2u);
  EXPECT_EQ(s.leases, 0u);
  auto a = pool.lease(4 * kMiB);
  ASSERT_TRUE(a);
  a.data()[4 * kMiB - 1] = std::byte{9};
  cudaPointerAttributes attr{};
  ASSERT_EQ(cudaPointerGetAttributes(&attr, a.data()), cudaSuccess);
  EXPECT_EQ(attr.type, cudaMemoryTypeHost);
  // A second worker's lease of the same size: deferred too, and filled beside the first within the budget.
  EXPECT_FALSE(pool.lease(4 * kMiB));
  pool.wait_for_fills();
  auto b = pool.lease(4 * kMiB);
  EXPECT_TRUE(b);
  EXPECT_EQ(pool.stats().held, 8 * kMiB);
  // Past the budget: refused outright, nothing filled.
  EXPECT_FALSE(pool.lease(4 * kMiB));
  pool.wait_for_fills();
  s = pool.stats();
  EXPECT_EQ(s.refused, 1u);
  EXPECT_EQ(s.held, 8 * kMiB);
  a = {};
  b = {};
  // Fills still queued when the pool goes are dropped, and the destructor waits for the one running.
  {
    cuda::PinnedPool brief(64 * kMiB, cuda::PinnedPool::Fill::kInBackground);
    for (int i = 1; i <= 6; ++i) EXPECT_FALSE(brief.lease(std::size_t(i) * 8 * kMiB));
  }
}

// A device reset (the in-process recovery from a sticky fault) destroys the context that held the pool's
// page-locks; the memory itself stays valid, and HostRegistry locks it again, so an idle buffer still serves
// full-speed copies afterwards.
TEST(PinnedPool, BuffersStayPageLockedAcrossADeviceReset) {
  CUZK_REQUIRE_GPU();
  cuda::PinnedPool pool(16 * kMiB);
  auto lease = pool.lease(3 * kMiB);
  ASSERT_TRUE(lease);
  auto* words = reinterpret_cast<std::uint32_t*>(lease.data());
  const std::size_t n = lease.bytes() / sizeof(std::uint32_t);
  for (std::size_t i = 0; i < n; ++i) words[i] = static_cast<std::uint32_t>(i * 2654435761u + 1);
  cuda::reset_device(0);
  EXPECT_TRUE(cuda::is_page_locked(lease.data()));
  cuda::Stream stream;
  cuda::DeviceBuffer<std::uint32_t> d(n, stream.get());
  d.upload(words, n, stream.get());
  std::vector<std::uint32_t> back(n);
  d.download(back.data(), n, stream.get());
  stream.synchronize();
  for (std::size_t i = 0; i < n; i += 4099)
    ASSERT_EQ(back[i], static_cast<std::uint32_t>(i * 2654435761u + 1));
  EXPECT_EQ(back.back(), static_cast<std::uint32_t>((n - 1) * 2654435761u + 1));
}

namespace eng = engine;

struct FaultRun {
  std::size_t completed = 0, failed = 0;
  eng::FaultCounts faults;
  std::map<std::string, std::uint64_t> plans;
  std::uint64_t resets = 0;
  bool lost = false;
  std::vector<std::string> recovery_lines;  // the engine's log lines about resets and lost devices
};

// Proves `jobs` jobs of 2 partitions with `workers` workers on GPU 0 under `cfg`'s fault injection; checks
// every returned proof and that failures are clear errors.
FaultRun run_engine(const test::TempRepository& repo, const std::vector<std::vector<std::uint8_t>>& w,
                    eng::EngineConfig cfg, std::size_t jobs, unsigned workers = 2) {
  cfg.repository = repo.root();
  cfg.backend = "cuda";
  cfg.gpu_workers_per_device = workers;
  cfg.devices = {0};
  std::mutex m;
  FaultRun run;
  cfg.log = [&](const std::string& l) {
    std::lock_guard g(m);
    if ((l.find("reset") != std::string::npos || l.find("LOST") != std::string::npos) &&
        run.recovery_lines.size() < 5)
      run.recovery_lines.push_back(l);
  };
  const auto pk = io::read_zkey<Bls12_381>((repo.root() / "c" / "circuit.zkey").string());
  eng::Engine e(cfg);
  std::vector<std::string> ids;
  for (std::size_t j = 0; j < jobs; ++j) ids.push_back(e.submit({"f", "c", std::nullopt, w}).job_id);
  for (const auto& id : ids) {
    const auto r = e.await(id);
    if (r.status == eng::JobStatus::kCompleted) {
      ++run.completed;
      for (const auto& p : r.partitions) {
        const auto proof = io::proof_from_json<Bls12_381>(p.proof_json, "proof");
        EXPECT_TRUE(groth16::verify(pk.verifying_key(),
                                    io::public_from_json<Bls12_381>(p.public_json, "public"), proof)
                        .valid)
            << "an invalid proof was returned";
      }
    } else {
      ++run.failed;
      std::printf("job %s failed: %s\n", id.c_str(), r.error.c_str());  // why, when a test expected none
      EXPECT_EQ(r.status, eng::JobStatus::kFailed);
      EXPECT_FALSE(r.error.empty());
      for (const auto& p : r.partitions)
        if (p.state == eng::PartitionState::kFailed) {
          EXPECT_TRUE(p.proof_json.empty()) << p.error;
        }
    }
  }
  e.shutdown(true);
  const auto s = e.status();
  run.faults = s.faults;
  run.plans = s.partitions_by_plan;
  run.resets = s.devices.at(0).context_resets;
  run.lost = s.devices.at(0).lost;
  return run;
}

// The original system's failure, recreated: two workers on a card with room for one proof plus half a
// witness. A worker waiting for the GPU must not pre-stage its witness there (the proof in progress would
// run out of memory at its peak); with room for one proof plus two witnesses it may. Either way no
// partition runs out of memory.
TEST(EngineFaults, PreStagingNeverTakesWhatTheProofInProgressNeeds) {
  CUZK_REQUIRE_GPU();
  cuda::select_device(0);
  test::TempRepository repo;
  auto w = repo.add<Bls12_381>("c", 1 << 14, 2, "partitions = 2\n");
  const auto pk = io::read_zkey<Bls12_381>((repo.root() / "c" / "circuit.zkey").string());
  const std::size_t witness_bytes = pk.n_vars * sizeof(Bls12_381::Fr);
  const std::size_t resident = groth16::gpu::footprint(pk).need(groth16::gpu::Plan::kResident);
  for (const bool room_for_two : {false, true}) {
    eng::EngineConfig cfg;
    // The limit counts what this process holds; the margin comes off it too.
    cfg.vram_limit = cuda::vram_usage(0).in_use + cfg.vram_margin + resident +
                     (room_for_two ? 2 * witness_bytes + witness_bytes / 2 : witness_bytes / 2);
    cfg.repository = repo.root();
    cfg.backend = "cuda";
    cfg.gpu_workers_per_device = 2;
    cfg.devices = {0};
    std::map<std::string, std::size_t> prestage;
    {
      eng::Engine e(cfg);
      std::vector<std::string> ids;
      for (int j = 0; j < 12; ++j) ids.push_back(e.submit({"s", "c", std::nullopt, w}).job_id);
      for (const auto& id : ids) {
        const auto r = e.await(id);
        EXPECT_EQ(r.status, eng::JobStatus::kCompleted) << r.error;
        for (const auto& p : r.partitions) {
          ++prestage[p.prestage];
          EXPECT_EQ(p.attempts, 1u) << "plan " << p.plan << ": " << p.error;
        }
      }
      e.shutdown(true);
      EXPECT_EQ(e.status().faults.out_of_memory, 0u);
    }
    std::printf("limit = one proof + %s: prestage ok=%zu fallback=%zu\n",
                room_for_two ? "2.5 witnesses" : "half a witness", prestage["ok"], prestage["fallback"]);
    if (!room_for_two) {
      EXPECT_EQ(prestage["ok"], 0u) << "a witness was staged where it did not fit beside a proof";
    }
  }
  cuda::set_vram_policy({});
}

// isolation = "process" on GPU 0, with the build tree's worker or (on the GPU machine, from
// scripts/gpu-bundle) the one beside this test.
eng::EngineConfig process_config_on_gpu0(const test::TempRepository& repo) {
  eng::EngineConfig cfg;
  cfg.repository = repo.root();
  cfg.backend = "cuda";
  cfg.isolation = "process";
  cfg.worker_exe = std::filesystem::exists(CUZK_WORKER_EXE)
                       ? std::filesystem::path(CUZK_WORKER_EXE)
                       : std::filesystem::read_symlink("/proc/self/exe").parent_path() / "cuzk-worker";
  cfg.devices = {0};
  return cfg;
}

// Sticky faults with isolation = "process": the worker process whose context is poisoned exits, a new one
// gets the GPU at once (this driver never gives the old process a context again), and the partitions in
// flight are proved again there. The GPU is never declared lost and no job fails.
TEST(EngineFaults, AStickyFaultInAWorkerProcessCostsOnlyARestart) {
  CUZK_REQUIRE_GPU();
  test::TempRepository repo;
  auto w = repo.add<Bls12_381>("c", 1000, 2, "partitions = 2\n");
  const auto pk = io::read_zkey<Bls12_381>((repo.root() / "c" / "circuit.zkey").string());
  auto cfg = process_config_on_gpu0(repo);
  cfg.gpu_workers_per_device = 2;
  cfg.max_attempts = 4;
  cfg.fault_sticky = {5, 0, 1};  // every child poisons its context in its fifth GPU proof
  // CUZK_FAULT_TEST_STICKY_PROCESS sticky faults (default 3): each child proves four partitions, then traps.
  const std::size_t target = env_count("CUZK_FAULT_TEST_STICKY_PROCESS", 3), jobs = 2 * target + 4;
  cuda::select_device(0);
  const auto free_before = cuda::mem_info().first;
  std::size_t completed = 0;
  eng::EngineStatus s;
  const auto t0 = std::chrono::steady_clock::now();
  {
    eng::Engine e(cfg);
    std::vector<std::string> ids;
    for (std::size_t j = 0; j < jobs; ++j) ids.push_back(e.submit({"s", "c", std::nullopt, w}).job_id);
    for (const auto& id : ids) {
      const auto r = e.await(id);
      EXPECT_EQ(r.status, eng::JobStatus::kCompleted) << r.error;
      if (r.status != eng::JobStatus::kCompleted) continue;
      ++completed;
      for (const auto& p : r.partitions) {
        EXPECT_NE(p.plan, "cpu-fallback");
        EXPECT_TRUE(groth16::verify(pk.verifying_key(),
                                    io::public_from_json<Bls12_381>(p.public_json, "public"),
                                    io::proof_from_json<Bls12_381>(p.proof_json, "proof"))
                        .valid);
      }
    }
    s = e.status();
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(completed, jobs);
  EXPECT_GE(s.faults.worker_restarts, target);
  // The workers are gone, and with them every byte they held on the GPU (their contexts included).
  std::size_t free_after = 0;
  for (int i = 0; i < 100 && (free_after = cuda::mem_info().first) + 64 * kMiB < free_before; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_GE(free_after + 64 * kMiB, free_before) << "device memory was left behind by the worker processes";
  std::printf(
      "sticky faults in worker processes: %zu jobs proved, %llu worker restarts, %llu retries, %.1f s\n",
      completed, static_cast<unsigned long long>(s.faults.worker_restarts),
      static_cast<unsigned long long>(s.faults.retries), seconds);
  std::fflush(stdout);
}

// The worker processes' shared key store on the GPU (engine.key_store): a worker killed with SIGKILL in the
// middle of a proof, and one that exits after a sticky fault, are replaced by workers that map the key from
// the store and page-lock it; the key file is not read again. Checked, not assumed: after the first proof
// the key file is overwritten with random bytes that keep its size and modification time.
TEST(EngineFaults, ReplacedWorkersMapTheKeyInsteadOfReadingTheKeyFile) {
  CUZK_REQUIRE_GPU();
  test::TempRepository repo;
  auto w = repo.add<Bls12_381>("c", 60000, 2, "partitions = 2\n");
  const auto pk = io::read_zkey<Bls12_381>((repo.root() / "c" / "circuit.zkey").string());
  auto cfg = process_config_on_gpu0(repo);
  cfg.spool_dir = repo.root();
  cfg.max_attempts = 4;
  cfg.fault_sticky = {6, 0, 1};  // every child poisons its context in its sixth GPU proof
  auto expect_verified = [&](const eng::JobResult& r) {
    ASSERT_EQ(r.status, eng::JobStatus::kCompleted) << r.error;
    for (const auto& p : r.partitions)
      EXPECT_TRUE(groth16::verify(pk.verifying_key(),
                                  io::public_from_json<Bls12_381>(p.public_json, "public"),
                                  io::proof_from_json<Bls12_381>(p.proof_json, "proof"))
                      .valid);
  };
  eng::Engine e(cfg);
  expect_verified(e.await(e.submit({"first", "c", std::nullopt, w}).job_id));
  EXPECT_TRUE(std::filesystem::exists(repo.root() / ("cuzk-keys-" + std::to_string(::getpid())) / "c.key"));
  test::scramble_keeping_identity(repo.root() / "c" / "circuit.zkey");
  // SIGKILL to the worker process while its partitions run.
  const auto killed = e.submit({"killed", "c", std::nullopt, w}).job_id;
  for (int i = 0; i < 20000; ++i) {
    if (e.await(killed, std::chrono::milliseconds(0)).partitions[0].state == eng::PartitionState::kRunning)
      break;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  // The engine says which process serves the GPU (its /proc view may not be this one's: a container's).
  const auto serving = e.status().devices;
  ASSERT_EQ(serving.size(), 1u);
  ASSERT_GT(serving[0].worker_pid, 0);
  ASSERT_EQ(::kill(static_cast<pid_t>(serving[0].worker_pid), SIGKILL), 0) << std::strerror(errno);
  expect_verified(e.await(killed));
  // Then sticky faults: each child exits at its sixth proof.
  std::vector<std::string> ids;
  for (int j = 0; j < 8; ++j) ids.push_back(e.submit({"s", "c", std::nullopt, w}).job_id);
  for (const auto& id : ids) expect_verified(e.await(id));
  const auto s = e.status();
  EXPECT_GE(s.faults.worker_restarts, 2u);
  EXPECT_GT(s.key_store_bytes, 0u);
  // And the key's device copy was not uploaded again either: each replacement mapped the five point arrays
  // its predecessor left with the keeper (where the device can export memory).
  // (The last death may have had no successor yet: restarts count deaths.)
  if (cuda::SharedDeviceMemory::supported()) {
    EXPECT_GE(s.kept_arrays_handed_back, 5u);
    EXPECT_GE(s.kept_arrays_handed_back, 5 * (s.faults.worker_restarts - 1));
  }
  std::printf(
      "key store on the GPU: %llu worker restarts, every proof from the mapped key (its file scrambled)\n",
      static_cast<unsigned long long>(s.faults.worker_restarts));
  std::fflush(stdout);
}

// The key's device copy outlives the worker process (io/kept_memory.hpp): a bellperson key's points are
// kept by the daemon's keeper, and the worker that replaces one killed with SIGKILL maps them (checksum
// checked) instead of uploading them again; an evict frees them. Checked through the keeper's own counts.
TEST(EngineFaults, AReplacedWorkerMapsTheKeptDeviceKeyInsteadOfUploadingIt) {
  CUZK_REQUIRE_GPU();
  if (!cuda::SharedDeviceMemory::supported()) GTEST_SKIP() << "this device cannot export memory";
  test::TempRepository repo;
  repo.add_bellperson("porep", 12, 3);
  const auto params = io::bellperson::read_params((repo.root() / "porep" / "circuit.params").string());
  std::vector<std::string> paths;
  for (int i = 0; i < 3; ++i)
    paths.push_back((repo.root() / "porep" / ("assignment-" + std::to_string(i) + ".bin")).string());
  auto cfg = process_config_on_gpu0(repo);
  cfg.max_attempts = 4;
  auto expect_verified = [&](const eng::JobResult& r) {
    ASSERT_EQ(r.status, eng::JobStatus::kCompleted) << r.error;
    for (std::size_t k = 0; k < r.partitions.size(); ++k) {
      const auto& p = r.partitions[k];
      EXPECT_EQ(p.plan, "resident");
      ASSERT_EQ(p.proof_bytes.size(), 192u);
      const auto proof = groth16::bellperson::decode_proof(
          std::span(reinterpret_cast<const std::uint8_t*>(p.proof_bytes.data()), 192), "proof", k);
      EXPECT_TRUE(groth16::bellperson::verify(params.vk,
                                              io::public_from_json<Bls12_381>(p.public_json, "public"), proof)
                      .valid);
    }
  };
  cuda::select_device(0);
  const auto free_before = cuda::mem_info().first;
  {
    eng::Engine e(cfg);
    expect_verified(e.await(e.submit({"first", "porep", std::nullopt, {}, paths}).job_id));
    auto s = e.status();
    const std::size_t kept = s.kept_device_bytes;
    EXPECT_GT(kept, 0u) << "the first worker process kept nothing";
    EXPECT_EQ(s.kept_arrays_handed_back, 0u);
    ASSERT_EQ(s.devices.size(), 1u);
    ASSERT_GT(s.devices[0].worker_pid, 0);
    ASSERT_EQ(::kill(static_cast<pid_t>(s.devices[0].worker_pid), SIGKILL), 0) << std::strerror(errno);
    expect_verified(e.await(e.submit({"after", "porep", std::nullopt, {}, paths}).job_id));
    s = e.status();
    EXPECT_GE(s.faults.worker_restarts, 1u);
    EXPECT_EQ(s.kept_arrays_handed_back, 5u);  // h, l, a, b_g1, b_g2: none uploaded again
    EXPECT_EQ(s.kept_device_bytes, kept);
    e.evict("porep");
    EXPECT_EQ(e.status().kept_device_bytes, 0u);
    std::printf("kept device key: %.1f MiB kept by the daemon, 5 arrays mapped by the replacement\n",
                static_cast<double>(kept) / (1 << 20));
  }
  std::size_t free_after = 0;
  for (int i = 0; i < 100 && (free_after = cuda::mem_info().first) + 64 * kMiB < free_before; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_GE(free_after + 64 * kMiB, free_before) << "kept device memory outlived the daemon's engine";
}

TEST(EngineFaults, InjectedFaultsOfEveryKindEndInProofsAndLeaveNothingBehind) {
  CUZK_REQUIRE_GPU();
  cuda::select_device(0);
  test::TempRepository repo;
  auto w = repo.add<Bls12_381>("c", 1000, 2, "partitions = 2\n");
  const std::size_t target = env_count("CUZK_FAULT_TEST_COUNT", 40),
                    sticky = env_count("CUZK_FAULT_TEST_STICKY", 5);
  // A first clean run pays the one-time costs that stay with the context; the baseline comes after it.
  {
    const auto clean = run_engine(repo, w, {}, 2);
    EXPECT_EQ(clean.completed, 2u);
    EXPECT_EQ(clean.plans.at("resident"), 4u);
  }
  const auto free_baseline = cuda::mem_info().first;
  const auto used_baseline = cuda::vram_usage(0).in_use;
  const auto check_baseline = [&](const char* what, bool device_usable = true) {
    EXPECT_EQ(cuda::vram_usage(0).in_use, used_baseline) << what;
    if (!device_usable) return;
    EXPECT_EQ(cuda::vram_usage(0).live_buffers, 0u) << what;
    EXPECT_EQ(cuda::HostRegistry::instance().registered_bytes(), cuda::StagedUpload::cached_bytes()) << what;
    // After a context reset the lazily loaded kernel images come back; allow for them, nothing more.
    EXPECT_LE(free_baseline - std::min(free_baseline, cuda::mem_info().first), 64 * kMiB) << what;
  };

  // Corrupted proofs: every third. Each one is caught by the self-check and proved again.
  {
    eng::EngineConfig cfg;
    cfg.fault_corrupt = {3, 0, 1};
    // One worker: a partition's attempts are then consecutive proofs, so every third being corrupted can
    // never hit one partition three times (two workers' interleaving could line that up).
    const auto run = run_engine(repo, w, cfg, target, 1);
    EXPECT_EQ(run.failed, 0u);
    EXPECT_GE(run.faults.self_check, target / 2);
    std::printf("corruption: %zu jobs proved, %llu corrupted proofs caught and proved again\n", run.completed,
                static_cast<unsigned long long>(run.faults.self_check));
    std::fflush(stdout);
    check_baseline("after corruption");
  }
  // Device allocations failing at random (0.2 %, ~100 allocations per proof): out-of-memory, released and
  // retried, the plan stepping down when it repeats.
  {
    eng::EngineConfig cfg;
    cfg.fault_alloc = {0, 0.002, 7};
    std::size_t jobs = 0;
    FaultRun total;
    while (total.faults.out_of_memory < target && jobs < 100 * target) {
      const auto run = run_engine(repo, w, cfg, 20);
      jobs += 20;
      total.completed += run.completed;
      total.failed += run.failed;
      total.faults.out_of_memory += run.faults.out_of_memory;
      total.faults.retries += run.faults.retries;
      for (const auto& [plan, n] : run.plans) total.plans[plan] += n;
    }
    EXPECT_GE(total.faults.out_of_memory, target);
    EXPECT_GE(total.completed, jobs * 8 / 10);  // a job fails only if 3 attempts in a row were hit
    std::printf(
        "allocation faults: %llu out-of-memory in %zu jobs; %zu proved, %zu failed after 3 attempts; "
        "plans:",
        static_cast<unsigned long long>(total.faults.out_of_memory), jobs, total.completed, total.failed);
    for (const auto& [plan, n] : total.plans)
      std::printf(" %s=%llu", plan.c_str(), static_cast<unsigned long long>(n));
    std::printf("\n");
    std::fflush(stdout);
    check_baseline("after allocation faults");
  }
  // Sticky faults (last: a device that cannot be recovered stays lost for this process): a trap in every
  // fifth proof poisons the context; it is reset and the proof retried — or, where the driver will not give
  // this process a new context, the device is declared lost and its workers prove on the CPU. Either way no
  // job fails and no invalid proof is returned.
  {
    eng::EngineConfig cfg;
    cfg.fault_sticky = {5, 0, 1};
    const auto run = run_engine(repo, w, cfg, (5 * sticky + 1) / 2);
    EXPECT_EQ(run.failed, 0u);
    EXPECT_GE(run.faults.context_lost, 1u);
    if (!run.lost) {
      EXPECT_GE(run.resets, sticky);
    }
    std::printf("sticky faults: %llu contexts lost, %llu reset, device %s, %zu jobs proved; plans:",
                static_cast<unsigned long long>(run.faults.context_lost),
                static_cast<unsigned long long>(run.resets), run.lost ? "LOST (CPU fallback)" : "recovered",
                run.completed);
    for (const auto& [plan, n] : run.plans)
      std::printf(" %s=%llu", plan.c_str(), static_cast<unsigned long long>(n));
    std::printf("\n");
    for (const auto& l : run.recovery_lines) std::printf("  %s\n", l.c_str());
    std::fflush(stdout);
    check_baseline("after sticky faults", !run.lost);
  }
}

}  // namespace
}  // namespace cuzk
