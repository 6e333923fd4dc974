// Several GPUs in one engine, on the CPU: simulated devices (EngineConfig::simulated_devices), each with its
// workers and its region (mutex), proving on the CPU. Every device's workers pull from the one queue, so a
// lone proof's partitions spread over every device; a device that is lost hands its partitions to the
// others instead of proving them on the CPU, and only when every device is lost do workers prove on the
// CPU. Every proof is checked against the verifying key.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "engine/engine.hpp"
#include "groth16/verifier.hpp"
#include "io/json.hpp"
#include "io/zkey.hpp"
#include "unit/engine_test_util.hpp"

namespace cuzk::engine {
namespace {

EngineConfig devices_config(const test::TempRepository& repo, unsigned devices, test::LogLines& lines) {
  EngineConfig cfg;
  cfg.repository = repo.root();
  cfg.backend = "cpu";
  cfg.simulated_devices = devices;
  cfg.gpu_workers_per_device = 2;
  cfg.log = lines.sink();
  return cfg;
}

void expect_valid(const groth16::ProvingKey<Bn254>& pk, const PartitionResult& p) {
  ASSERT_EQ(p.state, PartitionState::kDone) << p.error;
  EXPECT_TRUE(groth16::verify(pk.verifying_key(), io::public_from_json<Bn254>(p.public_json, "public"),
                              io::proof_from_json<Bn254>(p.proof_json, "proof"))
                  .valid);
}

std::string device_of(const std::string& worker) {
  return worker.substr(0, worker.find('/'));
}

TEST(EngineDevices, OneProofsPartitionsSpreadOverEveryDevice) {
  test::TempRepository repo;
  const auto w = repo.add<Bn254>("bn", 3000, 8, "partitions = 8\n");
  const auto pk = io::read_zkey<Bn254>((repo.root() / "bn" / "circuit.zkey").string());
  test::LogLines lines;
  Engine e(devices_config(repo, 2, lines));
  const auto r = e.await(e.submit({"alone", "bn", std::nullopt, w}).job_id);
  ASSERT_EQ(r.status, JobStatus::kCompleted) << r.error;
  std::set<std::string> devices;
  for (const auto& p : r.partitions) {
    expect_valid(pk, p);
    EXPECT_EQ(p.plan, "simulated");
    devices.insert(device_of(p.worker));
  }
  EXPECT_EQ(devices, (std::set<std::string>{"sim:0", "sim:1"}))
      << "the proof's partitions kept to one device";
  const auto s = e.status();
  ASSERT_EQ(s.devices.size(), 2u);
  for (const auto& d : s.devices) EXPECT_FALSE(d.lost);
  EXPECT_EQ(s.workers.size(), 4u);
}

TEST(EngineDevices, ALostDeviceHandsItsPartitionsToTheOthers) {
  test::TempRepository repo;
  const auto w = repo.add<Bn254>("bn", 3000, 4, "partitions = 4\n");
  const auto pk = io::read_zkey<Bn254>((repo.root() / "bn" / "circuit.zkey").string());
  test::LogLines lines;
  auto cfg = devices_config(repo, 2, lines);
  cfg.lose_device = {1, 2};  // device 1 proves one partition, then is lost as the second enters its region
  Engine e(cfg);
  std::vector<std::string> jobs;
  for (int i = 0; i < 3; ++i) jobs.push_back(e.submit({"j", "bn", std::nullopt, w}).job_id);
  unsigned on_lost_device = 0;
  for (const auto& id : jobs) {
    const auto r = e.await(id);
    ASSERT_EQ(r.status, JobStatus::kCompleted) << r.error;
    for (const auto& p : r.partitions) {
      expect_valid(pk, p);
      EXPECT_EQ(p.plan, "simulated") << "a partition was proved on the CPU while a GPU could prove it";
      on_lost_device += device_of(p.worker) == "sim:1";
    }
  }
  EXPECT_EQ(on_lost_device, 1u);
  const auto s = e.status();
  ASSERT_EQ(s.devices.size(), 2u);
  EXPECT_FALSE(s.devices[0].lost);
  EXPECT_TRUE(s.devices[1].lost);
  EXPECT_NE(s.devices[1].lost_reason.find("simulated loss"), std::string::npos) << s.devices[1].lost_reason;
  EXPECT_EQ(lines.count("device 1 LOST"), 1u);
  EXPECT_GE(lines.count("queued again"), 1u) << "the partition in device 1's region was not handed back";
  // Both of device 1's workers leave the queue (one at its loss, the other at its next partition).
  EXPECT_EQ(lines.count("stops: its GPU is lost"), 2u);
  // The engine keeps proving on device 0 alone.
  expect_valid(pk, e.await(e.submit({"after", "bn", std::nullopt, w}).job_id).partitions.at(3));
}

TEST(EngineDevices, WithEveryDeviceLostTheWorkersProveOnTheCpu) {
  test::TempRepository repo;
  const auto w = repo.add<Bn254>("bn", 300, 2, "partitions = 2\n");
  const auto pk = io::read_zkey<Bn254>((repo.root() / "bn" / "circuit.zkey").string());
  test::LogLines lines;
  auto cfg = devices_config(repo, 1, lines);
  cfg.lose_device = {0, 1};
  Engine e(cfg);
  const auto r = e.await(e.submit({"j", "bn", std::nullopt, w}).job_id);
  ASSERT_EQ(r.status, JobStatus::kCompleted) << r.error;
  for (const auto& p : r.partitions) {
    expect_valid(pk, p);
    EXPECT_EQ(p.plan, "cpu-fallback");
  }
  EXPECT_EQ(lines.count("stops: its GPU is lost"), 0u);
  EXPECT_TRUE(e.status().devices.at(0).lost);
}

// isolation = process: one worker process per GPU. The lost GPU's process cannot start (as a GPU no process
// can open any more); after WorkerProcess::kCrashLoop deaths a CPU worker replaces it, and its partitions go
// to the other GPU's process instead of that CPU worker.
TEST(EngineDevices, InProcessModeALostGpusPartitionsGoToTheOtherGpusProcess) {
  test::TempRepository repo;
  const auto w = repo.add<Bn254>("bn", 3000, 4, "partitions = 4\n");
  const auto pk = io::read_zkey<Bn254>((repo.root() / "bn" / "circuit.zkey").string());
  test::LogLines lines;
  auto cfg = devices_config(repo, 2, lines);
  cfg.isolation = "process";
  cfg.worker_exe = CUZK_WORKER_EXE;
  cfg.spool_dir = repo.root() / "spool";
  std::filesystem::create_directories(cfg.spool_dir);
  cfg.lose_device = {1, 1};
  cfg.max_attempts = 5;  // the deaths before the CPU worker takes over count as attempts
  Engine e(cfg);
  std::vector<std::string> jobs;
  for (int i = 0; i < 3; ++i) jobs.push_back(e.submit({"j", "bn", std::nullopt, w}).job_id);
  for (const auto& id : jobs) {
    const auto r = e.await(id);
    ASSERT_EQ(r.status, JobStatus::kCompleted) << r.error;
    for (const auto& p : r.partitions) {
      expect_valid(pk, p);
      EXPECT_EQ(device_of(p.worker), "sim:0") << "the lost GPU's stand-in proved a partition";
    }
  }
  EXPECT_EQ(lines.count("stops: its GPU is lost"), 2u);
  const auto s = e.status();
  ASSERT_EQ(s.devices.size(), 1u);  // the lost one; a simulated GPU's process reports no device
  EXPECT_EQ(s.devices[0].ordinal, 1);
  EXPECT_TRUE(s.devices[0].lost);
}

// A cancel reaches partitions queued again by a lost device like any other.
TEST(EngineDevices, ACancelledJobsHandedBackPartitionsAreCancelled) {
  test::TempRepository repo;
  const auto w = repo.add<Bn254>("bn", 3000, 6, "partitions = 6\n");
  test::LogLines lines;
  auto cfg = devices_config(repo, 2, lines);
  cfg.lose_device = {0, 1};
  Engine e(cfg);
  const auto job = e.submit({"c", "bn", std::nullopt, w}).job_id;
  e.cancel(job);
  const auto r = e.await(job);
  EXPECT_EQ(r.status, JobStatus::kCancelled);
  for (const auto& p : r.partitions)
    EXPECT_TRUE(p.state == PartitionState::kCancelled || p.state == PartitionState::kDone)
        << to_string(p.state);
  // The engine is still whole: the next job proves on device 1.
  EXPECT_EQ(e.await(e.submit({"n", "bn", std::nullopt, w}).job_id).status, JobStatus::kCompleted);
}

}  // namespace
}  // namespace cuzk::engine
