// Engine::status: what /status, /metrics and GetStatus show — the repository, the queue, every GPU (this
// process's, simulated ones, or the worker processes'), jobs, workers and faults.
#include <algorithm>
#include <mutex>

#include "engine/engine.hpp"
#include "engine/engine_state.hpp"
#include "engine/key_store.hpp"
#include "engine/worker_process.hpp"

#ifdef CUZK_HAVE_CUDA
#include "cuda/device.hpp"
#include "cuda/error.hpp"
#include "cuda/host_registry.hpp"
#include "cuda/pinned_pool.hpp"
#include "cuda/staged_upload.hpp"
#include "cuda/vram.hpp"
#endif

namespace cuzk::engine {

EngineStatus Engine::status(bool with_jobs) const {
  EngineStatus s;
  s.circuits = repository_.list();
  s.repository_bytes = repository_.loaded_bytes();
  s.repository_budget = repository_.budget_bytes();
  s.pinned_bytes = repository_.pinned_bytes();
  s.pinned_budget = repository_.pinned_budget_bytes();
  if (worker_key_store_) s.key_store_bytes = worker_key_store_->bytes();
  s.queue_depth = scheduler_.depth_by_priority();
  s.backend = backend_;
  for (const auto& d : devices_) {  // simulated GPUs (tests): their state, no memory
    if (!d->simulated) continue;
    DeviceStatus ds;
    ds.ordinal = d->ordinal;
    ds.name = "simulated";
    std::lock_guard g(d->gpu);
    ds.lost = d->lost;
    ds.lost_reason = d->lost_reason;
    s.devices.push_back(std::move(ds));
  }
#ifdef CUZK_HAVE_CUDA
  for (const auto& d : devices_) {
    if (d->simulated) continue;
    DeviceStatus ds;
    ds.ordinal = d->ordinal;
    try {
      const auto info = cuda::device_info(d->ordinal);
      ds.name = info.name;
      ds.vram_total = info.total_mem;
      ds.vram_free = info.free_mem;
      const auto use = cuda::vram_usage(d->ordinal);
      ds.vram_used = use.in_use;
      ds.vram_peak = use.peak;
      ds.vram_cached = cuda::pool_slack(d->ordinal);
      ds.vram_limit = config_.vram_limit ? std::min(config_.vram_limit, info.total_mem) : info.total_mem;
    } catch (const cuda::CudaError&) {  // a sick device must not take the status page down
      ds.name = "unavailable";
    }
    {
      std::lock_guard g(d->gpu);
      for (const auto& [id, key] : d->keys)
        if (key.plan) ds.resident_circuits.push_back(id);
      ds.context_resets = d->resets;
      ds.lost = d->lost;
      ds.lost_reason = d->lost_reason;
    }
    s.devices.push_back(std::move(ds));
  }
#endif
  // isolation = process: the GPUs, their faults and the pinned memory are the worker processes'. Asked
  // without the engine's lock; a worker that does not answer at once is left out of this page.
  std::vector<EngineStatus> workers;
  for (std::size_t i = 0; i < processes_.size(); ++i) {
    if (processes_[i]->on_fallback() && process_devices_[i] >= 0) {  // its GPU is lost: a CPU worker serves
      DeviceStatus lost;
      lost.ordinal = process_devices_[i];
      lost.name = "lost";
      lost.lost = true;
      lost.lost_reason = processes_[i]->lost_reason();
      s.devices.push_back(std::move(lost));
    }
    if (auto ws = processes_[i]->status(std::chrono::milliseconds(2000))) {
      for (auto& d : ws->devices) d.worker_pid = processes_[i]->pid();
      workers.push_back(std::move(*ws));
    }
  }
  for (auto& ws : workers) {
    for (auto& d : ws.devices) s.devices.push_back(std::move(d));
    s.pinned_bytes += ws.pinned_bytes;
    s.pinned_budget += ws.pinned_budget;
    s.pinned_pool_bytes += ws.pinned_pool_bytes;
    s.pinned_pool_budget += ws.pinned_pool_budget;
    s.pinned_pool_leases += ws.pinned_pool_leases;
    s.pinned_pool_refused += ws.pinned_pool_refused;
    s.pinned_pool_deferred += ws.pinned_pool_deferred;
    s.pinned_staging_bytes += ws.pinned_staging_bytes;
  }
  // A key prepared on any GPU, this process's or a worker's, puts its circuit in the gpu tier.
  for (const auto& d : s.devices)
    for (auto& c : s.circuits)
      if (std::find(d.resident_circuits.begin(), d.resident_circuits.end(), c.id) !=
          d.resident_circuits.end())
        c.tier = Tier::kGpu;
  std::lock_guard lock(mutex_);
  if (with_jobs)
    for (const auto& [seq, job] : jobs_) s.jobs.push_back(snapshot(*job, false));
  for (const auto& w : workers_)
    s.workers.push_back({w->name, w->busy, w->job_id, w->partition, w->busy_seconds, w->done});
  s.completed = completed_;
  s.failed = failed_;
  s.cancelled = cancelled_;
  s.faults = faults_;
  for (const auto& p : processes_) {
    s.faults.worker_restarts += p->restarts();
    s.kept_device_bytes += p->keeper().bytes();
    s.kept_arrays_handed_back += p->keeper().handed_back();
  }
  // The workers' own faults since they started (a restarted worker starts counting again).
  for (const auto& ws : workers) s.faults += ws.faults;
#ifdef CUZK_HAVE_CUDA
  if (pinned_pool_) {
    const auto ps = pinned_pool_->stats();
    s.pinned_pool_bytes = ps.held;
    s.pinned_pool_budget = ps.budget;
    s.pinned_pool_leases = ps.leases;
    s.pinned_pool_refused = ps.refused;
    s.pinned_pool_deferred = ps.deferred;
  }
  const std::size_t staging = cuda::StagedUpload::cached_bytes();
  s.pinned_staging_bytes += staging;
  // Page-locked key memory: the repository's locks (pin_keys) and those of GPU plans that stream a key from
  // host memory, which share one registry with the staging buffers and the pinned pool's buffers (and
  // nothing else).
  if (backend_ == "cuda" && processes_.empty()) {
    const std::size_t registered = cuda::HostRegistry::instance().registered_bytes();
    const std::size_t others = staging + cuda::pinned_buffer_bytes();
    s.pinned_bytes = registered > others ? registered - others : 0;
  }
#endif
  s.partitions_by_plan = partitions_by_plan_;
  s.partitions_by_prestage = partitions_by_prestage_;
  s.uptime_seconds = ms_between(started_, Clock::now()) / 1000;
  return s;
}

}  // namespace cuzk::engine
