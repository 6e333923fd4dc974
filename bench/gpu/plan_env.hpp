// The environment of the in-process partition benchmarks (`cuzk-bench kernels K R porep|bellperson`):
// CUZK_VRAM_LIMIT_GIB caps the device memory this process may use (as the daemon's vram_limit does), and
// CUZK_GPU_PLAN=<plan>|all picks the plans to run (default: the largest that fits what the policy leaves).
#pragma once

#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda/vram.hpp"
#include "groth16/gpu_plan.hpp"

namespace cuzk::bench {

inline void apply_vram_limit_from_env() {
  const char* cap = std::getenv("CUZK_VRAM_LIMIT_GIB");
  if (!cap || !*cap) return;
  cuda::set_vram_policy(
      {static_cast<std::size_t>(std::stod(cap) * double(std::size_t(1) << 30)), cuda::VramPolicy{}.margin});
  std::printf("VRAM limit %s GiB (margin 512 MiB)\n", cap);
}

// The plans CUZK_GPU_PLAN names among `offered`; {nullopt} (choose) when it is not set.
inline std::vector<std::optional<groth16::gpu::Plan>> plans_from_env(
    std::initializer_list<groth16::gpu::Plan> offered) {
  const char* p = std::getenv("CUZK_GPU_PLAN");
  if (!p || !*p) return {std::nullopt};
  std::vector<std::optional<groth16::gpu::Plan>> plans;
  std::string names;
  for (auto candidate : offered) {
    if (std::string(p) == "all" || std::string(p) == groth16::gpu::to_string(candidate))
      plans.push_back(candidate);
    names += std::string(groth16::gpu::to_string(candidate)) + ", ";
  }
  if (plans.empty()) throw std::invalid_argument("CUZK_GPU_PLAN must be one of " + names + "or all");
  return plans;
}

}  // namespace cuzk::bench
