// The proving engine behind cuzk-daemon: jobs of one or more partitions (independent proofs over one
// circuit's key) are queued by priority (scheduler.hpp), proved by device workers — CPU workers, or
// `gpu_workers_per_device` workers per GPU sharing one mutex held only around the GPU region — checked
// against the verifying key, and kept until a client collects them. Frontends (gRPC, HTTP) only
// translate to these calls.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "cuda/fault_plan.hpp"
#include "engine/host_budget.hpp"
#include "engine/predecessor_exit.hpp"
#include "engine/priority.hpp"
#include "engine/repository.hpp"
#include "engine/scheduler.hpp"
#include "groth16/bellperson.hpp"
#include "groth16/timings.hpp"
#include "io/bellperson_assignment.hpp"

#ifdef CUZK_HAVE_CUDA
namespace cuzk::cuda {
class PinnedPool;
}
#endif

namespace cuzk::groth16::gpu {
struct Footprint;
}

namespace cuzk::filecoin {
class VanillaJob;
struct VanillaRequest;
}  // namespace cuzk::filecoin

namespace cuzk::engine {

class WorkerProcess;

// A request the engine refuses (unknown circuit, malformed witness, wrong partition count, unknown job,
// shutting down): a clear message for that client; nothing else is affected.
struct RequestError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

enum class JobStatus { kQueued, kRunning, kCompleted, kFailed, kCancelled };
enum class PartitionState { kPending, kRunning, kDone, kFailed, kCancelled };
const char* to_string(JobStatus s);
const char* to_string(PartitionState s);
inline bool finished(JobStatus s) {
  return s != JobStatus::kQueued && s != JobStatus::kRunning;
}

struct SubmitRequest {
  std::string request_id;  // the client's label; may repeat across requests
  std::string circuit_id;
  std::optional<Priority> priority;                  // default: the circuit's (circuit.toml), else NORMAL
  std::vector<std::vector<std::uint8_t>> witnesses;  // one snarkjs .wtns per partition, or:
  std::vector<std::string> witness_paths = {};       // .wtns files this process reads (memory-mapped)
  // One partition of the circuit, whichever it is (one witness, whatever circuit.toml says): how a worker
  // process (engine.isolation = "process") takes its parent's partitions.
  bool single_partition = false;
  // A Filecoin job instead of witnesses, as vanilla proofs (filecoin/vanilla_job.hpp): PoRep C2 from Curio's
  // C1 envelope, a WindowPoSt partition or a WinningPoSt from sector proofs. Read and checked at submit; its
  // partitions are synthesized from it as they run. circuit_id may be left empty: the request names its
  // circuit (porep-32g, wpost-32g, winning-32g, …).
  std::shared_ptr<const filecoin::VanillaRequest> vanilla = {};
  // Or the vanilla proofs already read (a worker process reads its parent's spooled request once for all of
  // that job's partitions it is sent).
  std::shared_ptr<const filecoin::VanillaJob> vanilla_job = {};
  // With either: only this partition of theirs, as a job of one partition (a worker process's share of its
  // parent's job).
  std::optional<std::uint32_t> vanilla_partition = {};
};

struct PartitionResult {
  PartitionState state = PartitionState::kPending;
  std::string proof_json, public_json;  // snarkjs JSON, when done (bellperson: public_json only)
  std::string proof_bytes;              // bellperson circuits: the 192-byte proof
  std::string error;
  double synthesis_ms = 0;  // a Filecoin vanilla-proof partition: its circuit synthesized (witness, a, b, c)
  std::string worker;       // "cpu:0", "cuda:0/1", …
  std::string plan;         // "cpu", or the GPU plan of the last attempt: "resident", "streamed", "lean"
  std::string prestage;  // GPU: "ok" (witness uploaded ahead of the GPU region), "fallback" (uploaded in it)
  unsigned attempts = 0;
  groth16::StageTimings stages;
  double queue_ms = 0, prove_ms = 0, verify_ms = 0;
  double start_ms = 0, end_ms = 0;  // on the worker, in ms since the engine started (for timelines)
};

struct JobResult {
  std::string job_id, request_id, circuit_id;
  // What is proved: "porep", "window_post", "winning_post" (Filecoin vanilla proofs), or "circuit"
  // (witnesses for a repository circuit). A label of the timing line, /status and /metrics.
  std::string kind;
  Priority priority = Priority::kNormal;
  JobStatus status = JobStatus::kQueued;
  bool timed_out = false;  // await() gave up before the job finished
  std::string error;
  std::vector<PartitionResult> partitions;
  double queue_wait_ms = 0, total_ms = 0;
};

struct WorkerStatus {
  std::string name;  // "cpu:0", "cuda:0/1" (device 0, worker 1)
  bool busy = false;
  std::string job_id;
  std::uint32_t partition = 0;
  double busy_seconds = 0;
  std::uint64_t partitions_done = 0;
};

struct DeviceStatus {
  int ordinal = 0;
  std::string name;
  std::size_t vram_total = 0, vram_free = 0;  // the whole GPU, all processes
  std::size_t vram_used = 0, vram_peak = 0;   // this daemon's allocations (cuda/vram.hpp)
  std::size_t vram_cached = 0;  // freed temporaries its memory pool keeps for the next proof (free to it)
  std::size_t vram_limit = 0;   // this daemon's limit on it (limit and margin applied)
  std::uint64_t context_resets = 0;  // times its CUDA context was recreated after a sticky fault
  bool lost = false;  // its context could not be recreated: its workers prove on the CPU instead
  std::string lost_reason;
  std::vector<std::string> resident_circuits;  // keys prepared on this GPU
  long worker_pid = 0;  // isolation = process: the worker process serving this GPU now (0: the engine's own)
};

// Faults met and recovered from (or not), since the engine started.
struct FaultCounts {
  std::uint64_t out_of_memory = 0;  // CUDA out-of-memory (real, refused by the VRAM limit, or injected)
  std::uint64_t context_lost = 0;   // sticky CUDA errors (the device's context was reset)
  std::uint64_t self_check = 0;     // proofs that failed their self-check (injected corruption included)
  std::uint64_t retries = 0;        // partition attempts after the first
  std::uint64_t vram_leaks = 0;     // partitions after which this daemon held more device memory than before
  std::uint64_t worker_restarts = 0;  // worker processes started again after one died (isolation = process)

