// The HTTP frontend: GET /metrics (Prometheus text), GET /status (JSON: jobs and partitions, workers,
// repository, queue), GET /healthz. Runs its own listener thread.
#pragma once

#include <memory>
#include <string>
#include <thread>

#include "engine/engine.hpp"
#include "service/health.hpp"
#include "service/metrics.hpp"

namespace httplib {
class Server;
}

namespace cuzk::service {

std::string status_json(const engine::EngineStatus& s);

class HttpFrontend {
 public:
  // `address` is host:port; `token` (optional): the bearer token /metrics and /status ask for; `health`:
  // when a lost GPU makes /healthz fail (service/health.hpp). Throws std::runtime_error when it cannot
  // listen.
  HttpFrontend(const std::string& address, engine::Engine& engine, Metrics& metrics,
               const std::string& token = "", HealthPolicy health = HealthPolicy::kAnyGpuLost);
  ~HttpFrontend();
  int port() const { return port_; }

 private:
  std::unique_ptr<httplib::Server> server_;
  std::thread thread_;
  int port_ = 0;
};

}  // namespace cuzk::service
