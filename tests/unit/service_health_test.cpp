// GET /healthz's answer (service/health.hpp) for each state of the GPUs, under both policies.
#include <gtest/gtest.h>

#include <stdexcept>

#include "service/health.hpp"

namespace cuzk::service {
namespace {

engine::DeviceStatus gpu(int ordinal, bool lost = false) {
  engine::DeviceStatus d;
  d.ordinal = ordinal;
  d.name = "NVIDIA H200";
  d.lost = lost;
  if (lost) d.lost_reason = "its CUDA context could not be recreated";
  return d;
}

engine::EngineStatus with(std::initializer_list<engine::DeviceStatus> devices) {
  engine::EngineStatus s;
  s.devices = devices;
  return s;
}

TEST(Health, NoLostGpuIsOkWhateverThePolicy) {
  for (const auto policy : {HealthPolicy::kAnyGpuLost, HealthPolicy::kAllGpusLost}) {
    for (const auto& s : {with({}), with({gpu(0)}), with({gpu(0), gpu(1)})}) {
      const Health h = health_of(s, policy);
      EXPECT_EQ(h.http_status, 200);
      EXPECT_EQ(h.text, "ok");
    }
  }
}

TEST(Health, EveryGpuLostFailsWhateverThePolicy) {
  for (const auto policy : {HealthPolicy::kAnyGpuLost, HealthPolicy::kAllGpusLost}) {
    const Health h = health_of(with({gpu(0, true), gpu(1, true)}), policy);
    EXPECT_EQ(h.http_status, 503);
    EXPECT_NE(h.text.find("every GPU lost: GPU 0 (its CUDA context"), std::string::npos) << h.text;
    EXPECT_NE(h.text.find("GPU 1 ("), std::string::npos) << h.text;
    EXPECT_NE(h.text.find("proving on the CPU"), std::string::npos) << h.text;
  }
}

TEST(Health, OneGpuLostBesideAWorkingOneFailsOnlyUnderAnyGpuLost) {
  const auto s = with({gpu(0), gpu(1, true), gpu(2)});
  const Health any = health_of(s, HealthPolicy::kAnyGpuLost);
  EXPECT_EQ(any.http_status, 503);
  const Health all = health_of(s, HealthPolicy::kAllGpusLost);
  EXPECT_EQ(all.http_status, 200);
  for (const Health& h : {any, all}) {
    // Its partitions go to the GPUs still proving, not to the CPU: the text says so.
    EXPECT_EQ(h.text.rfind("degraded: GPU 1 (", 0), 0u) << h.text;
    EXPECT_NE(h.text.find("GPU 0, GPU 2 prove its partitions"), std::string::npos) << h.text;
    EXPECT_EQ(h.text.find("CPU"), std::string::npos) << h.text;
  }
}

TEST(Health, PolicyNamesAreTheConfigValues) {
  EXPECT_EQ(parse_health_policy("any-gpu-lost"), HealthPolicy::kAnyGpuLost);
  EXPECT_EQ(parse_health_policy("all-gpus-lost"), HealthPolicy::kAllGpusLost);
  try {
    parse_health_policy("never");
    FAIL() << "accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("\"never\""), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("all-gpus-lost"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace cuzk::service
