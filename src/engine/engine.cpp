#include "engine/engine.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <functional>
#include <sstream>

#include "ff/random.hpp"
#include "groth16/bellperson.hpp"
#include "groth16/prover.hpp"
#include "groth16/verifier.hpp"
#include "io/bellperson_assignment.hpp"
#include "io/error.hpp"
#include "io/json.hpp"
#include "io/wtns.hpp"

#ifdef CUZK_HAVE_CUDA
#include "cuda/device.hpp"
#include "cuda/error.hpp"
#include "cuda/event.hpp"
#include "cuda/fault_injection.hpp"
#include "cuda/host_registry.hpp"
#include "cuda/pinned_pool.hpp"
#include "cuda/stream.hpp"
#include "cuda/vram.hpp"
#include "groth16/gpu_bellperson.hpp"
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

namespace {

using Clock = std::chrono::steady_clock;

double ms_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

template <class Curve>
using Witnesses = std::vector<std::vector<typename Curve::Fr>>;

double stage_sum(const groth16::StageTimings& t, std::initializer_list<const char*> names) {
  double sum = 0;
  for (const auto& [name, ms] : t.stages_ms)
    for (const char* n : names)
      if (name == n) sum += ms;
  return sum;
}

}  // namespace

struct Engine::Job {
  std::uint64_t seq = 0;
  std::string id, request_id, circuit_id;
  Priority priority = Priority::kNormal;
  std::shared_ptr<const Circuit> circuit;
  // Inline witnesses, decoded at submit (bellperson circuits: synthesized assignments).
  std::variant<Witnesses<Bn254>, Witnesses<Bls12_381>, std::vector<groth16::bellperson::Assignment>>
      witnesses;
  std::vector<std::string>
      witness_paths;  // or files, checked at submit and decoded when their partition runs
  std::vector<PartitionResult> parts;
  JobStatus status = JobStatus::kQueued;
  std::string error;
  Clock::time_point submitted = Clock::now(), started{}, finished{};
  std::atomic<bool> cancel{false};
  std::uint32_t unfinished = 0;
};

namespace {
// A finished job keeps only its results: its key reference (so evict() really frees) and its witnesses go.
void release_inputs(auto& job) {
  job.circuit.reset();
  job.witnesses = {};
  job.witness_paths = {};
}
}  // namespace

#ifdef CUZK_HAVE_CUDA
// A circuit's key prepared on one GPU, in the plan that fits (groth16/gpu_plan.hpp).
struct DeviceKey {
  std::shared_ptr<const Circuit> circuit;  // keeps the host key alive: streamed parts live there
  std::variant<std::monostate, std::unique_ptr<groth16::gpu::ResidentKey<Bn254>>,
               std::unique_ptr<groth16::gpu::ResidentKey<Bls12_381>>>
      key;
  std::optional<groth16::gpu::Plan> plan;    // of `key`, once built
  std::optional<groth16::gpu::Plan> forced;  // after an out-of-memory: at most this plan from now on

  void drop() {
    key = std::monostate{};
    circuit.reset();
    plan.reset();
  }
};
#endif

struct Engine::Device {
  int ordinal = -1;
  std::mutex gpu;  // held only around the GPU region of a proof
#ifdef CUZK_HAVE_CUDA
  std::map<std::string, DeviceKey> keys;  // by circuit id; guarded by `gpu`
  // CUDA contexts recreated so far; written under `gpu`, read without it by pre-staging workers.
  std::atomic<std::uint64_t> generation{0};
  std::mutex staging;            // serialises pre-staging allocations (outside the GPU region they overlap)
  std::size_t staged_bytes = 0;  // device memory held by pre-staged witnesses not yet taken; under `staging`
  std::uint64_t resets = 0;      // of which succeeded; guarded by `gpu`
#endif
  // Set when a poisoned context could not be recreated: the device's workers prove on the CPU from then on
  // (slow, but no job is lost and the daemon stays up), and /healthz reports it.
  std::atomic<bool> lost{false};
  std::string lost_reason;  // guarded by `gpu`
};

