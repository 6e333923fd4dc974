// engine.isolation = "process": the engine's side of its worker processes (worker_process.hpp). Each GPU,
// or the CPU pool, is served by one `cuzk-worker` running its own engine on the same repository; this
// engine's workers hand it their partitions (as many at once as it has workers, so its pre-staging still
// overlaps), check what comes back against the verifying key, and retry a partition whose worker process
// died under it.
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>

#include "engine/engine.hpp"
#include "engine/engine_state.hpp"
#include "engine/worker_process.hpp"
#include "engine/worker_protocol.hpp"
#include "filecoin/vanilla_job.hpp"
#include "groth16/bellperson.hpp"
#include "groth16/timings.hpp"
#include "groth16/verifier.hpp"
#include "io/json.hpp"

namespace cuzk::engine {

namespace {

std::filesystem::path default_worker_exe() {
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::filesystem::path("cuzk-worker") : self.parent_path() / "cuzk-worker";
}

// Spool files of daemons that are gone (killed before their jobs ended) would fill /dev/shm over months
// of restarts: removed at start. Names are cuzk-<pid>-<n>.witness; a live pid's files are left alone.
void remove_stale_spool_files(const std::filesystem::path& dir) {
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("cuzk-", 0) != 0 || !(name.ends_with(".witness") || name.ends_with(".vanilla"))) continue;
    const auto dash = name.find('-', 5);
    if (dash == std::string::npos) continue;
    pid_t pid = 0;
    try {
      pid = static_cast<pid_t>(std::stol(name.substr(5, dash - 5)));
    } catch (const std::exception&) {
      continue;
    }
    if (pid > 0 && pid != ::getpid() && ::kill(pid, 0) != 0 && errno == ESRCH)
      std::filesystem::remove(entry.path(), ec);
  }
}

std::string fault_arg(const cuda::FaultSpec& f) {
  return std::to_string(f.every) + "," + std::to_string(f.rate) + "," + std::to_string(f.seed);
}

}  // namespace

std::string resolve_auto_isolation(const std::string& backend, bool worker_exe_runnable) {
  // A sticky CUDA fault in this process would lose its GPU until a restart; a worker process is replaced
  // instead, at no measured cost in throughput (bench/RESULTS.md, "PoRep C2: process isolation against thread
  // isolation": 16.613 against 16.732 s per 32 GiB proof). The CPU backend has no such fault to contain.
  return backend == "cuda" && worker_exe_runnable ? "process" : "thread";
}

bool Engine::worker_exe_runnable() {
  if (config_.worker_exe.empty()) config_.worker_exe = default_worker_exe();
  return ::access(config_.worker_exe.c_str(), X_OK) == 0;
}

std::string Engine::auto_isolation() {
  const std::string chosen = resolve_auto_isolation(backend_, worker_exe_runnable());
  if (backend_ != "cuda" || chosen == "process") return chosen;
  log("cuzk engine: isolation auto: no worker executable at " + config_.worker_exe.string() +
      ", so the GPU workers run in this process (isolation = thread; set engine.worker_exe)");
  return "thread";
}