  // Adds another engine's counts (a worker process's, into its parent's).
  FaultCounts& operator+=(const FaultCounts& o) {
    out_of_memory += o.out_of_memory;
    context_lost += o.context_lost;
    self_check += o.self_check;
    retries += o.retries;
    vram_leaks += o.vram_leaks;
    worker_restarts += o.worker_restarts;
    return *this;
  }
};

struct EngineStatus {
  std::vector<DeviceStatus> devices;
  std::vector<JobResult> jobs;  // queued, running and recently finished (proofs omitted)
  std::vector<WorkerStatus> workers;
  std::vector<CircuitInfo> circuits;
  std::array<std::size_t, 5> queue_depth{};  // queued partitions per priority (wire values 1..4)
  std::uint64_t completed = 0, failed = 0, cancelled = 0;
  std::size_t repository_bytes = 0, repository_budget = 0;
  // Page-locked key memory (the repository's pins and streamed GPU plans'); budget 0: no separate limit.
  std::size_t pinned_bytes = 0, pinned_budget = 0;
  std::size_t pinned_pool_bytes = 0, pinned_pool_budget = 0;  // page-locked witness staging (CUDA)
  // Buffers the pool lent (a bellperson partition's a, b, c are decoded into one; a witness is copied into
  // one to be pre-staged), and requests it refused (over its budget, or not page-lockable).
  std::uint64_t pinned_pool_leases = 0, pinned_pool_refused = 0;
  // Leases refused while a buffer for them was page-locked in the background (pinned_pool_in_background).
  std::uint64_t pinned_pool_deferred = 0;
  std::size_t pinned_staging_bytes = 0;  // StagedUpload's page-locked copy buffers (CUDA), kept for reuse
  std::size_t key_store_bytes = 0;       // isolation = process: the worker processes' shared key images
  // isolation = process: device memory of key arrays the daemon holds for its worker processes, and the
  // arrays it handed back to replacement processes, which mapped them instead of uploading
  // (io/kept_memory.hpp).
  std::size_t kept_device_bytes = 0;
  std::uint64_t kept_arrays_handed_back = 0;
  double uptime_seconds = 0;
  std::string backend;  // "cpu" or "cuda"
  FaultCounts faults;
  std::map<std::string, std::uint64_t> partitions_by_plan;  // finished partitions by plan ("cpu", "lean", …)
  // and by how their witness reached the GPU: "ok" (pre-staged while another proof ran), "fallback"
  // (uploaded in the GPU region: no pinned buffer or no room beside the proof in progress, or taken back),
  // "off" (pre-staging disabled), "none" (a CPU partition)
  std::map<std::string, std::uint64_t> partitions_by_prestage;
};

// The witness pool's budget when engine.pinned_pool is "auto": a third of the host's physical memory, at most
// 64 GiB. Page-locked memory cannot be swapped, so it stays a fraction; the pool takes it only as leases
// need it. 128 GiB hosts get ~42.7 GiB, enough for two workers at 32 GiB PoRep (measured: 36 GiB).
std::size_t auto_pinned_pool(std::size_t physical_bytes);

// engine.isolation = "auto" on `backend` (cpu or cuda): "process" for GPUs when the worker executable can run
// (a sticky fault then costs a worker restart, not the GPU), "thread" otherwise.
std::string resolve_auto_isolation(const std::string& backend, bool worker_exe_runnable);
// The host's physical memory in bytes (sysconf); 0 if unknown.
std::size_t physical_memory_bytes();

struct EngineConfig {
  std::filesystem::path repository;
  // Where Filecoin's built-in circuits (porep-32g, …) find their parameter files; empty: the environment's
  // FIL_PROOFS_PARAMETER_CACHE, else /var/tmp/filecoin-proof-parameters (filecoin/circuit_catalog.hpp).
  std::filesystem::path parameter_cache;
  std::string backend = "auto";  // cpu | cuda | auto
  unsigned cpu_workers = 1;      // with the CPU backend; each proof uses every core anyway
  unsigned gpu_workers_per_device = 2;
  std::vector<int> devices;       // empty: every GPU
  std::size_t memory_budget = 0;  // host bytes for loaded keys; 0: no limit
  // CUDA backend: page-lock every loaded key (the "pinned" tier). Off, a key is page-locked only while a GPU
  // plan streams it from host memory (the plan locks what it streams); a resident key goes up once through
  // StagedUpload at page-locked speed, so locking 45 GB (2.5 s on an H200 host, 8 s on an H100 host) buys it
  // nothing, and a process-isolated worker that replaces a dead one would pay it again before proving.
  bool pin_keys = false;
  std::size_t pinned_budget = 0;  // page-locked bytes at most; 0: only memory_budget limits it
  // A 32 GiB PoRep partition's witness is 4.2 GB (snarkjs .wtns) or 16.7 GB (a bellperson assignment: a, b,
  // c, inputs, aux and densities).
  std::size_t max_witness_bytes = std::size_t(20) << 30;
  std::size_t finished_jobs_kept = 10000;  // oldest finished jobs are forgotten beyond this
  bool self_check = true;                  // verify every proof before returning it
  // Tries per partition: after CUDA out-of-memory (with a smaller plan), a lost CUDA context (after resetting
  // it) or a failed self-check (which a faulty GPU can cause). Then the partition fails with the last error.
  unsigned max_attempts = 3;
  std::size_t vram_limit = 0;  // CUDA: device memory this daemon may hold per GPU; 0: all
  std::size_t vram_margin = std::size_t(512) << 20;  // CUDA: device memory always left free on each GPU
  // CUDA: upload each partition's witness while another worker holds the GPU, from page-locked buffers of a
  // pool of at most `pinned_pool` bytes (witness-side memory; keys are pinned under repository budgets).
  // kAutoPinnedPool (the default, "auto" in the TOML): auto_pinned_pool of the host's memory, which at 32 GiB
  // PoRep must hold both workers' a, b, c and aux (~32 GiB); 8 GiB, the old default, held none of them.
  bool prestage = true;
  // A lease the pool has no idle buffer for is refused at once (that partition goes up from pageable memory)
  // while the pool page-locks one on its own thread (cuda/pinned_pool.hpp): a new or restarted worker's
  // first partitions do not wait seconds for page-locking. False: the partition waits for it (tests that
  // count leases).
  bool pinned_pool_in_background = true;
  static constexpr std::size_t kAutoPinnedPool = ~std::size_t{0};
  std::size_t pinned_pool = kAutoPinnedPool;
  // Host bytes for loaded keys and the bellperson witnesses in flight together (engine/host_budget.hpp): a
  // worker waits before synthesizing (or reading) a partition while they would exceed it. kAuto (the
  // default, "auto"): physical memory less a tenth (at least 8 GiB); 0: no limit.
  static constexpr std::size_t kAutoHostMemoryBudget = ~std::size_t{0};
  std::size_t host_memory_budget = kAutoHostMemoryBudget;
  // "thread": workers prove in this process. "process": each GPU (or the CPU pool) is served by a worker
  // process (`worker_exe`, default cuzk-worker next to this executable) running its own engine on the same
  // repository; a worker process that crashes, or exits after a sticky CUDA fault (the only way this driver
  // gives the GPU back), is started again and its partitions are proved again. This process then does no
  // CUDA work itself; it schedules, spools inline witnesses to files (`spool_dir`, default /dev/shm) and
  // checks every proof against the verifying key. "auto" (the daemon's default): "process" on the CUDA
  // backend when the worker executable is there, else "thread".
  std::string isolation = "thread";
  // isolation = process: a partition the worker process has not answered within this many seconds (a hung
  // kernel, a deadlock) gets the worker killed and started again, and the partition proved again; 0: wait
  // forever. Set it well above the slowest partition's time.
  unsigned partition_timeout_s = 0;
  std::filesystem::path worker_exe;
  std::filesystem::path spool_dir;
  // isolation = process: where the worker processes share their proving keys (engine/key_store.hpp), so
  // that a key is in host memory once and a restarted worker maps it instead of reading the key file:
  // "auto" (a directory in spool_dir, i.e. /dev/shm), "off" (each worker process reads its own copy), or
  // the directory (on a memory file system) under which the daemon makes its store.
  std::string key_store = "auto";
  // In a worker process: the store its parent made (empty: none), and how many worker processes map its
  // keys: the host memory budget counts a shared key at that share in each of them.
  std::filesystem::path key_store_dir;
  unsigned key_store_sharers = 1;
  // In a worker process: a sticky CUDA fault ends the process (its parent starts a new one) instead of
  // resetting the context in place.
  bool exit_on_sticky = false;
  // In a worker process: called just before that exit (the worker shuts its socket down, so the parent sees
  // the end at once rather than once the kernel has released this process's device and page-locked memory).
  std::function<void()> before_sticky_exit;
  // In a worker process started in place of one still exiting: a pidfd of that process (-1: none). The
  // engine owns it; its first GPU work waits for that exit (engine/predecessor_exit.hpp), at most
  // predecessor_wait.
  int predecessor_pidfd = -1;
  std::chrono::milliseconds predecessor_wait{120000};
  // Fault injection for tests (docs/config.md [faults]); CUZK_FAULT_* environment variables override.
  cuda::FaultSpec fault_alloc, fault_sticky, fault_corrupt;
  // Tests only (CPU backend): this many simulated GPUs, each with gpu_workers_per_device workers that hold
  // the device's region (its mutex) around a CPU proof, so that scheduling over several devices, per-device
  // status and the loss of one device are tested without GPUs. `lose_device`: the simulated device `ordinal`
  // is lost as its `after`-th partition enters its region (-1: none). With isolation = process each
  // simulated GPU is a CPU worker process, and the lost one's process cannot start (as a GPU no process can
  // open any more), until a CPU worker replaces it.
  unsigned simulated_devices = 0;
  struct LoseDevice {
    int ordinal = -1;
    unsigned after = 1;
  } lose_device;
  // One line per partition (the timing line) and other events; default: stderr.
  std::function<void(const std::string&)> log;
  // The timing line itself. A worker process leaves it to its parent, which logs it under the daemon's job
  // id with the same stages (the worker's own job ids mean nothing to an operator).
  bool log_partitions = true;
  // Called (outside the engine's lock) when a job finishes, for metrics.
  std::function<void(const JobResult&)> on_job_finished;
};

class Engine {
 public:
  explicit Engine(EngineConfig config);
  ~Engine();  // cancels what is left, joins the workers
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  struct Submitted {
    std::string job_id;          // unique in this daemon: "<sequence>-<request_id>"
    std::size_t queue_position;  // partitions that will start before this job's first
  };
  Submitted submit(SubmitRequest request);  // throws RequestError