struct Engine::Worker {
  std::string name;
  Device* device = nullptr;  // null: a CPU worker
#ifdef CUZK_HAVE_CUDA
  std::unique_ptr<cuda::Stream> stream;
  std::unique_ptr<cuda::Stream> copy;  // pre-staging uploads, while another worker holds the GPU
  std::uint64_t generation = 0;        // the device context `stream` and `copy` belong to
#endif
  // Guarded by the engine's mutex.
  bool busy = false;
  std::string job_id;
  std::uint32_t partition = 0;
  double busy_seconds = 0;
  std::uint64_t done = 0;
};

Engine::Engine(EngineConfig config)
    : config_(std::move(config)), repository_(config_.repository, config_.memory_budget) {
  if (config_.backend != "cpu" && config_.backend != "cuda" && config_.backend != "auto")
    throw std::invalid_argument("backend must be cpu, cuda or auto, not \"" + config_.backend + "\"");
  int gpus = 0;
#ifdef CUZK_HAVE_CUDA
  gpus = cuda::device_count();
#endif
  if (config_.backend == "cuda" && gpus == 0)
    throw std::invalid_argument(
        "backend cuda: no CUDA device is available (or this build has no CUDA backend)");
  backend_ = config_.backend == "auto" ? (gpus > 0 ? "cuda" : "cpu") : config_.backend;

  if (backend_ == "cuda") {
    std::vector<int> ordinals = config_.devices;
    if (ordinals.empty())
      for (int d = 0; d < gpus; ++d) ordinals.push_back(d);
    for (int d : ordinals) {
      if (d < 0 || d >= gpus) throw std::invalid_argument("device " + std::to_string(d) + " does not exist");
      devices_.push_back(std::make_unique<Device>());
      devices_.back()->ordinal = d;
      for (unsigned w = 0; w < std::max(1u, config_.gpu_workers_per_device); ++w) {
        workers_.push_back(std::make_unique<Worker>());
        workers_.back()->name = "cuda:" + std::to_string(d) + "/" + std::to_string(w);
        workers_.back()->device = devices_.back().get();
      }
    }
  } else {
    for (unsigned w = 0; w < std::max(1u, config_.cpu_workers); ++w) {
      workers_.push_back(std::make_unique<Worker>());
      workers_.back()->name = "cpu:" + std::to_string(w);
    }
  }
#ifdef CUZK_HAVE_CUDA
  // Keys the GPUs use are page-locked in host memory, so uploads (and MSMs streamed from host memory when a
  // key does not fit on the device) run at full PCIe speed.
  if (backend_ == "cuda" && config_.pin_keys)
    repository_.set_pinner(
        [](void* data, std::size_t bytes) { return cuda::HostRegistry::instance().pin(data, bytes); },
        config_.pinned_budget);
#endif
  corrupt_.configure(cuda::fault_spec_from_env("CUZK_FAULT_CORRUPT", config_.fault_corrupt));
#ifdef CUZK_HAVE_CUDA
  if (backend_ == "cuda") {
    if (config_.prestage && config_.pinned_pool > 0)
      pinned_pool_ = std::make_unique<cuda::PinnedPool>(config_.pinned_pool);
    cuda::set_vram_policy({config_.vram_limit, config_.vram_margin});
    cuda::configure_faults(config_.fault_alloc, config_.fault_sticky);
  }
#endif
  for (auto& w : workers_) threads_.emplace_back([this, &w] { work(*w); });
  log("cuzk engine: backend " + backend_ + ", " + std::to_string(workers_.size()) + " workers, repository " +
      config_.repository.string());
}

Engine::~Engine() {
  shutdown(false);
}