void Engine::start_worker_processes(int gpus) {
  if (!worker_exe_runnable())
    throw std::invalid_argument("isolation = process: the worker executable " + config_.worker_exe.string() +
                                " is missing or not executable (set engine.worker_exe)");
  if (config_.spool_dir.empty())
    config_.spool_dir =
        std::filesystem::is_directory("/dev/shm") ? "/dev/shm" : std::filesystem::temp_directory_path();
  remove_stale_spool_files(config_.spool_dir);
  const std::size_t sharers = std::max<std::size_t>(
      1, backend_ == "cuda" ? gpu_ordinals(gpus).size() : std::max(1u, config_.simulated_devices));
  // The proving keys the worker processes share (engine/key_store.hpp). A store that cannot be made costs
  // the sharing, not the daemon: each worker process then reads its own keys.
  if (config_.key_store != "off") {
    const std::filesystem::path parent =
        config_.key_store == "auto" ? config_.spool_dir : std::filesystem::path(config_.key_store);
    try {
      worker_key_store_ = std::make_shared<KeyStore>(KeyStore::create_for_this_process(parent),
                                                     [this](const std::string& line) { log(line); });
      log("cuzk engine: worker processes share their proving keys in " + worker_key_store_->dir().string() +
          " (" + std::to_string(worker_key_store_->free_bytes() >> 30) +
          " GiB free there; engine.key_store): a restarted worker maps them instead of reading the key "
          "files");
    } catch (const std::exception& e) {
      log(std::string("cuzk engine: no key store (") + e.what() +
          "): each worker process reads its own copy of every key, and a restarted one reads it again");
    }
  }
  // Everything the child's engine needs from ours; faults travel too (and CUZK_FAULT_* in the environment).
  std::vector<std::string> common = {
      config_.worker_exe.string(), "--repository", config_.repository.string(), "--parameter-cache",
      config_.parameter_cache.string(), "--memory-budget", std::to_string(config_.memory_budget),
      "--pinned-budget", std::to_string(config_.pinned_budget), "--max-witness-bytes",
      std::to_string(config_.max_witness_bytes), "--max-attempts", std::to_string(config_.max_attempts),
      "--vram-limit", std::to_string(config_.vram_limit), "--vram-margin",
      std::to_string(config_.vram_margin), "--pinned-pool",
      // One pool serves every GPU's workers in thread isolation; here each worker process has its own, so
      // each gets its share (the whole pool per process took N GPUs' worth of page-locked memory).
      std::to_string(config_.prestage ? config_.pinned_pool / sharers : 0),
      // Each worker process makes its partitions' witnesses: the host budget is split between them. The keys
      // they share (the key store) each counts at its share, so that together they count every key once.
      "--host-memory-budget", std::to_string(config_.host_memory_budget / sharers), "--key-sharers",
      std::to_string(worker_key_store_ ? sharers : 1), "--fault-alloc", fault_arg(config_.fault_alloc),
      "--fault-sticky", fault_arg(config_.fault_sticky), "--fault-corrupt", fault_arg(config_.fault_corrupt)};
  if (worker_key_store_) common.insert(common.end(), {"--key-store", worker_key_store_->dir().string()});
  if (config_.pin_keys) common.push_back("--pin-keys");
  if (!config_.self_check) common.push_back("--no-self-check");
  auto logger = [this](const std::string& line) { log(line); };
  if (backend_ == "cuda") {
    for (int d : gpu_ordinals(gpus)) {
      auto args = common, fallback = common;
      const unsigned n = std::max(1u, config_.gpu_workers_per_device);
      args.insert(args.end(),
                  {"--backend", "cuda", "--device", std::to_string(d), "--workers", std::to_string(n)});
      // After a crash loop (WorkerProcess::kCrashLoop): the GPU's partitions are proved on the CPU.
      fallback.insert(fallback.end(), {"--backend", "cpu", "--workers", "1", "--fallback"});
      processes_.push_back(
          std::make_unique<WorkerProcess>("cuda:" + std::to_string(d), args, logger, fallback));
      process_devices_.push_back(d);
      processes_.back()->start();
      for (unsigned w = 0; w < n; ++w)
        add_worker("cuda:" + std::to_string(d) + "/" + std::to_string(w)).process = processes_.back().get();
    }
  } else if (config_.simulated_devices > 0) {  // tests: a worker process per simulated GPU, on the CPU
    for (unsigned d = 0; d < config_.simulated_devices; ++d) {
      auto args = common, fallback = common;
      const unsigned n = std::max(1u, config_.gpu_workers_per_device);
      args.insert(args.end(), {"--backend", "cpu", "--workers", std::to_string(n)});
      if (config_.lose_device.ordinal == static_cast<int>(d)) args.push_back("--fault-start-fail");
      fallback.insert(fallback.end(), {"--backend", "cpu", "--workers", "1", "--fallback"});
      const std::string name = "sim:" + std::to_string(d);
      processes_.push_back(std::make_unique<WorkerProcess>(name, args, logger, fallback));
      process_devices_.push_back(static_cast<int>(d));
      processes_.back()->start();
      for (unsigned w = 0; w < n; ++w)
        add_worker(name + "/" + std::to_string(w)).process = processes_.back().get();
    }
  } else {
    auto args = common;
    const unsigned n = std::max(1u, config_.cpu_workers);
    args.insert(args.end(), {"--backend", "cpu", "--workers", std::to_string(n)});
    processes_.push_back(std::make_unique<WorkerProcess>("cpu", args, logger));
    process_devices_.push_back(-1);
    processes_.back()->start();
    for (unsigned w = 0; w < n; ++w) add_worker("cpu:" + std::to_string(w)).process = processes_.back().get();
  }
}

