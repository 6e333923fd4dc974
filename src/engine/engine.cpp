#include "engine/engine.hpp"

#include <tbb/parallel_for.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>

#include "engine/engine_state.hpp"
#include "engine/worker_process.hpp"
#include "filecoin/circuit_catalog.hpp"
#include "filecoin/vanilla_job.hpp"
#include "groth16/bellperson.hpp"
#include "groth16/prover.hpp"
#include "io/bellperson_assignment.hpp"
#include "io/error.hpp"
#include "io/json.hpp"
#include "io/wtns.hpp"

#ifdef CUZK_HAVE_CUDA
#include "cuda/device.hpp"
#include "cuda/device_code.hpp"
#include "cuda/error.hpp"
#include "cuda/fault_injection.hpp"
#include "cuda/host_registry.hpp"
#include "cuda/pinned_pool.hpp"
#include "cuda/stream.hpp"
#include "cuda/vram.hpp"
#include "groth16/gpu_prover.hpp"
#endif

namespace cuzk::engine {

const char* to_string(JobStatus s) {
  switch (s) {
    case JobStatus::kQueued:
      return "QUEUED";
    case JobStatus::kRunning:
      return "RUNNING";
    case JobStatus::kCompleted:
      return "COMPLETED";
    case JobStatus::kFailed:
      return "FAILED";
    case JobStatus::kCancelled:
      return "CANCELLED";
  }
  return "?";
}

const char* to_string(PartitionState s) {
  switch (s) {
    case PartitionState::kPending:
      return "pending";
    case PartitionState::kRunning:
      return "running";
    case PartitionState::kDone:
      return "done";
    case PartitionState::kFailed:
      return "failed";
    case PartitionState::kCancelled:
      return "cancelled";
  }
  return "?";
}

std::size_t auto_pinned_pool(std::size_t physical_bytes) {
  constexpr std::size_t kMost = std::size_t(64) << 30, kUnknown = std::size_t(8) << 30;
  return physical_bytes == 0 ? kUnknown : std::min(physical_bytes / 3, kMost);
}

std::size_t physical_memory_bytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? static_cast<std::size_t>(pages) * static_cast<std::size_t>(page) : 0;
}

namespace {
EngineConfig resolved(EngineConfig c) {
  if (c.pinned_pool == EngineConfig::kAutoPinnedPool)
    c.pinned_pool = auto_pinned_pool(physical_memory_bytes());
  if (c.host_memory_budget == EngineConfig::kAutoHostMemoryBudget)
    c.host_memory_budget = auto_host_memory_budget(physical_memory_bytes());
  return c;
}

std::string gib_text(std::size_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GiB", double(bytes) / double(std::size_t(1) << 30));
  return buf;
}
}  // namespace

