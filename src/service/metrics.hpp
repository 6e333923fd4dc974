// Prometheus metrics of the daemon, kept in a prometheus-cpp registry: counters and a duration
// histogram fed by finished jobs (Engine's on_job_finished), gauges refreshed from the engine's status at
// each scrape. render() is the text exposition served by GET /metrics and the GetMetrics RPC.
#pragma once

#include <prometheus/counter.h>
#include <prometheus/family.h>
#include <prometheus/gauge.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "engine/engine.hpp"

namespace cuzk::service {

class Metrics {
 public:
  Metrics();
  void job_finished(const engine::JobResult& job);
  std::string render(const engine::EngineStatus& status);

 private:
  std::mutex mutex_;
  std::shared_ptr<prometheus::Registry> registry_;
  prometheus::Family<prometheus::Counter>& proofs_completed_;
  prometheus::Family<prometheus::Counter>& proofs_failed_;
  prometheus::Family<prometheus::Counter>& jobs_cancelled_;
  prometheus::Family<prometheus::Histogram>& job_seconds_;
  prometheus::Family<prometheus::Histogram>& stage_seconds_;
  prometheus::Family<prometheus::Gauge>& queue_depth_;
  prometheus::Family<prometheus::Gauge>& workers_busy_;
  prometheus::Family<prometheus::Gauge>& repository_bytes_;
  prometheus::Family<prometheus::Gauge>& circuit_loaded_;
  prometheus::Family<prometheus::Gauge>& uptime_;
  prometheus::Family<prometheus::Gauge>& vram_bytes_;
  prometheus::Family<prometheus::Counter>& faults_;
  prometheus::Family<prometheus::Counter>& partitions_by_plan_;
  prometheus::Family<prometheus::Counter>& partitions_by_prestage_;
  prometheus::Family<prometheus::Counter>& pinned_pool_leases_;
  prometheus::Family<prometheus::Counter>& context_resets_;
  // The engine keeps running totals; a counter is advanced by what is new since the last scrape.
  std::map<std::string, double> seen_;
  void advance(prometheus::Family<prometheus::Counter>& family, const prometheus::Labels& labels,
               const std::string& key, double total);
};

}  // namespace cuzk::service
