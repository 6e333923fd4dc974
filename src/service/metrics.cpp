#include "service/metrics.hpp"

#include <prometheus/text_serializer.h>

#include <algorithm>

namespace cuzk::service {

namespace {

const prometheus::Histogram::BucketBoundaries& seconds_buckets() {
  static const prometheus::Histogram::BucketBoundaries b = {0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1,  2.5,
                                                            5,    10,    30,   60,  120,  300, 900};
  return b;
}

}  // namespace

Metrics::Metrics()
    : registry_(std::make_shared<prometheus::Registry>()),
      proofs_completed_(prometheus::BuildCounter()
                            .Name("cuzk_proofs_completed_total")
                            .Help("Partition proofs returned, self-checked")
                            .Register(*registry_)),
      proofs_failed_(prometheus::BuildCounter()
                         .Name("cuzk_proofs_failed_total")
                         .Help("Jobs that ended FAILED")
                         .Register(*registry_)),
      jobs_cancelled_(prometheus::BuildCounter()
                          .Name("cuzk_jobs_cancelled_total")
                          .Help("Jobs cancelled by a client or a shutdown")
                          .Register(*registry_)),
      job_seconds_(prometheus::BuildHistogram()
                       .Name("cuzk_proof_duration_seconds")
                       .Help("Job time from SubmitProof to its end")
                       .Register(*registry_)),
      stage_seconds_(prometheus::BuildHistogram()
                         .Name("cuzk_stage_duration_seconds")
                         .Help("Per-partition prover stage times")
                         .Register(*registry_)),
      queue_depth_(prometheus::BuildGauge()
                       .Name("cuzk_queue_depth")
                       .Help("Queued partitions per priority")
                       .Register(*registry_)),
      workers_busy_(prometheus::BuildGauge()
                        .Name("cuzk_worker_busy")
                        .Help("1 while the device worker proves a partition")
                        .Register(*registry_)),
      repository_bytes_(
          prometheus::BuildGauge()
              .Name("cuzk_repository_bytes")
              .Help(
                  "Host memory of loaded proving keys and the budget; page-locked key memory and its budget; "
                  "the page-locked witness pool and upload staging buffers")
              .Register(*registry_)),
      circuit_loaded_(
          prometheus::BuildGauge()
              .Name("cuzk_circuit_tier")
              .Help("1 for the residency tier the circuit's key is in (gpu, pinned, host, mapped, disk)")
              .Register(*registry_)),
      uptime_(
          prometheus::BuildGauge().Name("cuzk_uptime_seconds").Help("Daemon uptime").Register(*registry_)),
      vram_bytes_(prometheus::BuildGauge()
                      .Name("cuzk_vram_bytes")
                      .Help("Device memory per GPU: total, used (all processes), daemon (this daemon's "
                            "allocations), daemon_peak, daemon_cached (freed, kept by its memory pool for "
                            "the next proof), limit (what this daemon may hold)")
                      .Register(*registry_)),
      faults_(
          prometheus::BuildCounter()
              .Name("cuzk_faults_total")
              .Help("Faults met: out_of_memory, context_lost (sticky CUDA error, context reset), self_check "
                    "(a proof failed verification), vram_leak, worker_restart (a worker process started "
                    "again after it died; isolation = process); retry counts partition attempts after the "
                    "first")
              .Register(*registry_)),
      partitions_by_plan_(prometheus::BuildCounter()
                              .Name("cuzk_partitions_total")
                              .Help("Finished partitions by plan: cpu, resident, streamed, lean")
                              .Register(*registry_)),
      partitions_by_prestage_(
          prometheus::BuildCounter()
              .Name("cuzk_partitions_prestage_total")
              .Help("Finished partitions by how the witness reached the GPU: ok (pre-staged while another "
                    "proof ran), fallback (uploaded in the GPU region), off (pre-staging disabled), none "
                    "(CPU)")
              .Register(*registry_)),
      pinned_pool_leases_(prometheus::BuildCounter()
                              .Name("cuzk_pinned_pool_leases_total")
                              .Help("Page-locked witness buffers asked of engine.pinned_pool: lent, refused "
                                    "(over its budget or not page-lockable), deferred (none idle yet: one "
                                    "is page-locked in the background); refused and deferred inputs go "
                                    "through pageable memory")
                              .Register(*registry_)),
      context_resets_(prometheus::BuildCounter()
                          .Name("cuzk_context_resets_total")
                          .Help("CUDA contexts recreated after a sticky error, per GPU")
                          .Register(*registry_)) {}

void Metrics::advance(prometheus::Family<prometheus::Counter>& family, const prometheus::Labels& labels,
                      const std::string& key, double total) {
  double& seen = seen_[key];
  auto& counter = family.Add(labels);
  if (total > seen) counter.Increment(total - seen);
  seen = std::max(seen, total);
}

void Metrics::job_finished(const engine::JobResult& job) {
  std::lock_guard lock(mutex_);
  const prometheus::Labels circuit{{"circuit", job.circuit_id}};
  switch (job.status) {
    case engine::JobStatus::kCompleted:
      proofs_completed_.Add(circuit).Increment(static_cast<double>(job.partitions.size()));
      break;
    case engine::JobStatus::kFailed:
      proofs_failed_.Add(circuit).Increment();
      break;
    default:
      jobs_cancelled_.Add(circuit).Increment();
      break;
  }
  job_seconds_
      .Add({{"circuit", job.circuit_id}, {"kind", job.kind}, {"status", engine::to_string(job.status)}},
           seconds_buckets())
      .Observe(job.total_ms / 1000);
  for (const auto& p : job.partitions) {
    if (p.state != engine::PartitionState::kDone) continue;
    for (const auto& [stage, ms] : p.stages.stages_ms)
      stage_seconds_.Add({{"circuit", job.circuit_id}, {"stage", stage}}, seconds_buckets())
          .Observe(ms / 1000);
    stage_seconds_.Add({{"circuit", job.circuit_id}, {"stage", "self_check"}}, seconds_buckets())
        .Observe(p.verify_ms / 1000);
  }
}

std::string Metrics::render(const engine::EngineStatus& s) {
  std::lock_guard lock(mutex_);
  for (auto p : {engine::Priority::kLow, engine::Priority::kNormal, engine::Priority::kHigh,
                 engine::Priority::kCritical})
    queue_depth_.Add({{"priority", std::string(engine::to_string(p))}})
        .Set(static_cast<double>(s.queue_depth[static_cast<int>(p)]));
  for (const auto& w : s.workers) workers_busy_.Add({{"worker", w.name}}).Set(w.busy ? 1 : 0);
  repository_bytes_.Add({{"kind", "loaded"}}).Set(static_cast<double>(s.repository_bytes));
  repository_bytes_.Add({{"kind", "budget"}}).Set(static_cast<double>(s.repository_budget));
  repository_bytes_.Add({{"kind", "pinned"}}).Set(static_cast<double>(s.pinned_bytes));
  repository_bytes_.Add({{"kind", "pinned_budget"}}).Set(static_cast<double>(s.pinned_budget));
  repository_bytes_.Add({{"kind", "pinned_witness_pool"}}).Set(static_cast<double>(s.pinned_pool_bytes));
  repository_bytes_.Add({{"kind", "pinned_staging"}}).Set(static_cast<double>(s.pinned_staging_bytes));
  repository_bytes_.Add({{"kind", "key_store"}}).Set(static_cast<double>(s.key_store_bytes));
  repository_bytes_.Add({{"kind", "kept_device"}}).Set(static_cast<double>(s.kept_device_bytes));
  for (const auto& c : s.circuits)
    for (auto t : {engine::Tier::kGpu, engine::Tier::kPinned, engine::Tier::kHost, engine::Tier::kMapped,
                   engine::Tier::kDisk})
      circuit_loaded_.Add({{"circuit", c.id}, {"tier", engine::to_string(t)}}).Set(c.tier == t ? 1 : 0);
  uptime_.Add({}).Set(s.uptime_seconds);
  for (const auto& d : s.devices) {
    const std::string gpu = std::to_string(d.ordinal);
    vram_bytes_.Add({{"gpu", gpu}, {"kind", "total"}}).Set(static_cast<double>(d.vram_total));
    vram_bytes_.Add({{"gpu", gpu}, {"kind", "used"}}).Set(static_cast<double>(d.vram_total - d.vram_free));
    vram_bytes_.Add({{"gpu", gpu}, {"kind", "daemon"}}).Set(static_cast<double>(d.vram_used));
    vram_bytes_.Add({{"gpu", gpu}, {"kind", "daemon_peak"}}).Set(static_cast<double>(d.vram_peak));
    vram_bytes_.Add({{"gpu", gpu}, {"kind", "daemon_cached"}}).Set(static_cast<double>(d.vram_cached));
    vram_bytes_.Add({{"gpu", gpu}, {"kind", "limit"}}).Set(static_cast<double>(d.vram_limit));
    advance(context_resets_, {{"gpu", gpu}}, "resets/" + gpu, static_cast<double>(d.context_resets));
  }
  const auto& f = s.faults;
  for (const auto& [kind, n] : {std::pair<const char*, std::uint64_t>{"out_of_memory", f.out_of_memory},
                                {"context_lost", f.context_lost},
                                {"self_check", f.self_check},
                                {"vram_leak", f.vram_leaks},
                                {"retry", f.retries},
                                {"worker_restart", f.worker_restarts}})
    advance(faults_, {{"kind", kind}}, std::string("faults/") + kind, static_cast<double>(n));
  for (const auto& [plan, n] : s.partitions_by_plan)
    advance(partitions_by_plan_, {{"plan", plan}}, "plan/" + plan, static_cast<double>(n));
  for (const auto& [prestage, n] : s.partitions_by_prestage)
    advance(partitions_by_prestage_, {{"prestage", prestage}}, "prestage/" + prestage,
            static_cast<double>(n));
  advance(pinned_pool_leases_, {{"outcome", "lent"}}, "leases/lent",
          static_cast<double>(s.pinned_pool_leases));
  advance(pinned_pool_leases_, {{"outcome", "refused"}}, "leases/refused",
          static_cast<double>(s.pinned_pool_refused));
  advance(pinned_pool_leases_, {{"outcome", "deferred"}}, "leases/deferred",
          static_cast<double>(s.pinned_pool_deferred));
  return prometheus::TextSerializer().Serialize(registry_->Collect());
}

}  // namespace cuzk::service
