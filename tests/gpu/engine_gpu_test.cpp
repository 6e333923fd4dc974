// The engine on the CUDA backend: several workers per GPU sharing one GPU mutex, keys prepared once per
// GPU, proofs of both curves checked with our verifier, evict dropping the device copies, cancellation,
// and device memory back to its baseline when the engine is gone.
#include <gtest/gtest.h>

#include <set>

#include "cuda/device.hpp"
#include "cuda/host_registry.hpp"
#include "cuda/staged_upload.hpp"
#include "cuda/vram.hpp"
#include "engine/engine.hpp"
#include "gpu/gpu_test_util.hpp"
#include "groth16/bellperson_plan.hpp"
#include "groth16/gpu_plan.hpp"
#include "groth16/verifier.hpp"
#include "io/bellperson.hpp"
#include "io/json.hpp"
#include "io/zkey.hpp"
#include "unit/engine_test_util.hpp"

namespace cuzk::engine {
namespace {

template <class Curve>
bool valid(const std::filesystem::path& root, const std::string& circuit, const PartitionResult& p) {
  if (p.state != PartitionState::kDone) return false;
  const auto pk = io::read_zkey<Curve>((root / circuit / "circuit.zkey").string());
  return groth16::verify(pk.verifying_key(), io::public_from_json<Curve>(p.public_json, "public"),
                         io::proof_from_json<Curve>(p.proof_json, "proof"))
      .valid;
}

// An engine's log lines, kept for the test to read (workers log from their own threads).
struct LogLines {
  std::vector<std::string> lines;
  std::mutex m;
  void capture(EngineConfig& cfg) {
    cfg.log = [this](const std::string& l) {
      std::lock_guard g(m);
      lines.push_back(l);
    };
  }
  std::size_t count(const std::string& needle) {
    std::lock_guard g(m);
    std::size_t n = 0;
    for (const auto& l : lines) n += l.find(needle) != std::string::npos;
    return n;
  }
};

// An engine on GPU 0 with `workers` workers, serving `repo`.
// The pinned pool fills on demand here, so that which partition is pre-staged does not depend on how fast a
// background thread page-locks (AWorkersFirstLeasesAreFilledInTheBackground tests the engine's default).
EngineConfig gpu0_config(const test::TempRepository& repo, unsigned workers) {
  EngineConfig cfg;
  cfg.repository = repo.root();
  cfg.backend = "cuda";
  cfg.gpu_workers_per_device = workers;
  cfg.devices = {0};
  cfg.pinned_pool_in_background = false;
  return cfg;
}

// The assignment files repo.add_bellperson wrote for `circuit`, by path (as the daemon takes PoRep-size
// ones).
std::vector<std::string> assignment_paths(const test::TempRepository& repo, const std::string& circuit,
                                          int n) {
  std::vector<std::string> paths;
  for (int i = 0; i < n; ++i)
    paths.push_back((repo.root() / circuit / ("assignment-" + std::to_string(i) + ".bin")).string());
  return paths;
}

// A 192-byte bellperson proof that verifies against the key's verifying key and the partition's inputs.
void expect_bellperson_valid(const io::bellperson::Params& params, const PartitionResult& p, std::size_t k) {
  namespace bp = groth16::bellperson;
  ASSERT_EQ(p.proof_bytes.size(), 192u);
  const auto proof = bp::decode_proof(
      std::span(reinterpret_cast<const std::uint8_t*>(p.proof_bytes.data()), 192), "proof", k);
  EXPECT_TRUE(bp::verify(params.vk, io::public_from_json<Bls12_381>(p.public_json, "public"), proof).valid);
}

// One engine's life: jobs of both curves on two workers sharing GPU 0, then an evict and a re-prepare. With
// `pin_keys` the repository page-locks each key it loads; without (the default) the resident keys stay
// pageable.
void prove_on_one_gpu(const test::TempRepository& repo, const std::vector<std::vector<std::uint8_t>>& bn,
                      const std::vector<std::vector<std::uint8_t>>& bls, bool pin_keys) {
  {
    LogLines log;
    EngineConfig cfg = gpu0_config(repo, 2);
    cfg.pin_keys = pin_keys;
    log.capture(cfg);
    Engine e(cfg);
    ASSERT_EQ(e.backend(), "cuda");
    std::vector<std::pair<std::string, bool>> jobs;  // id, is_bls
    for (int i = 0; i < 6; ++i) {
      jobs.emplace_back(e.submit({"b" + std::to_string(i), "bn", std::nullopt, {bn[i % 2]}}).job_id, false);
      if (i % 2 == 0)
        jobs.emplace_back(e.submit({"l" + std::to_string(i), "bls", Priority::kHigh, bls}).job_id, true);
    }
    for (const auto& [id, is_bls] : jobs) {
      const auto r = e.await(id);
      ASSERT_EQ(r.status, JobStatus::kCompleted) << r.error;
      for (const auto& p : r.partitions) {
        EXPECT_TRUE(is_bls ? valid<Bls12_381>(repo.root(), "bls", p) : valid<Bn254>(repo.root(), "bn", p));
        EXPECT_EQ(p.worker.rfind("cuda:0/", 0), 0u) << p.worker;
      }
    }
    auto s = e.status();
    ASSERT_EQ(s.devices.size(), 1u);
    EXPECT_EQ(s.faults.vram_leaks, 0u);  // pre-staged witnesses of the other worker are not counted as leaks
    EXPECT_EQ(s.devices[0].resident_circuits.size(), 2u);
    for (const auto& c : s.circuits) EXPECT_EQ(c.tier, Tier::kGpu) << c.id;
    // With pin_keys both keys are page-locked once, through the registry the workers share; without, a
    // resident key went up through the staging buffers and nothing of it is locked.
    if (pin_keys)
      EXPECT_GT(s.pinned_bytes, 0u);
    else
      EXPECT_EQ(s.pinned_bytes, 0u);
    // The pool's buffers are locked through the registry too, each rounded up to whole huge pages.
    const std::size_t registered = cuda::HostRegistry::instance().registered_bytes();
    const std::size_t accounted = s.pinned_bytes + s.pinned_staging_bytes + s.pinned_pool_bytes;
    EXPECT_GE(registered, accounted);
    EXPECT_LE(registered, accounted + 64 * (std::size_t{2} << 20));
    std::size_t workers_used = 0;
    for (const auto& w : s.workers) workers_used += w.partitions_done > 0;
    EXPECT_EQ(workers_used, 2u);
    {
      const std::size_t ok_lines = log.count("prestage_setup=ok");
      // Every partition is pre-staged except a circuit's first on the device (one per worker at most):
      // until one of its proofs has run there, its need beside a staged witness is not known.
      EXPECT_LE(ok_lines, 6u + 3u * 3u);
      EXPECT_GE(ok_lines, 6u + 3u * 3u - 2u * 2u);
      // /metrics and /status count the same outcomes.
      EXPECT_EQ(s.partitions_by_prestage["ok"], ok_lines);
      EXPECT_EQ(s.partitions_by_prestage["ok"] + s.partitions_by_prestage["fallback"], 6u + 3u * 3u);
      // Each line reports the wait for the GPU region apart from the GPU time.
      EXPECT_EQ(log.count(" gpu_wait_ms="), 6u + 3u * 3u);
    }
    // Evict drops the device copy too; the next job prepares it again.
    const auto pinned_with_bls = e.status().pinned_bytes;
    EXPECT_GT(e.evict("bls").freed_bytes, 0u);
    EXPECT_EQ(e.status().devices[0].resident_circuits.size(), 1u);
    if (pin_keys) {
      EXPECT_LT(e.status().pinned_bytes, pinned_with_bls);
    }
    // The registry holds the keys' locks, the staging buffers' and the pinned pool's buffers' (rounded up to
    // whole huge pages), nothing else: the evicted key's locks went with it.
    const auto after = e.status();
    const std::size_t held = after.pinned_bytes + after.pinned_staging_bytes + after.pinned_pool_bytes;
    EXPECT_GE(cuda::HostRegistry::instance().registered_bytes(), held);
    EXPECT_LE(cuda::HostRegistry::instance().registered_bytes(), held + 64 * (std::size_t{2} << 20));
    if (!pin_keys) {
      EXPECT_EQ(after.pinned_bytes, 0u);
    }
    const auto again = e.await(e.submit({"again", "bls", std::nullopt, bls}).job_id);
    EXPECT_EQ(again.status, JobStatus::kCompleted) << again.error;
  }
}

TEST(EngineGpu, WorkersShareTheGpuAndEveryProofVerifies) {
  CUZK_REQUIRE_GPU();
  test::TempRepository repo;
  auto bn = repo.add<Bn254>("bn", 3000, 2);
  auto bls = repo.add<Bls12_381>("bls", 2000, 3, "partitions = 3\n");
  // The first engine also pays one-time costs that stay with the CUDA context (kernel images loaded lazily
  // on first launch: 8 MiB on the H200), so the baseline is taken after it and the second must give back
  // every byte it took.
  prove_on_one_gpu(repo, bn, bls, /*pin_keys=*/true);
  const auto baseline = cuda::mem_info().first;
  prove_on_one_gpu(repo, bn, bls, /*pin_keys=*/false);
  EXPECT_EQ(cuda::mem_info().first, baseline);  // every device buffer of the engine is gone
  // and every page lock but the staging buffers StagedUpload keeps for the next upload
  EXPECT_EQ(cuda::HostRegistry::instance().registered_bytes(), cuda::StagedUpload::cached_bytes());
}

// Several GPUs (issue 34): every GPU's workers pull from the one queue, so a lone job's partitions are proved
// on every GPU, each GPU with its own device copy of the key; every proof verifies. Needs two GPUs.
TEST(EngineGpu, EveryGpuProvesPartitionsOfTheOneQueue) {
  CUZK_REQUIRE_GPU();
  const int gpus = cuda::device_count();
  if (gpus < 2) GTEST_SKIP() << "one GPU: the multi-GPU kind of machine runs this";
  test::TempRepository repo;
  auto bls = repo.add<Bls12_381>("bls", 20000, 8, "partitions = 8\n");
  EngineConfig cfg;
  cfg.repository = repo.root();
  cfg.backend = "cuda";
  cfg.gpu_workers_per_device = 2;  // every GPU (engine.devices empty)
  Engine e(cfg);
  const auto r = e.await(e.submit({"spread", "bls", std::nullopt, bls}).job_id);
  ASSERT_EQ(r.status, JobStatus::kCompleted) << r.error;
  std::set<std::string> used;
  for (const auto& p : r.partitions) {
    EXPECT_TRUE(valid<Bls12_381>(repo.root(), "bls", p));
    used.insert(p.worker.substr(0, p.worker.find('/')));
  }
  EXPECT_EQ(used.size(), static_cast<std::size_t>(gpus)) << "the job's partitions kept to some GPUs";
  const auto s = e.status();
  ASSERT_EQ(s.devices.size(), static_cast<std::size_t>(gpus));
  for (const auto& d : s.devices) {
    EXPECT_FALSE(d.lost);
    EXPECT_EQ(d.resident_circuits, std::vector<std::string>{"bls"}) << "GPU " << d.ordinal;
  }
}

// Bellperson (Filecoin) circuits on a GPU worker: ten partitions of 192 bytes, each verifying, proved on
// the GPU with the key resident (uploaded by the first partition only, then kept on the device), with a
// corrupted proof caught and proved again.
TEST(EngineGpu, BellpersonPartitionsProveOnTheGpu) {
  CUZK_REQUIRE_GPU();
  test::TempRepository repo;
  repo.add_bellperson("porep", 12, 10);
  const auto params = io::bellperson::read_params((repo.root() / "porep" / "circuit.params").string());
  // By path, as the daemon takes PoRep-size assignments: each is decoded into a pinned lease.
  const auto paths = assignment_paths(repo, "porep", 10);
  // One worker: no partition can meet the corruption three times in a row.
  EngineConfig cfg = gpu0_config(repo, 1);
  cfg.fault_corrupt = {4, 0, 1};
  cfg.log = [](const std::string&) {};
  Engine e(cfg);
  const auto r = e.await(e.submit({"p", "porep", std::nullopt, {}, paths}).job_id);
  ASSERT_EQ(r.status, JobStatus::kCompleted) << r.error;
  ASSERT_EQ(r.partitions.size(), 10u);
  std::size_t uploads = 0;
  for (std::size_t k = 0; k < r.partitions.size(); ++k) {
    const auto& p = r.partitions[k];
    EXPECT_EQ(p.plan, "resident");
    for (const auto& [stage, ms] : p.stages.stages_ms) uploads += stage == "upload_key";
    EXPECT_EQ(p.worker.rfind("cuda:0/", 0), 0u);
    expect_bellperson_valid(params, p, k);
  }
  EXPECT_EQ(uploads, 1u);
  auto status = e.status();
  // Every partition after the first had its a, b, c pre-staged (one worker: the upload ran between
  // partitions); the first is not, as its need on the device was not known yet.
  EXPECT_EQ(status.partitions_by_prestage["ok"], 9u);
  EXPECT_EQ(status.partitions_by_prestage["fallback"], 1u);
  // Each partition's a, b, c and its aux were decoded straight into pinned leases, the first one's too (which
  // then went up from them inside the GPU region): two leases per partition, none refused.
  EXPECT_EQ(status.pinned_pool_leases, 20u);
  EXPECT_EQ(status.pinned_pool_refused, 0u);
  EXPECT_EQ(status.devices.at(0).resident_circuits, std::vector<std::string>{"porep"});
  e.shutdown(true);
  EXPECT_GE(e.status().faults.self_check, 2u);
  EXPECT_EQ(e.status().partitions_by_plan.at("resident"), 10u);
}

// The engine's default: a worker's first leases are refused at once (its partition goes up from pageable
// memory) while the pool page-locks their buffers in the background; later partitions take those and are
// pre-staged. Every proof verifies either way.
TEST(EngineGpu, AWorkersFirstLeasesAreFilledInTheBackground) {
  CUZK_REQUIRE_GPU();
  test::TempRepository repo;
  repo.add_bellperson("porep", 12, 10);
  const auto params = io::bellperson::read_params((repo.root() / "porep" / "circuit.params").string());
  const auto paths = assignment_paths(repo, "porep", 10);
  EngineConfig cfg = gpu0_config(repo, 1);
  cfg.pinned_pool_in_background = true;
  cfg.log = [](const std::string&) {};
  Engine e(cfg);
  const auto r = e.await(e.submit({"p", "porep", std::nullopt, {}, paths}).job_id);
  ASSERT_EQ(r.status, JobStatus::kCompleted) << r.error;
  ASSERT_EQ(r.partitions.size(), 10u);
  for (std::size_t k = 0; k < r.partitions.size(); ++k) {
    const auto& p = r.partitions[k];
    expect_bellperson_valid(params, p, k);
  }
  EXPECT_EQ(r.partitions[0].prestage, "fallback");  // its leases were deferred
  const auto s = e.status();
  EXPECT_GE(s.pinned_pool_deferred, 2u);  // the first partition's a, b, c and aux at least
  EXPECT_EQ(s.pinned_pool_refused, 0u);
  EXPECT_GT(s.pinned_pool_bytes, 0u);  // what the background page-locked stays for the next partitions
  // A few-KB buffer is page-locked in well under a millisecond, a partition takes tens: most are pre-staged.
  EXPECT_GE(s.partitions_by_prestage.at("ok"), 5u);
  EXPECT_EQ(s.partitions_by_prestage.at("ok") + s.partitions_by_prestage.at("fallback"), 10u);
}

// A pinned pool smaller than one partition's input can never pre-stage it: every partition falls back, all
// still proved, and the operator is told once which setting to raise.
TEST(EngineGpu, AnInputLargerThanThePinnedPoolIsReportedOnce) {
  CUZK_REQUIRE_GPU();
  test::TempRepository repo;
  const auto parts = repo.add_bellperson("porep", 12, 3);  // a, b, c: ~0.4 MB per partition
  LogLines log;
  EngineConfig cfg = gpu0_config(repo, 1);
  cfg.pinned_pool = 64 << 10;
  log.capture(cfg);
  Engine e(cfg);
  for (int i = 0; i < 2; ++i) {
    const auto r = e.await(e.submit({"p" + std::to_string(i), "porep", std::nullopt, parts}).job_id);
    ASSERT_EQ(r.status, JobStatus::kCompleted) << r.error;
  }
  EXPECT_EQ(e.status().partitions_by_prestage["fallback"], 6u);
  EXPECT_EQ(e.status().partitions_by_prestage["ok"], 0u);
  EXPECT_EQ(log.count("larger than engine.pinned_pool"), 1u);
  EXPECT_EQ(e.status().pinned_pool_leases, 0u);  // never asked for what cannot fit
}

// Keys stay pageable unless a plan streams them (repository.pin_keys off, the default): a card too small for
// the resident plan streams the key's points from host memory, so that plan page-locks them (once, shared by
// the workers) while it holds the key, and evicting the key unlocks them.
TEST(EngineGpu, AKeyIsPageLockedOnlyWhileAPlanStreamsIt) {
  CUZK_REQUIRE_GPU();
  cuda::select_device(0);
  test::TempRepository repo;
  const auto parts = repo.add_bellperson("porep", 12, 2);
  const auto params = io::bellperson::read_params((repo.root() / "porep" / "circuit.params").string());
  const auto f = groth16::bellperson::gpu_footprint(params);
  const std::size_t streamed = f.need(groth16::gpu::Plan::kStreamed),
                    resident = f.need(groth16::gpu::Plan::kResident);
  ASSERT_LT(streamed, resident);
  EngineConfig cfg = gpu0_config(repo, 2);
  cfg.vram_limit = cuda::vram_usage(0).in_use + cfg.vram_margin + streamed + (resident - streamed) / 2;
  cfg.log = [](const std::string&) {};
  {
    Engine e(cfg);
    const auto r = e.await(e.submit({"s", "porep", std::nullopt, parts}).job_id);
    ASSERT_EQ(r.status, JobStatus::kCompleted) << r.error;
    for (const auto& p : r.partitions) EXPECT_EQ(p.plan, "streamed");
    const auto s = e.status();
    EXPECT_GE(s.pinned_bytes, params.h.size() * sizeof(params.h[0]));  // the points, H among them
    EXPECT_EQ(cuda::HostRegistry::instance().registered_bytes(), s.pinned_bytes + s.pinned_staging_bytes);
    EXPECT_GT(e.evict("porep").freed_bytes, 0u);
    EXPECT_EQ(e.status().pinned_bytes, 0u);
  }
  cuda::set_vram_policy({});
  EXPECT_EQ(cuda::HostRegistry::instance().registered_bytes(), cuda::StagedUpload::cached_bytes());
}

}  // namespace
}  // namespace cuzk::engine