  // Waits until the job finishes or `timeout` passes (then timed_out = true and the current state).
  JobResult await(const std::string& job_id, std::optional<std::chrono::milliseconds> timeout = {});

  // Cancels queued partitions at once and running ones at their next stage boundary; returns whether
  // a partition was running. Throws RequestError for an unknown job.
  bool cancel(const std::string& job_id);

  Repository::PreloadResult preload(const std::string& circuit_id);  // throws RequestError
  Repository::EvictResult evict(const std::string& circuit_id);

  // with_jobs = false leaves out the job list (thousands of retained jobs): what /metrics needs.
  EngineStatus status(bool with_jobs = true) const;
  const std::string& backend() const { return backend_; }

  // Stops accepting jobs, cancels every queued partition and asks running ones to stop at their next
  // stage boundary; does not wait (a draining shutdown in progress then ends quickly).
  void cancel_pending();

  // Stops accepting jobs. drain = true: queued and running work completes; false: queued work is
  // cancelled and running work stops at its next stage boundary. Idempotent; blocks until workers exit.
  void shutdown(bool drain);

 private:
  struct Job;
  struct Worker;
  struct Device;
  void work(Worker& worker);
  PartitionResult run_partition(Worker& worker, Job& job, std::uint32_t partition);
  template <class C>
  void prove_snarkjs(Worker& worker, Job& job, std::uint32_t partition, PartitionResult& r);
  // After a CUDA error in a worker's GPU region: frees what can be freed (other circuits' device keys; a
  // smaller plan when the out-of-memory is `repeated` in this partition) or resets a poisoned context.
  // False when retrying cannot help (not a CUDA error, or one of kind other).
  bool recover(Worker& worker, const std::string& circuit_id, const std::exception& error, bool repeated);
  void prove_bellperson(Worker& worker, Job& job, std::uint32_t partition, PartitionResult& r);
  // A vanilla-proof job's partition synthesized (into `lend`'s memory where it lends some) and checked: every
  // row, the public inputs against the challenges', the sizes against the key. Throws what it finds.
  void synthesize_vanilla(Job& job, std::uint32_t partition, PartitionResult& r,
                          groth16::bellperson::Assignment& out,
                          const io::bellperson_assignment::Lend& lend = {});
  // isolation = process: the worker's process proves it; this one checks the proof.
  void prove_in_worker_process(Worker& worker, Job& job, std::uint32_t partition, PartitionResult& r);
  void start_worker_processes(int gpus);
  // A lost device's worker hands its partitions back to the queue while another device can prove them
  // (a CPU proof there would hold one proof back for minutes); with every device lost, it proves on the CPU.
  bool device_lost(const Worker& worker) const;  // its GPU (or, in process mode, its GPU's process) is lost
  bool another_device_proves(const Worker& worker) const;
  void hand_back_if_another_device_proves(const Worker& worker) const;  // throws HandBack
  // A simulated device's region (EngineConfig::simulated_devices): its mutex, and the injected loss.
  std::unique_lock<std::mutex> enter_simulated_gpu(Worker& worker, double* waited_ms);
  // Before this engine's first GPU work: the exit of the worker process it replaces (EngineConfig::
  // predecessor_pidfd), said once in the log.
  void await_predecessor();
  // The GPUs to use (engine.devices, or all `gpus`); throws for one that does not exist.
  std::vector<int> gpu_ordinals(int gpus) const;
  // What isolation = "auto" means here: "process" on the CUDA backend when the worker executable is there.
  std::string auto_isolation();
  bool worker_exe_runnable();  // engine.worker_exe (its default filled in) exists and may be executed
  Worker& add_worker(std::string name);
  // `bytes` to a new file in spool_dir named for this process, a counter and `suffix`; a failed write
  // leaves no file behind and throws.
  std::filesystem::path write_spool_file(std::span<const std::byte> bytes, std::string_view suffix);
  std::vector<std::string> spool(SubmitRequest& req);
  // A vanilla-proof request written to a spool file for the worker processes (worker_protocol's
  // encode_vanilla); returns the file.
  std::string spool_vanilla(const filecoin::VanillaRequest& v);
  // Runs `attempt` (one try at the partition's proof) until it succeeds; after a failed self-check or a
  // CUDA error that recover() handles, it tries again, max_attempts in all, then rethrows.
  void with_attempts(Worker& worker, Job& job, std::uint32_t partition, PartitionResult& r,
                     const std::function<void()>& attempt);
#ifdef CUZK_HAVE_CUDA
  // Takes the worker's GPU region (the device mutex): throws if the device was lost meanwhile, and renews the
  // worker's stream if the context was reset since it was made. *waited_ms: how long the mutex took (the
  // device's other workers in their regions), which the timing line reports apart from the GPU time.
  std::unique_lock<std::mutex> enter_gpu(Worker& worker, double* waited_ms);
  // In the GPU region, once per circuit and device: the plan the circuit's key takes there and what it needs,
  // or, when none fits, the limit and the smallest device memory it needs (the operator's line, at the first
  // partition or preload). `footprint` is called only then.
  void report_plan(Device& device, const Circuit& circuit,
                   const std::function<groth16::gpu::Footprint()>& footprint);
  // The same for every GPU of this process, at a preload (a verifying-only key has no plan to report).
  void report_plans(const Circuit& circuit);
  // In the GPU region, runs `prove` (a GPU prover) in the device's books: the staging area learns the
  // proof's estimated need (`proof_bytes`) and what it really took, and device memory still held after it
  // is logged and counted as a leak. `ready_bytes`: its pre-staged input, which the proof frees.
  void prove_on_device(Worker& worker, Job& job, std::size_t proof_bytes, std::size_t ready_bytes,
                       const std::function<void()>& prove);
#endif
  std::string sized_witness(const SubmitRequest& req, std::size_t i, const char* what) const;
  // A vanilla-proof job's input, read and checked (throws RequestError); sets req.circuit_id when it is
  // empty.
  std::shared_ptr<const filecoin::VanillaJob> read_vanilla_job(SubmitRequest& req) const;
  std::vector<groth16::bellperson::Assignment> check_assignments(const io::bellperson::Params& params,
                                                                 SubmitRequest& req) const;
  void finish_partition(Job& job, std::uint32_t partition, PartitionResult result);
  // With mutex_ held: cancel the job's queued partitions; end the job once no partition is left.
  void stop_pending(Job& job);
  std::optional<JobResult> end_if_done(Job& job);
  void publish(const std::vector<JobResult>& ended);  // without the lock: metrics hook, then waiters
  JobResult snapshot(const Job& job, bool with_proofs) const;
  void log(const std::string& line) const;
  // Once per circuit: its partitions' input cannot fit the pinned pool at all (a setting to raise).
  void warn_pinned_pool_too_small(const std::string& circuit_id, std::size_t bytes);
  // Before a bellperson partition's witness is made: its bytes reserved in the host budget (waiting while
  // there is no room; throws groth16::Cancelled if the job is cancelled meanwhile), and once per circuit a
  // line saying how many witnesses fit beside the keys.
  HostMemoryBudget::Reservation reserve_witness(Job& job, std::size_t bytes, PartitionResult& r);
  std::shared_ptr<Job> find(const std::string& job_id) const;  // with mutex_ held
  void forget_old_jobs();                                      // with mutex_ held