Engine::Engine(EngineConfig config)
    : config_(resolved(std::move(config))),
      repository_(config_.repository, config_.memory_budget),
      host_budget_(config_.host_memory_budget, [this] { return repository_.host_bytes(); }),
      predecessor_(config_.predecessor_pidfd) {
  repository_.set_parameter_cache(config_.parameter_cache.empty() ? filecoin::default_parameter_cache()
                                                                  : config_.parameter_cache);
  if (config_.backend != "cpu" && config_.backend != "cuda" && config_.backend != "auto")
    throw std::invalid_argument("backend must be cpu, cuda or auto, not \"" + config_.backend + "\"");
  int gpus = 0;
#ifdef CUZK_HAVE_CUDA
  cuda::ensure_jit_cache_size();  // before the first CUDA call: the driver reads it when it starts
  gpus = cuda::device_count();
#endif
  if (config_.backend == "cuda" && gpus == 0)
    throw std::invalid_argument(
        "backend cuda: no CUDA device is available (or this build has no CUDA backend)");
  backend_ = config_.backend == "auto" ? (gpus > 0 ? "cuda" : "cpu") : config_.backend;
  if (config_.isolation != "thread" && config_.isolation != "process" && config_.isolation != "auto")
    throw std::invalid_argument("isolation must be thread, process or auto, not \"" + config_.isolation +
                                "\"");
  if (config_.isolation == "auto") config_.isolation = auto_isolation();
  const bool in_process = config_.isolation == "thread";
  if (!config_.key_store_dir.empty())  // a worker process: its parent's shared keys
    repository_.set_key_store(
        std::make_shared<KeyStore>(config_.key_store_dir, [this](const std::string& line) { log(line); }),
        config_.key_store_sharers);

  if (!in_process) {
    repository_.set_verifying_only(true);  // the worker processes hold the proving keys
    start_worker_processes(gpus);
  } else if (backend_ == "cuda") {
    for (int d : gpu_ordinals(gpus)) {
      devices_.push_back(std::make_unique<Device>());
      devices_.back()->ordinal = d;
      for (unsigned w = 0; w < std::max(1u, config_.gpu_workers_per_device); ++w)
        add_worker("cuda:" + std::to_string(d) + "/" + std::to_string(w)).device = devices_.back().get();
    }
  } else if (config_.simulated_devices > 0) {  // tests: several "GPUs" without one
    for (unsigned d = 0; d < config_.simulated_devices; ++d) {
      devices_.push_back(std::make_unique<Device>());
      devices_.back()->ordinal = static_cast<int>(d);
      devices_.back()->simulated = true;
      for (unsigned w = 0; w < std::max(1u, config_.gpu_workers_per_device); ++w)
        add_worker("sim:" + std::to_string(d) + "/" + std::to_string(w)).device = devices_.back().get();
    }
  } else {
    for (unsigned w = 0; w < std::max(1u, config_.cpu_workers); ++w) add_worker("cpu:" + std::to_string(w));
  }
#ifdef CUZK_HAVE_CUDA
  // Keys the GPUs use are page-locked in host memory, so uploads (and MSMs streamed from host memory when a
  // key does not fit on the device) run at full PCIe speed.
  if (in_process && backend_ == "cuda" && config_.pin_keys)
    repository_.set_pinner(
        [](void* data, std::size_t bytes) { return cuda::HostRegistry::instance().pin(data, bytes); },
        config_.pinned_budget);
#endif
  corrupt_.configure(cuda::fault_spec_from_env("CUZK_FAULT_CORRUPT", config_.fault_corrupt));
#ifdef CUZK_HAVE_CUDA
  if (in_process && backend_ == "cuda") {
    if (config_.prestage && config_.pinned_pool > 0)
      pinned_pool_ = std::make_unique<cuda::PinnedPool>(
          config_.pinned_pool, config_.pinned_pool_in_background ? cuda::PinnedPool::Fill::kInBackground
                                                                 : cuda::PinnedPool::Fill::kOnDemand);
    cuda::set_vram_policy({config_.vram_limit, config_.vram_margin});
    cuda::configure_faults(config_.fault_alloc, config_.fault_sticky);
  }
#endif
#ifdef CUZK_HAVE_CUDA
  // Which code each GPU runs, found by loading it there: a GPU this build has no code for (or whose PTX the
  // driver cannot compile) is lost from the start, and its workers prove on the CPU. The first start on a
  // GPU without machine code is where the driver compiles the PTX (minutes; then its cache has it).
  for (auto& d : devices_) {
    if (d->simulated) continue;
    const auto t0 = Clock::now();
    try {
      const cuda::DeviceInfo info = cuda::device_info(d->ordinal);
      const cuda::DeviceCode code = cuda::device_code(d->ordinal);
      std::string loaded;
      if (code.jit())
        loaded = " (loaded in " + std::to_string(static_cast<long>(ms_between(t0, Clock::now()))) + " ms)";
      log("cuzk engine: GPU " + std::to_string(d->ordinal) + " " + info.name + ", sm_" +
          std::to_string(info.cc_major) + std::to_string(info.cc_minor) + ": " + code.describe() + loaded);
    } catch (const cuda::CudaError& e) {
      d->lost = true;
      d->lost_reason = std::string("this build has no code it can run: ") + e.what();
      log("cuzk engine: GPU " + std::to_string(d->ordinal) + " LOST: " + d->lost_reason +
          "; its workers prove on the CPU (docs/gpu.md, \"Architectures\")");
    }
  }
#endif
  for (auto& w : workers_) threads_.emplace_back([this, &w] { work(*w); });
  std::string pool;
#ifdef CUZK_HAVE_CUDA
  if (pinned_pool_) pool = ", witness pinned pool " + std::to_string(config_.pinned_pool >> 20) + " MiB";
#endif
  const std::string host = config_.host_memory_budget
                               ? ", host memory budget " + gib_text(config_.host_memory_budget) +
                                     " for keys and witnesses (of " + gib_text(physical_memory_bytes()) + ")"
                               : ", no host memory budget";
  log("cuzk engine: backend " + backend_ + ", " + std::to_string(workers_.size()) + " workers" +
      (processes_.empty() ? "" : " in " + std::to_string(processes_.size()) + " worker processes") +
      ", repository " + config_.repository.string() + pool + host);
}

