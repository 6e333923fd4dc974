// What GET /healthz answers: "ok", or why the daemon is degraded, and whether that is a failure (503) a
// supervisor should act on by restarting the daemon (SIGTERM drains what was acknowledged first).
#pragma once

#include <string>

#include "engine/engine.hpp"

namespace cuzk::service {

// When a lost GPU (a context the driver will not give back, or a worker process that kept dying) makes
// /healthz fail. Either way the daemon keeps proving: a lost GPU's partitions go to the other GPUs, or to
// the CPU when none is left, and a restart gets the GPU back.
enum class HealthPolicy {
  kAnyGpuLost,   // "any-gpu-lost" (default): restart to regain every GPU
  kAllGpusLost,  // "all-gpus-lost": only when the daemon is down to the CPU (a supervisor that kills rather
                 // than drains would otherwise cost the jobs the other GPUs are proving)
};

// Throws std::invalid_argument naming the accepted values.
HealthPolicy parse_health_policy(const std::string& text);

struct Health {
  int http_status = 200;  // 200 or 503
  std::string text;       // one line: "ok", or "degraded: …"
};

Health health_of(const engine::EngineStatus& status, HealthPolicy policy);

}  // namespace cuzk::service
