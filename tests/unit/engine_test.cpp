// The proving engine on the CPU backend: repository loading and eviction, jobs of one and several
// partitions, priorities, cancellation, bad requests, drain on shutdown. Every returned proof is checked
// with our verifier against the circuit's key.
#include "engine/engine.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <thread>

#include "groth16/verifier.hpp"
#include "io/json.hpp"
#include "io/zkey.hpp"
#include "unit/engine_result_check.hpp"
#include "unit/engine_test_util.hpp"

namespace cuzk::engine {
namespace {

EngineConfig cpu_config(const std::filesystem::path& root, unsigned workers = 1) {
  EngineConfig c;
  c.repository = root;
  c.backend = "cpu";
  c.cpu_workers = workers;
  c.log = [](const std::string&) {};
  return c;
}

// Submitting `q` must fail with a RequestError whose message contains `needle`.
void expect_refused(Engine& e, SubmitRequest q, const std::string& needle) {
  try {
    e.submit(std::move(q));
    ADD_FAILURE() << "accepted a request that should fail with '" << needle << "'";
  } catch (const RequestError& err) {
    EXPECT_NE(std::string(err.what()).find(needle), std::string::npos) << err.what();
  }
}

TEST(Repository, LoadsOnDemandRejectsUnknownAndBadIds) {
  test::TempRepository repo;
  repo.add<Bn254>("small", 16);
  Repository r(repo.root(), 0);
  EXPECT_THROW(r.acquire("missing"), RepositoryError);
  EXPECT_THROW(r.acquire("../small"), RepositoryError);
  EXPECT_THROW(r.acquire(""), RepositoryError);
  auto list = r.list();
  ASSERT_EQ(list.size(), 1u);
  EXPECT_EQ(list[0].tier, Tier::kDisk);
  auto c = r.acquire("small");
  EXPECT_EQ(c->curve, io::CurveId::bn254);
  EXPECT_GT(c->bytes, 0u);
  EXPECT_TRUE(r.preload("small").already_loaded);
  list = r.list();
  EXPECT_EQ(list[0].tier, Tier::kHost);
  EXPECT_EQ(list[0].jobs_holding, 1);
}

TEST(Repository, LeastRecentlyUsedEvictionUnderBudgetSparesHeldKeys) {
  test::TempRepository repo;
  repo.add<Bn254>("a", 64);
  repo.add<Bn254>("b", 64);
  repo.add<Bn254>("c", 64);
  std::size_t one = 0;
  {
    Repository probe(repo.root(), 0);
    one = probe.acquire("a")->bytes;
  }
  Repository r(repo.root(), 2 * one + one / 2);  // room for two
  r.preload("a");
  r.preload("b");
  r.acquire("a");  // a is now more recent than b
  r.preload("c");  // demotes b to the mapped tier
  auto tiers = r.list();
  EXPECT_EQ(tiers[0].tier, Tier::kHost);
  EXPECT_EQ(tiers[1].tier, Tier::kMapped);
  EXPECT_EQ(tiers[1].bytes, std::filesystem::file_size(repo.root() / "b" / "circuit.zkey"));
  EXPECT_EQ(tiers[2].tier, Tier::kHost);
  EXPECT_EQ(r.loaded_bytes(), 2 * one);  // mapped pages are the kernel's to reclaim, not the budget's
  {
    auto held_a = r.acquire("a");
    auto held_c = r.acquire("c");
    r.preload("b");  // nothing evictable: over budget rather than fail
    EXPECT_EQ(r.loaded_bytes(), 3 * one);
    const auto refused = r.evict("a");  // in use: not evicted, and it says so
    EXPECT_EQ(refused.jobs_holding, 1);
    EXPECT_EQ(refused.freed_bytes, 0u);
    EXPECT_EQ(r.loaded_bytes(), 3 * one);
  }
  const auto e = r.evict("b");
  EXPECT_TRUE(e.was_loaded);
  EXPECT_EQ(e.freed_bytes, one);
  EXPECT_FALSE(r.evict("b").was_loaded);
  EXPECT_EQ(r.loaded_bytes(), 2 * one);
}

TEST(Repository, MappedKeysReloadFromTheMappingUnlessTheFileChanged) {
  test::TempRepository repo;
  repo.add<Bn254>("a", 64);
  repo.add<Bn254>("b", 64);
  const auto key = [](const std::shared_ptr<const Circuit>& c) { return std::get<0>(c->key); };
  std::size_t one = 0;
  groth16::ProvingKey<Bn254> a_from_disk;
  {
    Repository probe(repo.root(), 0);
    one = probe.acquire("a")->bytes;
    a_from_disk = key(probe.acquire("a"));
  }
  Repository r(repo.root(), one + one / 2);  // room for one
  r.preload("a");
  r.preload("b");  // a → mapped
  ASSERT_EQ(r.list()[0].tier, Tier::kMapped);
  const auto a = key(r.acquire("a"));  // decoded from the mapping; b → mapped
  EXPECT_EQ(a.a, a_from_disk.a);
  EXPECT_EQ(a.b2, a_from_disk.b2);
  EXPECT_EQ(a.h, a_from_disk.h);
  EXPECT_EQ(r.list()[0].tier, Tier::kHost);
  EXPECT_EQ(r.list()[1].tier, Tier::kMapped);

  // An operator replaces b's key while it is mapped: the next load reads the new file, not the mapping.
  const auto b_file = repo.root() / "b" / "circuit.zkey";
  std::filesystem::copy_file(repo.root() / "a" / "circuit.zkey", b_file,
                             std::filesystem::copy_options::overwrite_existing);
  std::filesystem::last_write_time(b_file,
                                   std::filesystem::last_write_time(b_file) + std::chrono::seconds(5));
  EXPECT_EQ(key(r.acquire("b")).h, a_from_disk.h);

  // Evict takes a mapped key down to disk.
  r.preload("a");  // b → mapped
  ASSERT_EQ(r.list()[1].tier, Tier::kMapped);
  r.evict("b");
  EXPECT_EQ(r.list()[1].tier, Tier::kDisk);
}

// Records what the repository page-locks; each handle's release is counted (the CUDA pinner is the same
// interface over cuda::HostRegistry, exercised by the gpu tests).
struct CountingPinner {
  std::shared_ptr<std::atomic<long>> locked = std::make_shared<std::atomic<long>>(0);
  std::shared_ptr<std::atomic<std::size_t>> bytes = std::make_shared<std::atomic<std::size_t>>(0);
  bool fail = false;
  Pinner pinner() {
    return [*this](void* data, std::size_t n) -> std::shared_ptr<void> {
      if (fail) throw std::runtime_error("locked-memory limit");
      ++*locked;
      *bytes += n;
      return std::shared_ptr<void>(data, [locked = locked, bytes = bytes, n](void*) {
        --*locked;
        *bytes -= n;
      });
    };
  }
};

TEST(Repository, PinsLoadedKeysWithinThePinnedBudgetAndUnpinsOnEviction) {
  test::TempRepository repo;
  repo.add<Bn254>("a", 64);
  repo.add<Bn254>("b", 64);
  std::size_t one = 0;
  {
    Repository probe(repo.root(), 0);
    one = probe.acquire("a")->bytes;
  }
  CountingPinner pins;
  Repository r(repo.root(), 0);
  r.set_pinner(pins.pinner(), one + one / 2);  // room to pin one key
  const auto a = r.acquire("a");
  EXPECT_EQ(*pins.locked, 5);  // a, b1, b2, c, h
  EXPECT_EQ(a->pinned_bytes, *pins.bytes);
  EXPECT_GT(a->pinned_bytes, one / 2);  // the point vectors are most of a key
  r.preload("b");                       // over the pinned budget: pageable
  auto list = r.list();
  EXPECT_EQ(list[0].tier, Tier::kPinned);
  EXPECT_EQ(list[0].pinned_bytes, a->pinned_bytes);
  EXPECT_EQ(list[1].tier, Tier::kHost);
  EXPECT_EQ(r.pinned_bytes(), a->pinned_bytes);
  EXPECT_EQ(r.evict("a").jobs_holding, 1);  // held here: still pinned
  EXPECT_EQ(*pins.locked, 5);
}

TEST(Repository, PinnedMemoryIsReleasedWithTheKeyAndAFailedPinLeavesItPageable) {
  test::TempRepository repo;
  repo.add<Bn254>("a", 64);
  CountingPinner pins;
  {
    Repository r(repo.root(), 0);
    r.set_pinner(pins.pinner(), 0);
    r.preload("a");
    EXPECT_EQ(*pins.locked, 5);
    EXPECT_GT(r.evict("a").freed_bytes, 0u);
    EXPECT_EQ(*pins.locked, 0);
    EXPECT_EQ(*pins.bytes, 0u);
    r.preload("a");
  }
  EXPECT_EQ(*pins.locked, 0);  // the repository's end unlocks everything
  CountingPinner refusing;
  refusing.fail = true;
  Repository r(repo.root(), 0);
  r.set_pinner(refusing.pinner(), 0);
  EXPECT_EQ(r.acquire("a")->pinned_bytes, 0u);
  EXPECT_EQ(r.list()[0].tier, Tier::kHost);
}

TEST(Repository, CircuitTomlIsValidated) {
  test::TempRepository repo;
  repo.add<Bn254>("good", 16, 0, "partitions = 3\npriority = \"high\"\n");
  repo.add<Bn254>("bad", 16, 0, "partitions = 0\n");
  repo.add<Bn254>("broken", 16, 0, "partitions = [\n");
  Repository r(repo.root(), 0);
  auto c = r.acquire("good");
  EXPECT_EQ(c->config.partitions, 3u);
  EXPECT_EQ(c->config.priority, Priority::kHigh);
  EXPECT_THROW(r.acquire("bad"), RepositoryError);
  EXPECT_THROW(r.acquire("broken"), RepositoryError);
}

TEST(Engine, ProvesBothCurvesAndSeveralPartitions) {
  test::TempRepository repo;
  auto bn = repo.add<Bn254>("bn", 100);
  auto bls = repo.add<Bls12_381>("bls", 100, 3, "partitions = 3\n");
  std::vector<std::string> lines;
  std::mutex m;
  auto cfg = cpu_config(repo.root(), 2);
  cfg.log = [&](const std::string& l) {
    std::lock_guard g(m);
    lines.push_back(l);
  };
  Engine e(cfg);
  auto j1 = e.submit({"req", "bn", std::nullopt, bn});
  auto j2 = e.submit({"req", "bls", Priority::kHigh, bls});  // the same request id twice
  EXPECT_NE(j1.job_id, j2.job_id);
  auto r1 = e.await(j1.job_id), r2 = e.await(j2.job_id);
  ASSERT_EQ(r1.status, JobStatus::kCompleted) << r1.error;
  ASSERT_EQ(r2.status, JobStatus::kCompleted) << r2.error;
  expect_valid<Bn254>(repo.root(), "bn", r1.partitions.at(0));
  ASSERT_EQ(r2.partitions.size(), 3u);
  for (const auto& p : r2.partitions) expect_valid<Bls12_381>(repo.root(), "bls", p);
  EXPECT_NE(r2.partitions[0].proof_json, r2.partitions[1].proof_json);
  std::lock_guard g(m);
  std::size_t timing_lines = 0;
  for (const auto& l : lines) timing_lines += l.find("ntt_msm_h_ms=") != std::string::npos;
  EXPECT_EQ(timing_lines, 4u);
  const auto s = e.status();
  EXPECT_EQ(s.completed, 2u);
  EXPECT_EQ(s.backend, "cpu");
}

// Injected corruption: every third proof comes out wrong. The self-check catches each one, the partition
// is proved again, and every job ends with valid proofs only; with every proof corrupted, the job fails
// with a clear error once the attempts are spent, and the engine goes on serving.
TEST(Engine, CorruptedProofsAreCaughtByTheSelfCheckAndProvedAgain) {
  test::TempRepository repo;
  auto w = repo.add<Bn254>("bn", 60, 4, "partitions = 4\n");
  // One worker: the corruption counter then sees a partition's attempts back to back, so with every third
  // proof corrupted no partition can be hit three times (two workers' interleaving could line that up).
  auto cfg = cpu_config(repo.root(), 1);
  std::atomic<int> retried{0};
  cfg.log = [&](const std::string& l) { retried += l.find("self-check failed") != std::string::npos; };
  cfg.fault_corrupt.every = 3;
  {
    Engine e(cfg);
    std::vector<std::string> ids;
    for (int j = 0; j < 5; ++j) ids.push_back(e.submit({"r", "bn", std::nullopt, w}).job_id);
    for (const auto& id : ids) {
      const auto r = e.await(id);
      ASSERT_EQ(r.status, JobStatus::kCompleted) << r.error;
      for (const auto& p : r.partitions) expect_valid<Bn254>(repo.root(), "bn", p);
    }
    const auto s = e.status();
    // 20 partitions: at least every third of the first 20 proofs was corrupted, each one proved again.
    EXPECT_GE(s.faults.self_check, 6u);
    EXPECT_EQ(s.faults.retries, s.faults.self_check);
    EXPECT_EQ(retried.load(), static_cast<int>(s.faults.self_check));
    EXPECT_EQ(s.partitions_by_plan.at("cpu"), 20u);
  }
  cfg.fault_corrupt.every = 1;
  cfg.max_attempts = 2;
  Engine always(cfg);
  const auto r = always.await(always.submit({"r", "bn", std::nullopt, w}).job_id);
  EXPECT_EQ(r.status, JobStatus::kFailed);
  EXPECT_NE(r.error.find("failed its self-check 2 time(s)"), std::string::npos) << r.error;
  for (const auto& p : r.partitions) EXPECT_TRUE(p.proof_json.empty());
  always.shutdown(true);  // the job's other running partition ends too
  EXPECT_EQ(always.status().failed, 1u);
}

TEST(Engine, BadRequestsAreClearErrorsAndHarmNothing) {
  test::TempRepository repo;
  auto small = repo.add<Bn254>("small", 50);
  auto other = repo.add<Bn254>("other", 80);
  auto bls = repo.add<Bls12_381>("bls", 50);
  Engine e(cpu_config(repo.root()));
  expect_refused(e, {"x", "nope", std::nullopt, small}, "unknown circuit");
  expect_refused(e, {"x", "small", std::nullopt, {{1, 2, 3}}}, "witness of partition 0");
  expect_refused(e, {"x", "small", std::nullopt, other}, "signals");  // another circuit's witness
  expect_refused(e, {"x", "small", std::nullopt, bls}, "BLS12-381");  // wrong curve
  expect_refused(e, {"x", "small", std::nullopt, {}}, "takes 1 partition witness");  // none
  auto big = small[0];
  big.resize(4096);
  auto cfg = cpu_config(repo.root());
  cfg.max_witness_bytes = 1024;
  Engine limited(cfg);
  EXPECT_THROW(limited.submit({"x", "small", std::nullopt, {big}}), RequestError);
  EXPECT_THROW(e.await("42-nothing"), RequestError);
  EXPECT_THROW(e.cancel("garbage"), RequestError);
  // And the engine still serves a good request.
  auto ok = e.await(e.submit({"x", "small", std::nullopt, small}).job_id);
  EXPECT_EQ(ok.status, JobStatus::kCompleted) << ok.error;
}

TEST(Engine, BellpersonCircuitOfTenPartitionsReturns1920Bytes) {
  namespace bp = groth16::bellperson;
  test::TempRepository repo;
  const auto inline_parts = repo.add_bellperson("porep", 10, 10);
  repo.add_bellperson("other", 11, 1);
  Engine e(cpu_config(repo.root(), 2));
  const auto dir = repo.root() / "porep";
  const auto params = io::bellperson::read_params((dir / "circuit.params").string());
  std::vector<std::string> paths;
  for (int i = 0; i < 10; ++i) paths.push_back((dir / ("assignment-" + std::to_string(i) + ".bin")).string());
  for (const bool by_path : {true, false}) {
    SubmitRequest q{"p", "porep", std::nullopt, by_path ? decltype(inline_parts){} : inline_parts,
                    by_path ? paths : std::vector<std::string>{}};
    const auto r = e.await(e.submit(q).job_id);
    ASSERT_EQ(r.status, JobStatus::kCompleted) << r.error;
    std::string all;
    for (std::size_t k = 0; k < r.partitions.size(); ++k) {
      const auto& p = r.partitions[k];
      ASSERT_EQ(p.proof_bytes.size(), 192u);
      all += p.proof_bytes;
      const auto proof = bp::decode_proof(
          std::span(reinterpret_cast<const std::uint8_t*>(p.proof_bytes.data()), 192), "proof", k);
      EXPECT_TRUE(
          bp::verify(params.vk, io::public_from_json<Bls12_381>(p.public_json, "public"), proof).valid);
    }
    EXPECT_EQ(all.size(), 1920u);
  }
  const auto circuits = e.status().circuits;
  EXPECT_TRUE(std::any_of(circuits.begin(), circuits.end(), [](const auto& c) { return c.id == "porep"; }));

  // Another circuit's assignment, a file that is not an assignment, a snarkjs witness: clear errors.
  auto other = paths;
  other[3] = (repo.root() / "other" / "assignment-0.bin").string();
  expect_refused(e, {"p", "porep", std::nullopt, {}, other}, "partition 3");
  other[3] = (dir / "circuit.params").string();
  expect_refused(e, {"p", "porep", std::nullopt, {}, other}, "CZKA");
}

// A host memory budget that holds the key and one witness only: two workers take turns making witnesses
// (one is always let through), every partition still proves, and the engine says how many fit.
TEST(Engine, HostMemoryBudgetOfOneWitnessProvesEveryPartitionInTurn) {
  test::TempRepository repo;
  repo.add_bellperson("porep", 10, 4);
  auto cfg = cpu_config(repo.root(), 2);
  cfg.host_memory_budget = 1;  // less than the key alone
  std::mutex m;
  std::vector<std::string> lines;
  cfg.log = [&](const std::string& l) {
    std::lock_guard lock(m);
    lines.push_back(l);
  };
  Engine e(cfg);
  const auto dir = repo.root() / "porep";
  std::vector<std::string> paths;
  for (int i = 0; i < 4; ++i) paths.push_back((dir / ("assignment-" + std::to_string(i) + ".bin")).string());
  const auto r = e.await(e.submit({"p", "porep", std::nullopt, {}, paths}).job_id);
  ASSERT_EQ(r.status, JobStatus::kCompleted) << r.error;
  for (const auto& p : r.partitions) EXPECT_EQ(p.proof_bytes.size(), 192u);
  std::lock_guard lock(m);
  EXPECT_TRUE(std::any_of(lines.begin(), lines.end(), [](const std::string& l) {
    return l.find("host memory budget 0.0 GiB for keys and witnesses") != std::string::npos;
  }));
  EXPECT_TRUE(std::any_of(lines.begin(), lines.end(), [](const std::string& l) {
    return l.find("circuit porep: ") != std::string::npos &&
           l.find("1 fit beside the keys") != std::string::npos &&
           l.find("so 1 of the 2 workers make one at a time") != std::string::npos;
  })) << "no line on the host budget's witnesses";
}

TEST(Engine, WitnessFilesAreCheckedAtSubmitAndDecodedWhenTheirPartitionRuns) {
  test::TempRepository repo;
  repo.add<Bn254>("two", 300, 2, "partitions = 2\n");
  repo.add<Bn254>("other", 80, 1);
  const auto dir = repo.root() / "two";
  const std::vector<std::string> files = {(dir / "witness-0.wtns").string(),
                                          (dir / "witness-1.wtns").string()};
  Engine e(cpu_config(repo.root()));
  SubmitRequest good{"f", "two", std::nullopt, {}, files};
  const auto r = e.await(e.submit(good).job_id);
  ASSERT_EQ(r.status, JobStatus::kCompleted) << r.error;
  for (const auto& p : r.partitions) expect_valid<Bn254>(repo.root(), "two", p);
  for (const auto& p : r.partitions)
    EXPECT_TRUE(std::any_of(p.stages.stages_ms.begin(), p.stages.stages_ms.end(),
                            [](const auto& s) { return s.first == "load_witness"; }));

  // Checked at submit: a missing file, another circuit's witness, inline and paths together.
  expect_refused(e, {"f", "two", std::nullopt, {}, {files[0], (dir / "gone.wtns").string()}}, "gone.wtns");
  expect_refused(
      e, {"f", "two", std::nullopt, {}, {files[0], (repo.root() / "other" / "witness-0.wtns").string()}},
      "signals");
  expect_refused(e, {"f", "two", std::nullopt, {{1}}, {files[0]}}, "not both");

  // A file that goes bad after the job was accepted fails that partition with its name; the engine goes on.
  const auto copy = dir / "copy.wtns";
  std::filesystem::copy_file(files[1], copy);
  const auto id = e.submit({"g", "two", std::nullopt, {}, {files[0], copy.string()}}).job_id;
  std::filesystem::resize_file(copy, 100);
  const auto bad = e.await(id);
  EXPECT_EQ(bad.status, JobStatus::kFailed);
  EXPECT_NE(bad.error.find("copy.wtns"), std::string::npos) << bad.error;
  EXPECT_EQ(e.await(e.submit(good).job_id).status, JobStatus::kCompleted);
}

TEST(Engine, CriticalJobSubmittedBehindTwentyNormalRunsNext) {
  test::TempRepository repo;
  auto w = repo.add<Bn254>("c", 200);
  std::vector<std::string> order;
  std::mutex m;
  auto cfg = cpu_config(repo.root(), 1);
  cfg.on_job_finished = [&](const JobResult& r) {
    std::lock_guard g(m);
    order.push_back(r.request_id);
  };
  Engine e(cfg);
  std::vector<std::string> ids;
  for (int i = 0; i < 20; ++i)
    ids.push_back(e.submit({"normal" + std::to_string(i), "c", Priority::kNormal, w}).job_id);
  auto crit = e.submit({"critical", "c", Priority::kCritical, w});
  EXPECT_LE(crit.queue_position, 0u);
  e.await(crit.job_id);
  for (const auto& id : ids) e.await(id);
  e.shutdown(true);
  std::lock_guard g(m);
  ASSERT_EQ(order.size(), 21u);
  // At most the first NORMAL job had started when the CRITICAL one arrived.
  const auto pos = std::find(order.begin(), order.end(), "critical") - order.begin();
  EXPECT_LE(pos, 1);
}

TEST(Engine, CancelQueuedAndRunningJobs) {
  test::TempRepository repo;
  auto w = repo.add<Bn254>("c", 4000, 3, "partitions = 3\n");
  Engine e(cpu_config(repo.root(), 1));
  auto running = e.submit({"r", "c", std::nullopt, w});
  auto queued = e.submit({"q", "c", std::nullopt, w});
  EXPECT_FALSE(e.cancel(queued.job_id));  // nothing of it ran
  auto q = e.await(queued.job_id);
  EXPECT_EQ(q.status, JobStatus::kCancelled);
  for (const auto& p : q.partitions) EXPECT_EQ(p.state, PartitionState::kCancelled);
  // Wait for the first job's first partition to run, then cancel it.
  for (int i = 0; i < 20000; ++i) {
    auto s = e.await(running.job_id, std::chrono::milliseconds(0));
    if (s.partitions[0].state == PartitionState::kRunning) break;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  EXPECT_TRUE(e.cancel(running.job_id));
  auto r = e.await(running.job_id);
  EXPECT_EQ(r.status, JobStatus::kCancelled);
  EXPECT_EQ(r.partitions[1].state, PartitionState::kCancelled);
  EXPECT_EQ(r.partitions[2].state, PartitionState::kCancelled);
  EXPECT_FALSE(e.cancel(running.job_id));  // already over
  EXPECT_EQ(e.status().cancelled, 2u);
}

TEST(Engine, AwaitTimesOutAndDrainingShutdownLosesNothing) {
  test::TempRepository repo;
  auto w = repo.add<Bn254>("c", 300);
  Engine e(cpu_config(repo.root(), 1));
  std::vector<std::string> ids;
  for (int i = 0; i < 5; ++i) ids.push_back(e.submit({"d", "c", std::nullopt, w}).job_id);
  auto early = e.await(ids.back(), std::chrono::milliseconds(0));
  EXPECT_TRUE(early.timed_out);
  e.shutdown(true);
  EXPECT_THROW(e.submit({"late", "c", std::nullopt, w}), RequestError);
  for (const auto& id : ids) EXPECT_EQ(e.await(id).status, JobStatus::kCompleted);
}

TEST(Engine, CancellingShutdownCancelsQueuedWork) {
  test::TempRepository repo;
  auto w = repo.add<Bn254>("c", 2000);
  Engine e(cpu_config(repo.root(), 1));
  std::vector<std::string> ids;
  for (int i = 0; i < 6; ++i) ids.push_back(e.submit({"s", "c", std::nullopt, w}).job_id);
  e.shutdown(false);
  std::size_t cancelled = 0;
  for (const auto& id : ids) {
    auto r = e.await(id);
    EXPECT_TRUE(finished(r.status));
    cancelled += r.status == JobStatus::kCancelled;
  }
  EXPECT_GE(cancelled, 4u);
}

TEST(Engine, EvictFreesAndTheNextJobReloads) {
  test::TempRepository repo;
  auto w = repo.add<Bn254>("c", 50);
  Engine e(cpu_config(repo.root()));
  EXPECT_FALSE(e.preload("c").already_loaded);
  EXPECT_GT(e.status().repository_bytes, 0u);
  const auto ev = e.evict("c");
  EXPECT_TRUE(ev.was_loaded);
  EXPECT_GT(ev.freed_bytes, 0u);
  EXPECT_EQ(e.status().repository_bytes, 0u);
  EXPECT_THROW(e.preload("missing"), RequestError);
  EXPECT_EQ(e.await(e.submit({"x", "c", std::nullopt, w}).job_id).status, JobStatus::kCompleted);
}

TEST(EngineConfig, AutoHostMemoryBudgetIsTheDefault) {
  EXPECT_EQ(EngineConfig{}.host_memory_budget, EngineConfig::kAutoHostMemoryBudget);
}

TEST(EngineConfig, AutoPinnedPoolIsAThirdOfHostMemoryUpTo64GiB) {
  constexpr std::size_t GiB = std::size_t(1) << 30;
  EXPECT_EQ(EngineConfig{}.pinned_pool, EngineConfig::kAutoPinnedPool);
  EXPECT_EQ(auto_pinned_pool(128 * GiB), 128 * GiB / 3);  // two workers' 32 GiB PoRep inputs (~32 GiB) fit
  EXPECT_EQ(auto_pinned_pool(12 * GiB), 4 * GiB);
  EXPECT_EQ(auto_pinned_pool(1024 * GiB), 64 * GiB);
  EXPECT_EQ(auto_pinned_pool(0), 8 * GiB);  // memory size unknown
  EXPECT_GT(physical_memory_bytes(), GiB);
}

// engine.isolation = "auto" (the daemon's default): worker processes for GPUs when the worker executable
// can run, so that a sticky fault costs a restart and not the GPU; in this process otherwise.
TEST(EngineConfig, AutoIsolationIsProcessForGpusWhenTheWorkerCanRun) {
  EXPECT_EQ(resolve_auto_isolation("cuda", true), "process");
  EXPECT_EQ(resolve_auto_isolation("cuda", false), "thread");
  EXPECT_EQ(resolve_auto_isolation("cpu", true), "thread");
  EXPECT_EQ(EngineConfig{}.isolation, "thread");  // a library user's engine; the daemon's Config says "auto"
}

TEST(Engine, AutoIsolationOnTheCpuBackendProvesInThisProcess) {
  test::TempRepository repo;
  auto bn = repo.add<Bn254>("bn", 100);
  auto cfg = cpu_config(repo.root(), 1);
  cfg.isolation = "auto";
  Engine e(cfg);
  const auto r = e.await(e.submit({"a", "bn", std::nullopt, bn}).job_id);
  ASSERT_EQ(r.status, JobStatus::kCompleted) << r.error;
  expect_valid<Bn254>(repo.root(), "bn", r.partitions.at(0));
  EXPECT_EQ(r.partitions.at(0).worker, "cpu:0");
  cfg.isolation = "sometimes";
  try {
    Engine bad(cfg);
    ADD_FAILURE() << "an unknown isolation was accepted";
  } catch (const std::invalid_argument& err) {
    EXPECT_NE(std::string(err.what()).find("thread, process or auto"), std::string::npos) << err.what();
  }
}

}  // namespace
}  // namespace cuzk::engine
