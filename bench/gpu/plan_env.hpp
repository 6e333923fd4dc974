// The environment of the in-process partition benchmarks (`cuzk-bench kernels K R porep|bellperson`):
// CUZK_VRAM_LIMIT_GIB caps the device memory this process may use (as the daemon's vram_limit does), and
// CUZK_GPU_PLAN picks the plans to run: `all`, or a comma-separated list of plan names, each optionally with
// its own cap (`resident,streamed@16`: resident on the whole device, then streamed as on a 16 GiB card).
// Unset: the largest plan that fits what the policy leaves. Several plans share one setup, which at
// K = 27 takes minutes.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cuda/vram.hpp"
#include "groth16/gpu_plan.hpp"

namespace cuzk::bench {

inline std::size_t gib_to_bytes(double gib) {
  return static_cast<std::size_t>(gib * double(std::size_t(1) << 30));
}

inline void apply_vram_limit_from_env() {
  const char* cap = std::getenv("CUZK_VRAM_LIMIT_GIB");
  if (!cap || !*cap) return;
  cuda::set_vram_policy({gib_to_bytes(std::stod(cap)), cuda::VramPolicy{}.margin});
  std::printf("VRAM limit %s GiB (margin 512 MiB)\n", cap);
}

// One benchmark row: a plan (nullopt: chosen from free memory) and the cap it runs under (nullopt: the
// process-wide policy).
struct PlanRun {
  std::optional<groth16::gpu::Plan> plan;
  std::optional<double> cap_gib;
};

// The runs CUZK_GPU_PLAN names among `offered`; {{nullopt}} (choose) when it is not set.
inline std::vector<PlanRun> plans_from_env(std::initializer_list<groth16::gpu::Plan> offered) {
  const char* env = std::getenv("CUZK_GPU_PLAN");
  if (!env || !*env) return {PlanRun{}};
  std::string names;
  for (auto candidate : offered) names += std::string(groth16::gpu::to_string(candidate)) + ", ";
  const auto bad = [&](const std::string& item) {
    return std::invalid_argument("CUZK_GPU_PLAN: '" + item + "' is not one of " + names +
                                 "all (each may end in @<GiB>, a cap for that plan)");
  };
  std::vector<PlanRun> runs;
  std::string list = env;
  for (std::size_t start = 0; start <= list.size();) {
    const std::size_t comma = std::min(list.find(',', start), list.size());
    const std::string item = list.substr(start, comma - start);
    start = comma + 1;
    const std::size_t at = item.find('@');
    const std::string name = item.substr(0, at);
    std::optional<double> cap;
    if (at != std::string::npos) {
      try {
        cap = std::stod(item.substr(at + 1));
      } catch (const std::exception&) {
        throw bad(item);
      }
      if (!(*cap > 0)) throw bad(item);
    }
    const std::size_t before = runs.size();
    for (auto candidate : offered)
      if (name == "all" || name == groth16::gpu::to_string(candidate)) runs.push_back({candidate, cap});
    if (runs.size() == before) throw bad(item);
  }
  return runs;
}

// Sets a run's own cap for its lifetime and puts the process-wide policy back after.
class ScopedPlanCap {
 public:
  explicit ScopedPlanCap(const PlanRun& run) : saved_(cuda::vram_policy()) {
    if (!run.cap_gib) return;
    cuda::set_vram_policy({gib_to_bytes(*run.cap_gib), saved_.margin});
    std::printf("VRAM limit %.1f GiB for this plan (margin 512 MiB)\n", *run.cap_gib);
  }
  ~ScopedPlanCap() { cuda::set_vram_policy(saved_); }
  ScopedPlanCap(const ScopedPlanCap&) = delete;
  ScopedPlanCap& operator=(const ScopedPlanCap&) = delete;

 private:
  cuda::VramPolicy saved_;
};

// CUZK_BENCH_VARIANTS: the plans run once per variant on the same setup, a variant being environment
// settings read at every proof or MSM (`CUZK_MSM_STREAMED_WINDOW=fitting;CUZK_MSM_STREAMED_WINDOW=model`:
// variants split by ';', settings within one by ','). Each is set before its runs and printed; unset: one
// run as the environment is. So a change and its baseline are timed on one card in one call. A name one
// variant sets goes back to its value from the environment (or unset) in the variants that do not name it:
// otherwise a setting leaked into every variant after its own (2026-12-07: `PASSES=2;HEADS=0.5` ran the heads
// with two passes).
inline std::vector<std::vector<std::pair<std::string, std::string>>> variants_from_env() {
  const char* env = std::getenv("CUZK_BENCH_VARIANTS");
  if (!env || !*env) return {{}};
  std::vector<std::vector<std::pair<std::string, std::string>>> out;
  const std::string list = env;
  for (std::size_t start = 0; start <= list.size();) {
    const std::size_t semi = std::min(list.find(';', start), list.size());
    const std::string variant = list.substr(start, semi - start);
    start = semi + 1;
    std::vector<std::pair<std::string, std::string>> settings;
    for (std::size_t at = 0; at <= variant.size();) {
      const std::size_t comma = std::min(variant.find(',', at), variant.size());
      const std::string item = variant.substr(at, comma - at);
      at = comma + 1;
      const std::size_t eq = item.find('=');
      if (eq == 0 || eq == std::string::npos)
        throw std::invalid_argument("CUZK_BENCH_VARIANTS: '" + item + "' is not NAME=VALUE");
      settings.emplace_back(item.substr(0, eq), item.substr(eq + 1));
    }
    out.push_back(std::move(settings));
  }
  std::vector<std::pair<std::string, std::string>> originals;  // every name any variant sets
  for (const auto& v : out)
    for (const auto& [name, value] : v) {
      bool seen = false;
      for (const auto& o : originals) seen = seen || o.first == name;
      if (seen) continue;
      const char* before = std::getenv(name.c_str());
      originals.emplace_back(name, before ? before : "");
    }
  for (auto& v : out) {
    std::vector<std::pair<std::string, std::string>> restore;
    for (const auto& o : originals) {
      bool named = false;
      for (const auto& setting : v) named = named || setting.first == o.first;
      if (!named) restore.push_back(o);
    }
    v.insert(v.begin(), restore.begin(), restore.end());
  }
  return out;
}

// Sets a variant's settings (empty values unset) and prints them.
inline void apply_variant(const std::vector<std::pair<std::string, std::string>>& settings) {
  if (settings.empty()) return;
  std::string line = "variant:";
  for (const auto& [name, value] : settings) {
    if (value.empty())
      unsetenv(name.c_str());
    else
      setenv(name.c_str(), value.c_str(), 1);
    line += " " + name + "=" + value;
  }
  std::printf("%s\n", line.c_str());
  std::fflush(stdout);
}

}  // namespace cuzk::bench
