#include "service/health.hpp"

#include <stdexcept>

namespace cuzk::service {

HealthPolicy parse_health_policy(const std::string& text) {
  if (text == "any-gpu-lost") return HealthPolicy::kAnyGpuLost;
  if (text == "all-gpus-lost") return HealthPolicy::kAllGpusLost;
  throw std::invalid_argument(
      "daemon.healthz_fails_on must be \"any-gpu-lost\" or \"all-gpus-lost\", not \"" + text + "\"");
}

Health health_of(const engine::EngineStatus& status, HealthPolicy policy) {
  std::string lost, proving;
  std::size_t proving_count = 0, lost_count = 0;
  for (const auto& d : status.devices) {
    std::string& list = d.lost ? lost : proving;
    if (!list.empty()) list += ", ";
    list += "GPU " + std::to_string(d.ordinal);
    if (d.lost) list += " (" + d.lost_reason + ")";
    proving_count += !d.lost;
    lost_count += d.lost;
  }
  if (lost.empty()) return {200, "ok"};
  if (proving.empty())
    return {503, "degraded: every GPU lost: " + lost + "; proving on the CPU until the daemon is restarted"};
  return {policy == HealthPolicy::kAnyGpuLost ? 503 : 200,
          "degraded: " + lost + " lost; " + proving + (proving_count == 1 ? " proves " : " prove ") +
              (lost_count == 1 ? "its" : "their") + " partitions; restarting the daemon gets " +
              (lost_count == 1 ? "it" : "them") + " back"};
}

}  // namespace cuzk::service