void Engine::log(const std::string& line) const {
  if (config_.log)
    config_.log(line);
  else
    std::fprintf(stderr, "%s\n", line.c_str());
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

// "<what> of partition i (path)", once the witness's size (inline or on disk) is known to be within the
// limit.
std::string Engine::sized_witness(const SubmitRequest& req, std::size_t i, const char* what) const {
  const bool by_path = !req.witness_paths.empty();
  const std::string label = std::string(what) + " of partition " + std::to_string(i) +
                            (by_path ? " (" + req.witness_paths[i] + ")" : "");
  std::error_code ec;
  const std::size_t bytes =
      by_path ? std::filesystem::file_size(req.witness_paths[i], ec) : req.witnesses[i].size();
  if (ec) throw RequestError(label + ": " + ec.message());
  if (bytes > config_.max_witness_bytes)
    throw RequestError(label + " is " + std::to_string(bytes) + " bytes, over the " +
                       std::to_string(config_.max_witness_bytes) + "-byte limit");
  return label;
}

// A bellperson circuit's partition witnesses are binary assignments (io/bellperson_assignment.hpp): inline
// ones are decoded and checked against the key now, files by their header (and decoded when they run).
std::vector<groth16::bellperson::Assignment> Engine::check_assignments(const io::bellperson::Params& params,
                                                                       SubmitRequest& req) const {
  const bool by_path = !req.witness_paths.empty();
  const std::size_t parts = by_path ? req.witness_paths.size() : req.witnesses.size();
  std::vector<groth16::bellperson::Assignment> out(by_path ? 0 : parts);
  tbb::parallel_for(std::size_t(0), parts, [&](std::size_t i) {
    const std::string label = sized_witness(req, i, "assignment");
    try {
      if (by_path) {
        const auto h = io::bellperson_assignment::peek(req.witness_paths[i]);
        groth16::bellperson::check_sizes(params, h.abc_size, h.inputs_size, h.aux_size);
      } else {
        out[i] = io::bellperson_assignment::read_bytes(std::move(req.witnesses[i]), label);
        groth16::bellperson::check(params, out[i]);
      }
    } catch (const io::FormatError& e) {
      throw RequestError(e.what());
    } catch (const groth16::bellperson::Error& e) {
      throw RequestError(label + ": " + e.what());
    }
  });
  return out;
}

Engine::Submitted Engine::submit(SubmitRequest req) {
  if (req.request_id.size() > 256) throw RequestError("request_id is longer than 256 characters");
  std::shared_ptr<const Circuit> circuit;
  try {
    circuit = repository_.acquire(req.circuit_id);
  } catch (const RepositoryError& e) {
    throw RequestError(e.what());
  }
  const std::uint32_t parts = circuit->config.partitions;
  if (!req.witnesses.empty() && !req.witness_paths.empty())
    throw RequestError("a job brings its witnesses either inline or as file paths, not both");
  const std::size_t given = req.witnesses.size() + req.witness_paths.size();
  if (given != parts)
    throw RequestError("circuit '" + circuit->id + "' takes " + std::to_string(parts) + " partition witness" +
                       (parts == 1 ? "" : "es") + " per job; the request has " + std::to_string(given));
  auto job = std::make_shared<Job>();
  job->request_id = req.request_id;
  job->circuit_id = circuit->id;
  job->circuit = circuit;
  job->priority = req.priority.value_or(circuit->config.priority);
  job->parts.resize(parts);
  job->unfinished = parts;
  // Parse and check every witness now, so a malformed one is this client's error, not a failed job. Files
  // are only checked (header, length, first value): decoded when their partition runs, so a queued job
  // does not hold ten PoRep-size witnesses in memory.
  if (circuit->bellperson())
    job->witnesses = check_assignments(std::get<io::bellperson::Params>(circuit->key), req);
  else
    io::with_curve(circuit->curve, [&]<class C>() {
      const auto& pk = std::get<groth16::ProvingKey<C>>(circuit->key);
      Witnesses<C> ws(req.witness_paths.empty() ? parts : 0);
      tbb::parallel_for(std::uint32_t(0), parts, [&](std::uint32_t i) {
        const bool by_path = !req.witness_paths.empty();
        const std::string label = sized_witness(req, i, "witness");
        try {
          if (by_path) {
            const auto s = io::peek_wtns<C>(req.witness_paths[i]);
            groth16::check_witness_shape(pk, s.count, s.first);
          } else {
            ws[i] = io::read_wtns_bytes<C>(std::move(req.witnesses[i]), label);
            groth16::check_prove_inputs(pk, ws[i]);
          }
        } catch (const io::FormatError& e) {
          throw RequestError(e.what());
        } catch (const groth16::ProveError& e) {
          throw RequestError(label + ": " + e.what());
        }
      });
      job->witnesses = std::move(ws);
    });
  job->witness_paths = std::move(req.witness_paths);

  std::size_t position = 0;
  {
    std::lock_guard lock(mutex_);
    if (!accepting_) throw RequestError("the daemon is shutting down and accepts no new jobs");
    job->seq = next_seq_++;
    job->id = std::to_string(job->seq) + (req.request_id.empty() ? "" : "-" + req.request_id);
    position = scheduler_.position_for(job->priority);
    jobs_[job->seq] = job;
    forget_old_jobs();
    for (std::uint32_t i = 0; i < parts; ++i) scheduler_.push({job->seq, i, job->priority});
  }
  return {job->id, position};
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
  release_inputs(job);
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
  try {
    return repository_.preload(circuit_id);
  } catch (const RepositoryError& e) {
    throw RequestError(e.what());
  }
}

Repository::EvictResult Engine::evict(const std::string& circuit_id) {
  long device_copies = 0;
#ifdef CUZK_HAVE_CUDA
  for (auto& d : devices_) {
    std::lock_guard g(d->gpu);
    device_copies += d->keys.count(circuit_id);
  }
#endif
  const auto r = repository_.evict(circuit_id, device_copies);
#ifdef CUZK_HAVE_CUDA
  if (r.was_loaded && r.jobs_holding == 0)
    for (auto& d : devices_) {
      std::lock_guard g(d->gpu);
      d->keys.erase(circuit_id);
    }
#endif
  return r;
}

void Engine::work(Worker& w) {
#ifdef CUZK_HAVE_CUDA
  if (w.device) {
    CUZK_CUDA_CHECK(cudaSetDevice(w.device->ordinal));
    std::lock_guard g(w.device->gpu);
    w.stream = std::make_unique<cuda::Stream>();
    w.copy = std::make_unique<cuda::Stream>();
    w.generation = w.device->generation;
  }
#endif
  while (auto item = scheduler_.pop()) {
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
    {
      std::lock_guard lock(mutex_);
      w.busy = false;
      w.busy_seconds += ms_between(t0, Clock::now()) / 1000;
      ++w.done;
    }
    finish_partition(*job, item->partition, std::move(result));
  }
}

namespace {
// A proof that failed its self-check: the witness does not satisfy the circuit, or the hardware computed
// something wrong. Retried (a GPU fault may not repeat); reported once the attempts are spent.
struct SelfCheckFailed : std::runtime_error {
  using std::runtime_error::runtime_error;
};
}  // namespace

void Engine::with_attempts(Worker& w, Job& job, std::uint32_t partition, PartitionResult& r,
                           const std::function<void()>& attempt) {
  unsigned out_of_memory = 0;  // in this partition's attempts: the second one steps the plan down
  for (r.attempts = 1;; ++r.attempts) {
    try {
      attempt();
      return;
    } catch (const SelfCheckFailed& e) {
      {
        std::lock_guard lock(mutex_);
        ++faults_.self_check;
      }
      if (r.attempts >= std::max(1u, config_.max_attempts))
        throw std::runtime_error(
            "the proof failed its self-check " + std::to_string(r.attempts) + " time(s) (" + e.what() +
            "): the witness most likely does not satisfy the circuit; no proof was returned");
      log("cuzk: job=" + job.id + " partition=" + std::to_string(partition) + " worker=" + w.name +
          " self-check failed (" + e.what() + "), proving again (attempt " + std::to_string(r.attempts + 1) +
          ")");
    } catch (const groth16::Cancelled&) {
      throw;
    } catch (const std::exception& e) {
#ifdef CUZK_HAVE_CUDA
      if (const auto* ce = dynamic_cast<const cuda::CudaError*>(&e);
          ce && ce->kind() == cuda::CudaError::Kind::out_of_memory)
        ++out_of_memory;
#endif
      if (!w.device || r.attempts >= std::max(1u, config_.max_attempts) ||
          !recover(w, job.circuit->id, e, out_of_memory > 1))
        throw;
      log("cuzk: job=" + job.id + " partition=" + std::to_string(partition) + " worker=" + w.name + " " +
          e.what() + "; recovered, proving again (attempt " + std::to_string(r.attempts + 1) + ")");
    }
    std::lock_guard lock(mutex_);
    ++faults_.retries;
  }
}

#ifdef CUZK_HAVE_CUDA
std::unique_lock<std::mutex> Engine::enter_gpu(Worker& w) {
  auto& d = *w.device;
  std::unique_lock gpu(d.gpu);
  if (d.lost) throw std::runtime_error("GPU " + std::to_string(d.ordinal) + " was lost while waiting for it");
  if (w.generation != d.generation) {  // the context was reset since this worker's streams were made
    w.stream->abandon();
    w.copy->abandon();
    w.stream = std::make_unique<cuda::Stream>();
    w.copy = std::make_unique<cuda::Stream>();
    w.generation = d.generation;
  }
  return gpu;
}
#endif

void Engine::prove_bellperson(Worker& w, Job& job, std::uint32_t partition, PartitionResult& r) {
  namespace bp = groth16::bellperson;
  const auto& params = std::get<io::bellperson::Params>(job.circuit->key);
  bp::Assignment loaded;
  if (!job.witness_paths.empty()) {
    groth16::StageTimer t(&r.stages, "load_witness");
    loaded = io::bellperson_assignment::read(job.witness_paths[partition]);
  }
  const auto& a =
      job.witness_paths.empty() ? std::get<std::vector<bp::Assignment>>(job.witnesses)[partition] : loaded;
  const std::vector<bp::Fr> pub(a.inputs.begin() + 1, a.inputs.end());
  with_attempts(w, job, partition, r, [&] {
    const auto t0 = Clock::now();
    const bp::Fr rr = ff::random_nonzero_os<bp::Fr>(), ss = ff::random_nonzero_os<bp::Fr>();
    groth16::Proof<bp::Curve> proof;
    if (!w.device || w.device->lost) {
      r.plan = w.device ? "cpu-fallback" : "cpu";
      proof = bp::prove(params, a, rr, ss);
    } else {
#ifdef CUZK_HAVE_CUDA
      const auto gpu = enter_gpu(w);
      r.plan = "streamed";  // bellperson keys are uploaded per proof (no resident form yet)
      proof = bp::gpu::prove(params, a, rr, ss, w.stream->get());
#endif
    }
    if (corrupt_.fire()) proof.a = -proof.a;  // fault injection: the self-check must catch this
    r.prove_ms = ms_between(t0, Clock::now());
    if (config_.self_check) {
      const auto tv = Clock::now();
      const auto v = bp::verify(params.vk, pub, proof);
      r.verify_ms = ms_between(tv, Clock::now());
      if (!v.valid) throw SelfCheckFailed(v.reason);
    }
    const auto bytes = bp::encode_proof(proof);
    r.proof_bytes.assign(bytes.begin(), bytes.end());
    r.public_json = io::public_to_json<Bls12_381>(pub);
  });
}

#ifdef CUZK_HAVE_CUDA
// A partition's witness uploaded ahead of its GPU region: from a pinned lease, on the worker's copy stream.
template <class Fr>
struct Prestaged {
  cuda::PinnedPool::Lease host;
  cuda::DeviceBuffer<Fr> device;
  cuda::Event uploaded{false};
  std::uint64_t generation = 0;  // of the context it was uploaded in
  std::mutex* staging = nullptr;
  std::size_t* staged_bytes = nullptr;  // the device's count, while this is not yet taken
  std::size_t counted = 0;

  // The proof takes the buffer over: it no longer counts as pre-staged.
  cuda::DeviceBuffer<Fr>* take() {
    uncount();
    return &device;
  }
  ~Prestaged() { uncount(); }
  void uncount() {
    if (counted == 0) return;
    std::lock_guard lock(*staging);
    *staged_bytes -= counted;
    counted = 0;
  }
};

// Uploads the witness while another worker may hold the GPU, if the pinned pool lends a buffer and the
// device can spare the bytes while still leaving a whole proof's working set to the proof in progress
// (gpu_plan.hpp): pre-staging must never be what makes the other worker run out. Null: upload in the region.
template <class C>
std::unique_ptr<Prestaged<typename C::Fr>> prestage(cuda::PinnedPool& pool, std::mutex& staging,
                                                    std::size_t& staged_bytes, std::uint64_t generation,
                                                    cuda::Stream& copy, const groth16::ProvingKey<C>& pk,
                                                    const std::vector<typename C::Fr>& witness) {
  using Fr = typename C::Fr;
  const std::size_t bytes = witness.size() * sizeof(Fr);
  auto lease = pool.lease(bytes);
  if (!lease) return nullptr;
  std::memcpy(lease.data(), witness.data(), bytes);
  try {
    std::lock_guard lock(staging);
    if (cuda::vram_available() < bytes + groth16::gpu::proof_footprint(pk)) return nullptr;
    auto p = std::make_unique<Prestaged<Fr>>();
    p->device = cuda::DeviceBuffer<Fr>(witness.size());
    p->device.upload(reinterpret_cast<const Fr*>(lease.data()), witness.size(), copy.get());
    p->uploaded.record(copy.get());
    p->host = std::move(lease);
    p->generation = generation;
    p->staging = &staging;
    p->staged_bytes = &staged_bytes;
    p->counted = bytes;
    staged_bytes += bytes;  // under the lock, with the allocation: snapshots see both or neither
    return p;
  } catch (const cuda::CudaError&) {  // refused, or a context in trouble: the region finds out and recovers
    return nullptr;
  }
}
#endif

template <class C>
void Engine::prove_snarkjs(Worker& w, Job& job, std::uint32_t partition, PartitionResult& r) {
  using Fr = typename C::Fr;
  const auto& pk = std::get<groth16::ProvingKey<C>>(job.circuit->key);
  std::vector<Fr> loaded;  // a witness file, decoded here: outside the GPU region, once for every attempt
  if (!job.witness_paths.empty()) {
    groth16::StageTimer t(&r.stages, "load_witness");
    loaded = io::read_wtns<C>(job.witness_paths[partition]);
    groth16::check_prove_inputs(pk, loaded);
  }
  const auto& witness = job.witness_paths.empty() ? std::get<Witnesses<C>>(job.witnesses)[partition] : loaded;
  const std::vector<Fr> pub(witness.begin() + 1, witness.begin() + 1 + pk.n_public);
#ifdef CUZK_HAVE_CUDA
  std::unique_ptr<Prestaged<Fr>> staged;
  if (w.device && !w.device->lost) {
    if (pinned_pool_ && w.generation == w.device->generation)
      staged = prestage<C>(*pinned_pool_, w.device->staging, w.device->staged_bytes, w.generation, *w.copy,
                           pk, witness);
    r.prestage = staged ? "ok" : pinned_pool_ ? "fallback" : "off";
  }
#endif
  with_attempts(w, job, partition, r, [&] {
    const auto t0 = Clock::now();
    const Fr rr = ff::random_nonzero_os<Fr>(), ss = ff::random_nonzero_os<Fr>();
    groth16::Proof<C> proof;
    if (!w.device || w.device->lost) {
      r.plan = w.device ? "cpu-fallback" : "cpu";
      proof = groth16::prove(pk, witness, rr, ss, &r.stages);
    } else {
#ifdef CUZK_HAVE_CUDA
      auto& d = *w.device;
      const auto gpu = enter_gpu(w);  // the GPU region
      auto& slot = d.keys[job.circuit->id];
      if (slot.circuit != job.circuit || !slot.plan) {  // first use on this GPU, reloaded, or dropped
        groth16::StageTimer t(&r.stages, "upload_key");
        slot.drop();  // the old copy's memory is needed for the new one
        // Without a forced plan the key steps down by itself until lean fits (or throws).
        slot.key = std::make_unique<groth16::gpu::ResidentKey<C>>(pk, w.stream->get(), slot.forced);
        slot.circuit = job.circuit;
        slot.plan = std::get<std::unique_ptr<groth16::gpu::ResidentKey<C>>>(slot.key)->plan();
      }
      const auto& key = *std::get<std::unique_ptr<groth16::gpu::ResidentKey<C>>>(slot.key);
      r.plan = groth16::gpu::to_string(key.plan());
      cuda::DeviceBuffer<Fr>* ready = nullptr;  // the pre-staged witness, on its first attempt only
      if (staged && staged->generation == w.generation && !staged->device.empty()) {
        staged->uploaded.make_wait(w.stream->get());
        ready = staged->take();
      }
      // What this daemon holds on the device apart from pre-staged witnesses (other workers stage theirs
      // meanwhile) and apart from this proof's own pre-staged witness, which the proof frees.
      auto held = [&] {
        std::lock_guard lock(d.staging);
        return cuda::vram_usage(d.ordinal).in_use - d.staged_bytes;
      };
      const std::size_t held_before = held() - (ready ? ready->bytes() : 0);
      proof = groth16::gpu::prove(pk, key, witness, rr, ss, w.stream->get(), &r.stages, ready);
      // Every buffer of the proof is gone now: anything more is a leak an operator must hear about.
      if (const std::size_t after = held(); after > held_before) {
        log("cuzk: worker=" + w.name + " job=" + job.id +
            " VRAM leak: " + std::to_string(after - held_before) + " bytes still held after the proof");
        std::lock_guard lock(mutex_);
        ++faults_.vram_leaks;
      }
#endif
    }
    if (corrupt_.fire()) proof.a = -proof.a;  // fault injection: the self-check must catch this
    r.prove_ms = ms_between(t0, Clock::now());
    if (config_.self_check) {
      const auto tv = Clock::now();
      const auto v = groth16::verify(pk.verifying_key(), pub, proof);
      r.verify_ms = ms_between(tv, Clock::now());
      if (!v.valid) throw SelfCheckFailed(v.reason);
    }
    r.proof_json = io::proof_to_json<C>(proof);
    r.public_json = io::public_to_json<C>(pub);
  });
}

bool Engine::recover(Worker& w, const std::string& circuit_id, const std::exception& error, bool repeated) {
#ifdef CUZK_HAVE_CUDA
  if (!w.device) return false;
  auto& d = *w.device;
  if (d.lost) return true;  // lost while this worker waited for it: the next attempt runs on the CPU
  const auto* e = dynamic_cast<const cuda::CudaError*>(&error);
  if (!e) return false;
  std::lock_guard gpu(d.gpu);
  // Another worker declared the device lost while this one waited for it: the next attempt runs on the CPU.
  if (d.lost) return true;
  if (e->kind() == cuda::CudaError::Kind::out_of_memory) {
    {
      std::lock_guard lock(mutex_);
      ++faults_.out_of_memory;
    }
    // Whatever the failed attempt allocated is already freed (its buffers went with the exception). Make
    // room: first other circuits' device keys; then, if the same partition runs out again (not a passing
    // squeeze), a smaller plan for this circuit on this device (until the key is evicted or the context
    // reset); lean and alone on the device, try again as is (memory other processes hold may come back).
    bool freed = false;
    for (auto& [id, slot] : d.keys)
      if (id != circuit_id && slot.plan) {
        slot.drop();
        freed = true;
      }
    if (freed || !repeated) return true;
    auto& slot = d.keys[circuit_id];
    // The key upload itself failed (with its plan forced: a smaller one next; chosen freely: even lean did
    // not fit), or the proof did (a smaller plan leaves it more room).
    const auto tried = slot.plan ? slot.plan : slot.forced;
    if (const auto next = tried ? groth16::gpu::smaller(*tried) : std::nullopt) {
      slot.forced = next;
      slot.drop();
    }
    return true;
  }
  if (e->kind() == cuda::CudaError::Kind::sticky) {
    {
      std::lock_guard lock(mutex_);
      ++faults_.context_lost;
    }
    // The context is poisoned for every worker on this device. The first to get here resets it; the others
    // find the generation moved and only renew their streams.
    if (w.generation == d.generation && !d.lost) {
      for (auto& [id, slot] : d.keys) slot.drop();  // device memory that dies with the context
      ++d.generation;
      try {
        const double waited = cuda::reset_device(d.ordinal);
        ++d.resets;
        log("cuzk: device " + std::to_string(d.ordinal) + ": CUDA context reset after a sticky error (" +
            e->what() + "); new context after " + std::to_string(static_cast<long>(waited)) + " ms");
      } catch (const std::exception& re) {
        d.lost_reason = re.what();
        d.lost = true;
        log("cuzk: device " + std::to_string(d.ordinal) + " LOST: its CUDA context could not be recreated (" +
            re.what() + "); its workers prove on the CPU until the daemon is restarted");
      }
    }
    return true;
  }
#else
  (void)w;
  (void)circuit_id;
  (void)error;
  (void)repeated;
#endif
  return false;
}

PartitionResult Engine::run_partition(Worker& w, Job& job, std::uint32_t partition) {
  PartitionResult r;
  {
    std::lock_guard lock(mutex_);
    r = job.parts[partition];
  }
  r.stages.cancel = &job.cancel;
  const auto t0 = Clock::now();
  try {
    if (job.circuit->bellperson()) {
      prove_bellperson(w, job, partition, r);
    } else {
      io::with_curve(job.circuit->curve, [&]<class C>() { prove_snarkjs<C>(w, job, partition, r); });
    }
    r.state = job.cancel ? PartitionState::kCancelled : PartitionState::kDone;
  } catch (const groth16::Cancelled&) {
    r.state = PartitionState::kCancelled;
  } catch (const std::exception& e) {
    r.state = PartitionState::kFailed;
    r.error = e.what();
  }
  {
    std::lock_guard lock(mutex_);
    if (!r.plan.empty()) ++partitions_by_plan_[r.plan];
  }
  // The timing line, in the original daemon's vocabulary where a stage matches.
  const std::string prestage = r.prestage.empty() ? "none" : r.prestage;
  std::ostringstream line;
  line.setf(std::ios::fixed);
  line.precision(1);
  line << "cuzk: job=" << job.id << " partition=" << partition << "/" << job.parts.size()
       << " circuit=" << job.circuit_id << " worker=" << w.name << " state=" << to_string(r.state)
       << " plan=" << (r.plan.empty() ? "none" : r.plan) << " attempts=" << r.attempts
       << " prestage_setup=" << prestage << " queue_ms=" << r.queue_ms
       << " load_witness_ms=" << stage_sum(r.stages, {"load_witness"})
       << " abc_ms=" << stage_sum(r.stages, {"abc"})
       << " ntt_msm_h_ms=" << stage_sum(r.stages, {"h", "msm_h"})
       << " batch_add_ms=" << r.stages.detail("batch_add") << " tail_msm_ms=" << r.stages.detail("tail_msm")
       << " split_msm_ms="
       << stage_sum(r.stages, {"classify", "msm_a", "msm_b1", "msm_b2", "msm_c", "msm_streamed"})
       << " gpu_total_ms=" << (w.device ? r.prove_ms : 0.0) << " verify_ms=" << r.verify_ms
       << " total_ms=" << ms_between(t0, Clock::now());
  if (!r.error.empty()) line << " error=\"" << r.error << "\"";
  log(line.str());
  return r;
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

EngineStatus Engine::status(bool with_jobs) const {
  EngineStatus s;
  s.circuits = repository_.list();
  s.repository_bytes = repository_.loaded_bytes();
  s.repository_budget = repository_.budget_bytes();
  s.pinned_bytes = repository_.pinned_bytes();
  s.pinned_budget = repository_.pinned_budget_bytes();
  s.queue_depth = scheduler_.depth_by_priority();
  s.backend = backend_;
#ifdef CUZK_HAVE_CUDA
  for (const auto& d : devices_) {
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
    for (auto& c : s.circuits)
      if (std::find(ds.resident_circuits.begin(), ds.resident_circuits.end(), c.id) !=
          ds.resident_circuits.end())
        c.tier = Tier::kGpu;
    s.devices.push_back(std::move(ds));
  }
#endif
  std::lock_guard lock(mutex_);
  if (with_jobs)
    for (const auto& [seq, job] : jobs_) s.jobs.push_back(snapshot(*job, false));
  for (const auto& w : workers_)
    s.workers.push_back({w->name, w->busy, w->job_id, w->partition, w->busy_seconds, w->done});
  s.completed = completed_;
  s.failed = failed_;
  s.cancelled = cancelled_;
  s.faults = faults_;
#ifdef CUZK_HAVE_CUDA
  if (pinned_pool_) {
    const auto ps = pinned_pool_->stats();
    s.pinned_pool_bytes = ps.held;
    s.pinned_pool_budget = ps.budget;
  }
#endif
  s.partitions_by_plan = partitions_by_plan_;
  s.uptime_seconds = ms_between(started_, Clock::now()) / 1000;
  return s;
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