std::filesystem::path Engine::write_spool_file(std::span<const std::byte> bytes, std::string_view suffix) {
  auto path = config_.spool_dir / ("cuzk-" + std::to_string(::getpid()) + "-" +
                                   std::to_string(spooled_.fetch_add(1)) + std::string(suffix));
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!out.flush()) {
    out.close();
    std::error_code ec;
    std::filesystem::remove(path, ec);  // a partial file is no use to anyone
    throw std::runtime_error("cannot write the spool file " + path.string());
  }
  return path;
}

std::vector<std::string> Engine::spool(SubmitRequest& req) {
  std::vector<std::string> paths;
  try {
    for (const auto& bytes : req.witnesses)
      paths.push_back(write_spool_file(std::as_bytes(std::span(bytes)), ".witness"));
  } catch (...) {
    for (const auto& p : paths) {
      std::error_code ec;
      std::filesystem::remove(p, ec);
    }
    throw;
  }
  return paths;
}

std::string Engine::spool_vanilla(const filecoin::VanillaRequest& v) {
  const std::string bytes = worker_protocol::encode_vanilla(v);
  return write_spool_file(std::as_bytes(std::span(bytes)), ".vanilla").string();
}

void Engine::prove_in_worker_process(Worker& w, Job& job, std::uint32_t partition, PartitionResult& r) {
  // A vanilla-proof job (Filecoin's kinds) goes to the worker as its spooled request and the partition's
  // number: the worker synthesizes the partition (every row and its public inputs checked) into its own
  // pinned memory, as a thread worker does; the host memory budget counts the witness there.
  worker_protocol::Request request{0, worker_protocol::RequestKind::kProve, job.circuit->id,
                                   job.vanilla ? std::string() : job.witness_paths.at(partition), partition};
  if (job.vanilla) {
    request.vanilla_path = job.vanilla_file;
    request.partition = job.vanilla_first + partition;
  }
  unsigned child_attempts = 1;
  with_attempts(w, job, partition, r, [&] {
    // This GPU's worker process kept dying and a CPU worker replaced it: another GPU proves it sooner.
    if (device_lost(w)) hand_back_if_another_device_proves(w);
    PartitionResult got =
        w.process->call(request, std::chrono::seconds(config_.partition_timeout_s), &job.cancel);
    if (got.state == PartitionState::kCancelled) throw groth16::Cancelled();
    // The child already spent its attempts on this partition: its failure is final (not a CUDA error, so
    // with_attempts does not retry it).
    if (got.state != PartitionState::kDone)
      throw std::runtime_error(got.error.empty() ? "the worker process could not prove the partition"
                                                 : got.error);
    child_attempts = std::max(1u, got.attempts);
    r.plan = got.plan == "cpu" && w.process->on_fallback() ? "cpu-fallback" : got.plan;
    r.prestage = got.prestage;
    r.stages.stages_ms = got.stages.stages_ms;
    r.stages.details_ms = got.stages.details_ms;
    r.prove_ms = got.prove_ms;
    r.synthesis_ms = got.synthesis_ms;
    if (config_.self_check) {
      // Our own check of the child's proof, against the key this process loaded. The public inputs are the
      // child's reading of the witness file this process named, or, below, this process's own.
      const auto tv = Clock::now();
      groth16::VerifyResult v;
      if (job.circuit->bellperson()) {
        namespace bp = groth16::bellperson;
        const auto& params = std::get<io::bellperson::Params>(job.circuit->key);
        const auto proof = bp::decode_proof(
            std::span(reinterpret_cast<const std::uint8_t*>(got.proof_bytes.data()), got.proof_bytes.size()),
            "the worker process's proof", 0);
        v = bp::verify(params.vk,
                       job.vanilla ? job.vanilla->public_inputs(job.vanilla_first + partition)
                                   : io::public_from_json<Bls12_381>(got.public_json, "public"),
                       proof);
      } else {
        io::with_curve(job.circuit->curve, [&]<class C>() {
          const auto& pk = std::get<groth16::ProvingKey<C>>(job.circuit->key);
          v = groth16::verify(pk.verifying_key(), io::public_from_json<C>(got.public_json, "public"),
                              io::proof_from_json<C>(got.proof_json, "proof"));
        });
      }
      r.verify_ms = ms_between(tv, Clock::now());
      if (!v.valid) throw SelfCheckFailed(v.reason);
    }
    r.proof_json = std::move(got.proof_json);
    r.public_json = std::move(got.public_json);
    r.proof_bytes = std::move(got.proof_bytes);
  });
  r.attempts += child_attempts - 1;
}

}  // namespace cuzk::engine