  EngineConfig config_;
  std::string backend_;
  Repository repository_;
  HostMemoryBudget host_budget_;  // keys (the repository's) and bellperson witnesses in flight
  Scheduler scheduler_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::map<std::uint64_t, std::shared_ptr<Job>> jobs_;
  std::uint64_t next_seq_ = 1;
  bool accepting_ = true;
  std::uint64_t completed_ = 0, failed_ = 0, cancelled_ = 0;
  FaultCounts faults_;                                           // guarded by mutex_
  std::map<std::string, std::uint64_t> partitions_by_plan_;      // guarded by mutex_
  std::map<std::string, std::uint64_t> partitions_by_prestage_;  // guarded by mutex_
  std::set<std::string> pool_warned_;                            // guarded by mutex_
  std::set<std::string> witness_budget_told_;                    // guarded by mutex_
  cuda::FaultPlan corrupt_;                                      // injected proof corruption
#ifdef CUZK_HAVE_CUDA
  std::unique_ptr<cuda::PinnedPool> pinned_pool_;  // witness staging; null when pre-staging is off
#endif
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  PredecessorExit predecessor_;  // isolation = process, in a replacement worker: the one it replaces
  std::vector<std::unique_ptr<WorkerProcess>>
      processes_;  // isolation = process: one per GPU, or the CPU pool
  // isolation = process: the store of proving keys this engine's worker processes share (null: off).
  std::shared_ptr<KeyStore> worker_key_store_;
  std::vector<int> process_devices_;       // the GPU each worker process serves; -1: the CPU pool
  std::atomic<std::uint64_t> spooled_{0};  // inline witnesses written to spool files
  std::vector<std::unique_ptr<Device>> devices_;
  std::vector<std::unique_ptr<Worker>> workers_;
  std::vector<std::thread> threads_;
  std::mutex shutdown_mutex_;
  bool stopped_ = false;
};

}  // namespace cuzk::engine