std::vector<int> Engine::gpu_ordinals(int gpus) const {
  std::vector<int> ordinals = config_.devices;
  if (ordinals.empty())
    for (int d = 0; d < gpus; ++d) ordinals.push_back(d);
  for (int d : ordinals)
    if (d < 0 || d >= gpus) throw std::invalid_argument("device " + std::to_string(d) + " does not exist");
  return ordinals;
}

Engine::Worker& Engine::add_worker(std::string name) {
  workers_.push_back(std::make_unique<Worker>());
  workers_.back()->name = std::move(name);
  return *workers_.back();
}

Engine::~Engine() {
  shutdown(false);
  // The shared images go with the daemon (a worker still mapping one keeps its memory until it exits).
  if (worker_key_store_) KeyStore::remove_store(worker_key_store_->dir());
}

void Engine::log(const std::string& line) const {
  if (config_.log)
    config_.log(line);
  else
    std::fprintf(stderr, "%s\n", line.c_str());
}

void Engine::warn_pinned_pool_too_small(const std::string& circuit_id, std::size_t bytes) {
  {
    std::lock_guard lock(mutex_);
    if (!pool_warned_.insert(circuit_id).second) return;
  }
  char gib[64];
  std::snprintf(gib, sizeof gib, "%.1f GiB", double(bytes) / double(std::size_t(1) << 30));
  log("cuzk: circuit " + circuit_id + ": a partition's input (" + gib +
      ") is larger than engine.pinned_pool, so its partitions are never pre-staged "
      "(prestage_setup=fallback): "
      "raise engine.pinned_pool to at least twice that to stage one per worker");
}

HostMemoryBudget::Reservation Engine::reserve_witness(Job& job, std::size_t bytes, PartitionResult& r) {
  bool tell = false;
  {
    std::lock_guard lock(mutex_);
    tell = host_budget_.budget() && witness_budget_told_.insert(job.circuit->id).second;
  }
  if (tell) {
    const std::size_t fit = host_budget_.fitting(bytes), workers = workers_.size();
    log("cuzk: circuit " + job.circuit->id + ": " + gib_text(bytes) +
        " of host memory per partition's witness; " + std::to_string(fit) + " fit beside the keys (" +
        gib_text(repository_.host_bytes()) + ") in the host memory budget of " +
        gib_text(host_budget_.budget()) +
        (fit < workers ? ", so " + std::to_string(fit) + " of the " + std::to_string(workers) +
                             " workers make one at a time (engine.host_memory_budget)"
                       : ""));
  }
  double waited = 0;
  auto slot = host_budget_.reserve(
      bytes, [&] { return job.cancel.load(); }, &waited);
  if (waited >= 1) r.stages.add_detail("host_memory_wait", waited);
  if (!slot.bytes() && bytes > 0 && host_budget_.budget()) throw groth16::Cancelled();
  return slot;
}

std::shared_ptr<Engine::Job> Engine::find(const std::string& job_id) const {
  // Job ids start with the sequence number.
  std::uint64_t seq = 0;
  const auto dash = job_id.find('-');
  try {
    seq = std::stoull(job_id.substr(0, dash));
  } catch (const std::exception&) {
    return nullptr;
  }
  auto it = jobs_.find(seq);
  return it != jobs_.end() && it->second->id == job_id ? it->second : nullptr;
}

void Engine::forget_old_jobs() {
  std::size_t finished_count = 0;
  for (const auto& [seq, j] : jobs_) finished_count += finished(j->status);
  for (auto it = jobs_.begin(); it != jobs_.end() && finished_count > config_.finished_jobs_kept;) {
    if (finished(it->second->status)) {
      it = jobs_.erase(it);
      --finished_count;
    } else {
      ++it;
    }
  }
}

JobResult Engine::snapshot(const Job& job, bool with_proofs) const {
  JobResult r;
  r.job_id = job.id;
  r.request_id = job.request_id;
  r.circuit_id = job.circuit_id;
  r.kind = job.kind;
  r.priority = job.priority;
  r.status = job.status;
  r.error = job.error;
  r.partitions = job.parts;
  if (!with_proofs)
    for (auto& p : r.partitions) p.proof_json.clear(), p.public_json.clear();
  const auto now = Clock::now();
  r.queue_wait_ms = ms_between(job.submitted, job.started == Clock::time_point{} ? now : job.started);
  r.total_ms = ms_between(job.submitted, job.finished == Clock::time_point{} ? now : job.finished);
  return r;
}

JobResult Engine::await(const std::string& job_id, std::optional<std::chrono::milliseconds> timeout) {
  std::unique_lock lock(mutex_);
  auto job = find(job_id);
  if (!job) throw RequestError("unknown job '" + job_id + "' (never submitted, or finished long ago)");
  auto done = [&] { return finished(job->status); };
  bool ok = timeout ? changed_.wait_for(lock, *timeout, done) : (changed_.wait(lock, done), true);
  JobResult r = snapshot(*job, true);
  r.timed_out = !ok;
  return r;
}

void Engine::stop_pending(Job& job) {
  job.cancel = true;
  scheduler_.remove_job(job.seq);
  for (auto& p : job.parts)
    if (p.state == PartitionState::kPending) {
      p.state = PartitionState::kCancelled;
      --job.unfinished;
    }
}

std::optional<JobResult> Engine::end_if_done(Job& job) {
  if (job.unfinished != 0) return std::nullopt;
  if (!finished(job.status)) job.status = job.cancel ? JobStatus::kCancelled : JobStatus::kCompleted;
  job.finished = Clock::now();
  (job.status == JobStatus::kCompleted ? completed_
   : job.status == JobStatus::kFailed  ? failed_
                                       : cancelled_)++;
  JobResult r = snapshot(job, false);
  job.release_inputs();
  return r;
}

void Engine::publish(const std::vector<JobResult>& ended) {
  // Metrics first, then the waiters: a client that sees its job finished finds it counted.
  if (config_.on_job_finished)
    for (const auto& r : ended) config_.on_job_finished(r);
  changed_.notify_all();
}

bool Engine::cancel(const std::string& job_id) {
  bool was_running = false;
  std::vector<JobResult> ended;
  {
    std::lock_guard lock(mutex_);
    auto job = find(job_id);
    if (!job) throw RequestError("unknown job '" + job_id + "'");
    if (finished(job->status)) return false;
    for (const auto& p : job->parts) was_running |= p.state == PartitionState::kRunning;
    stop_pending(*job);
    if (auto r = end_if_done(*job)) ended.push_back(std::move(*r));
  }
  publish(ended);
  log("cuzk: job=" + job_id + " cancelled" +
      (was_running ? " (running partitions stop at their next stage)" : ""));
  return was_running;
}

Repository::PreloadResult Engine::preload(const std::string& circuit_id) {
  Repository::PreloadResult r;
  try {
    // isolation = process: the verifying key here (and a check that the key exists).
    r = repository_.preload(circuit_id);
  } catch (const RepositoryError& e) {
    throw RequestError(e.what());
  }
  // A built-in Filecoin circuit is synthesized here: its layout and densities (shape runs, ~1 and ~4 s at
  // 32 GiB on 16 cores) are made now rather than by the first partitions, which would each make them.
  if (const auto* builtin = filecoin::find_filecoin_circuit(circuit_id)) {
    const auto t0 = Clock::now();
    filecoin::prepare_circuit(*builtin);
    r.load_ms += ms_between(t0, Clock::now());
  }
#ifdef CUZK_HAVE_CUDA
  // Which plan the key takes on each GPU, or that none fits: said at the preload, before any partition.
  if (processes_.empty() && backend_ == "cuda")
    if (const auto c = repository_.acquire(circuit_id); c && !c->verifying_only) report_plans(*c);
#endif
  if (processes_.empty()) return r;
  // The proving key lives in the worker processes: load it there, every one of them.
  r = {true, 0};
  for (const auto& p : processes_) {
    std::optional<worker_protocol::Reply> reply;
    try {
      reply =
          p->control(worker_protocol::control_request(worker_protocol::RequestKind::kPreload, circuit_id));
    } catch (const WorkerDied& e) {
      throw RequestError(std::string("preload '") + circuit_id + "': " + e.what());
    }
    if (reply->result.state == PartitionState::kFailed) throw RequestError(reply->result.error);
    r.already_loaded = r.already_loaded && reply->already;
    r.load_ms = std::max(r.load_ms, reply->ms);
  }
  return r;
}

Repository::EvictResult Engine::evict(const std::string& circuit_id) {
  long device_copies = 0;
#ifdef CUZK_HAVE_CUDA
  for (auto& d : devices_) {
    std::lock_guard g(d->gpu);
    device_copies += d->keys.count(circuit_id);
  }
#endif
  auto r = repository_.evict(circuit_id, device_copies);
  // isolation = process: what the daemon evicted is a verifying key; the proving keys are the workers'.
  for (const auto& p : processes_) {
    std::optional<worker_protocol::Reply> reply;
    try {
      reply = p->control(worker_protocol::control_request(worker_protocol::RequestKind::kEvict, circuit_id));
    } catch (const WorkerDied&) {  // its keys went with it
    }
    if (!reply) continue;
    r.was_loaded = r.was_loaded || reply->already;
    // Worker processes that share one image free it once, when the store lets it go below.
    r.freed_bytes = worker_key_store_ ? std::max(r.freed_bytes, reply->bytes) : r.freed_bytes + reply->bytes;
    r.jobs_holding = std::max<long>(r.jobs_holding, reply->holding);
  }
  if (worker_key_store_ && r.jobs_holding == 0) worker_key_store_->remove(circuit_id);
#ifdef CUZK_HAVE_CUDA
  if (r.was_loaded && r.jobs_holding == 0)
    for (auto& d : devices_) {
      std::lock_guard g(d->gpu);
      if (auto it = d->keys.find(circuit_id); it != d->keys.end()) {
        it->second.drop();  // and what a memory keeper held of it
        d->keys.erase(it);
      }
    }
#endif
  return r;
}

void Engine::work(Worker& w) {
#ifdef CUZK_HAVE_CUDA
  if (w.device && !w.device->simulated) {
    CUZK_CUDA_CHECK(cudaSetDevice(w.device->ordinal));
    std::lock_guard g(w.device->gpu);
    w.stream = std::make_unique<cuda::Stream>();
    w.copy = std::make_unique<cuda::Stream>();
    w.generation = w.device->generation;
  }
#endif
  while (auto item = scheduler_.pop()) {
    // A lost device's worker leaves the queue to the devices that can prove (another_device_proves), the
    // item it took included; it stays to prove on the CPU only when every device is lost.
    if (device_lost(w) && another_device_proves(w)) {
      scheduler_.push(*item);
      log("cuzk: worker=" + w.name + " stops: its GPU is lost and another GPU proves its partitions");
      return;
    }
    std::shared_ptr<Job> job;
    {
      std::lock_guard lock(mutex_);
      auto it = jobs_.find(item->job);
      if (it == jobs_.end()) continue;
      job = it->second;
      auto& part = job->parts[item->partition];
      if (finished(job->status) || part.state != PartitionState::kPending) continue;
      part.state = PartitionState::kRunning;
      part.worker = w.name;
      part.queue_ms = ms_between(job->submitted, Clock::now());
      part.start_ms = ms_between(started_, Clock::now());
      if (job->status == JobStatus::kQueued) {
        job->status = JobStatus::kRunning;
        job->started = Clock::now();
      }
      w.busy = true;
      w.job_id = job->id;
      w.partition = item->partition;
    }
    const auto t0 = Clock::now();
    PartitionResult result = run_partition(w, *job, item->partition);
    result.end_ms = ms_between(started_, Clock::now());
    bool handed_back = result.state == PartitionState::kPending;
    {
      std::lock_guard lock(mutex_);
      w.busy = false;
      w.busy_seconds += ms_between(t0, Clock::now()) / 1000;
      if (handed_back && (job->cancel || finished(job->status))) {
        handed_back = false;  // nobody wants it any more
        result.state = PartitionState::kCancelled;
      }
      if (handed_back) {  // its device was lost under it: queued again, at its place (job order)
        auto& part = job->parts[item->partition];
        part.state = PartitionState::kPending;
        part.worker.clear();
        scheduler_.push(*item);  // under the lock: a cancel now finds it pending
      } else {
        ++w.done;
      }
    }
    if (handed_back) continue;  // the loop's check retires this worker
    finish_partition(*job, item->partition, std::move(result));
  }
}

bool Engine::device_lost(const Worker& w) const {
  if (w.device) return w.device->lost;
  // isolation = process: a GPU's worker process that kept dying is replaced by a CPU one (on_fallback).
  for (std::size_t i = 0; i < processes_.size(); ++i)
    if (processes_[i].get() == w.process) return process_devices_[i] >= 0 && processes_[i]->on_fallback();
  return false;
}

bool Engine::another_device_proves(const Worker& w) const {
  if (w.device)
    return std::any_of(devices_.begin(), devices_.end(),
                       [&](const auto& d) { return d.get() != w.device && !d->lost; });
  for (std::size_t i = 0; i < processes_.size(); ++i)
    if (processes_[i].get() != w.process && process_devices_[i] >= 0 && !processes_[i]->on_fallback())
      return true;
  return false;
}

void Engine::finish_partition(Job& job, std::uint32_t partition, PartitionResult result) {
  std::vector<JobResult> ended;
  {
    std::lock_guard lock(mutex_);
    const bool failed_now = result.state == PartitionState::kFailed;
    job.parts[partition] = std::move(result);
    --job.unfinished;
    if (failed_now && job.status == JobStatus::kRunning) {
      // One failed partition fails the job: its queued partitions are not worth proving.
      job.status = JobStatus::kFailed;
      job.error = "partition " + std::to_string(partition) + ": " + job.parts[partition].error;
      stop_pending(job);
    }
    if (auto r = end_if_done(job)) ended.push_back(std::move(*r));
  }
  publish(ended);
}

void Engine::cancel_pending() {
  std::vector<JobResult> ended;
  {
    std::lock_guard lock(mutex_);
    accepting_ = false;
    for (auto& [seq, job] : jobs_) {
      if (finished(job->status)) continue;
      stop_pending(*job);
      if (auto r = end_if_done(*job)) ended.push_back(std::move(*r));
    }
  }
  publish(ended);
}

void Engine::shutdown(bool drain) {
  std::lock_guard stop(shutdown_mutex_);
  if (stopped_) return;
  if (drain) {
    std::lock_guard lock(mutex_);
    accepting_ = false;
  } else {
    cancel_pending();
  }
  scheduler_.close();
  for (auto& t : threads_)
    if (t.joinable()) t.join();
  stopped_ = true;
  std::lock_guard lock(mutex_);
  log("cuzk engine: stopped (" + std::string(drain ? "drained" : "cancelled") +
      "): " + std::to_string(completed_) + " completed, " + std::to_string(failed_) + " failed, " +
      std::to_string(cancelled_) + " cancelled");
}

}  // namespace cuzk::engine
