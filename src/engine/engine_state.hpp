// The engine's private state, shared by its two halves: engine.cpp (jobs, queue, workers, status) and
// partition.cpp (proving one partition: attempts, the GPU region, recovery, the timing line). Not installed.
#pragma once

#include <atomic>
#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "engine/engine.hpp"
#include "filecoin/vanilla_job.hpp"

#ifdef CUZK_HAVE_CUDA
#include "cuda/kept_array.hpp"
#include "cuda/stream.hpp"
#include "groth16/gpu_bellperson.hpp"
#include "groth16/gpu_prover.hpp"
#endif

namespace cuzk::engine {

using Clock = std::chrono::steady_clock;

// A proof that failed its self-check: the witness does not satisfy the circuit, or the hardware computed
// something wrong. Retried (a GPU fault may not repeat); reported once the attempts are spent.
struct SelfCheckFailed : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Thrown for a partition whose worker's device is lost while another device can prove it: the partition
// goes back to the queue (Engine::work) instead of being proved on the CPU.
struct HandBack : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A device found lost in its region (a simulated one's injected loss, or one lost while a worker waited for
// it): the attempt is over, and the next one hands the partition back or proves it on the CPU.
struct DeviceLost : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A worker process's exit status after a sticky CUDA fault (EX_TEMPFAIL: start me again).
inline constexpr int kExitStickyFault = 75;

inline double ms_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

template <class Curve>
using Witnesses = std::vector<std::vector<typename Curve::Fr>>;

struct Engine::Job {
  std::uint64_t seq = 0;
  std::string id, request_id, circuit_id;
  std::string kind = "circuit";  // JobResult::kind
  Priority priority = Priority::kNormal;
  std::shared_ptr<const Circuit> circuit;
  // Inline witnesses, decoded at submit (bellperson circuits: synthesized assignments).
  std::variant<Witnesses<Bn254>, Witnesses<Bls12_381>, std::vector<groth16::bellperson::Assignment>>
      witnesses;
  std::vector<std::string>
      witness_paths;  // or files, checked at submit and decoded when their partition runs
  // Or Filecoin vanilla proofs, checked at submit; each partition is synthesized from them when it runs.
  std::shared_ptr<const filecoin::VanillaJob> vanilla;
  std::uint32_t vanilla_first =
      0;                     // partition k of this job is the vanilla proofs' partition vanilla_first + k
  std::string vanilla_file;  // the vanilla proofs spooled for the worker processes; removed at the end
  std::vector<PartitionResult> parts;
  JobStatus status = JobStatus::kQueued;
  std::string error;
  Clock::time_point submitted = Clock::now(), started{}, finished{};
  std::atomic<bool> cancel{false};
  std::uint32_t unfinished = 0;
  std::vector<std::string>
      spooled;  // inline witnesses written to files for a worker process; removed at the end

  // A finished (or refused) job keeps only its results: its key reference (so evict() really frees) and its
  // witnesses go.
  void release_inputs() {
    circuit.reset();
    witnesses = {};
    witness_paths = {};
    vanilla.reset();
    for (const auto& path : spooled) {
      std::error_code ec;
      std::filesystem::remove(path, ec);
    }
    spooled.clear();
    if (!vanilla_file.empty()) {
      std::error_code ec;
      std::filesystem::remove(vanilla_file, ec);
      vanilla_file.clear();
    }
  }
};

#ifdef CUZK_HAVE_CUDA
// A circuit's key prepared on one GPU, in the plan that fits (groth16/gpu_plan.hpp).
struct DeviceKey {
  std::shared_ptr<const Circuit> circuit;  // keeps the host key alive: streamed parts live there
  std::variant<std::monostate, std::unique_ptr<groth16::gpu::ResidentKey<Bn254>>,
               std::unique_ptr<groth16::gpu::ResidentKey<Bls12_381>>,
               std::unique_ptr<groth16::bellperson::gpu::ResidentKey>>
      key;
  std::optional<groth16::gpu::Plan> plan;    // of `key`, once built
  std::optional<groth16::gpu::Plan> forced;  // after an out-of-memory: at most this plan from now on
  // The name under which a worker process's memory keeper holds this key's points (cuda/kept_array.hpp);
  // empty when nothing was made under a name.
  std::string kept_as;

  // The device copy goes, and with it what the keeper held of it: a dropped key is never mapped again.
  void drop() {
    key = std::monostate{};
    circuit.reset();
    plan.reset();
    if (!kept_as.empty()) cuda::drop_kept(kept_as + "/");
    kept_as.clear();
  }

  // What a worker process's keeper calls this circuit's key on device `ordinal`: the key file's version is
  // in it, so a replaced file is never proved with from an old device copy.
  static std::string keep_name(const Circuit& c, int ordinal) {
    return c.id + "@" + c.key_version + "/gpu" + std::to_string(ordinal);
  }

  // The key of `c` on this device, prepared by `make(forced)` on first use, after a reload of the circuit, or
  // after it was dropped (timed as the partition's upload_key stage).
  template <class Key, class Make>
  const Key& prepare(const std::shared_ptr<const Circuit>& c, groth16::StageTimings* timings, Make&& make,
                     const std::string& keep_as = {}) {
    if (circuit != c || !plan) {
      groth16::StageTimer t(timings, "upload_key");
      drop();  // the old copy's memory is needed for the new one
      kept_as = keep_as;
      auto made = make(forced);
      plan = made->plan();
      key = std::move(made);
      circuit = c;
    }
    return *std::get<std::unique_ptr<Key>>(key);
  }
};

// A witness a worker uploaded while waiting for the GPU (partition.cpp). The device can take it back when a
// proof runs out of memory: the owner then uploads in its own GPU region instead.
struct StagedWitness {
  virtual std::size_t revoke() = 0;  // frees the device copy; called under StagingArea::mutex; returns bytes

 protected:
  ~StagedWitness() = default;
};

// Pre-staging's books on one device, all under `mutex`. A witness is admitted only if the proof in progress
// can still reach its peak beside it and every witness staged before: device keys (`floor`) + that proof's
// need + staged witnesses + this one must fit in what the VRAM policy lets this process hold. The original
// system admitted 12 GiB per worker on a 16 GiB card, and learned about it from out-of-memory panics.
struct StagingArea {
  std::mutex mutex;              // serialises pre-staging allocations (outside the GPU region they overlap)
  std::size_t staged_bytes = 0;  // held by pre-staged witnesses not yet taken
  std::vector<StagedWitness*> staged;  // those witnesses, which a proof short of memory can revoke
  std::size_t floor = 0;               // held at the last GPU region's start, staged witnesses apart: keys
  std::string circuit;                 // that region's circuit
  std::map<std::string, std::size_t>
      proof_need;  // per circuit: the most one proof took here (or its estimate)

  std::size_t revoke_all() {
    std::size_t bytes = 0;
    while (!staged.empty()) bytes += staged.back()->revoke();  // each revoke() unlists itself
    return bytes;
  }
};
#endif

struct Engine::Device {
  int ordinal = -1;
  std::mutex gpu;          // held only around the GPU region of a proof
  bool simulated = false;  // EngineConfig::simulated_devices: CPU proofs in the region
  unsigned regions = 0;    // simulated: regions entered so far; guarded by `gpu`
#ifdef CUZK_HAVE_CUDA
  std::map<std::string, DeviceKey> keys;  // by circuit id; guarded by `gpu`
  std::mutex plans_mutex;                 // guards plans_reported (taken outside the GPU region too)
  std::set<std::string> plans_reported;   // circuits whose plan here was logged (report_plan)
  // CUDA contexts recreated so far; written under `gpu`, read without it by pre-staging workers.
  std::atomic<std::uint64_t> generation{0};
  StagingArea staging;
  std::uint64_t resets = 0;  // of which succeeded; guarded by `gpu`
#endif
  // Set when a poisoned context could not be recreated: the device's workers prove on the CPU from then on
  // (slow, but no job is lost and the daemon stays up), and /healthz reports it.
  std::atomic<bool> lost{false};
  std::string lost_reason;  // guarded by `gpu`
};

struct Engine::Worker {
  std::string name;
  Device* device = nullptr;          // null: a CPU worker (or one that hands its partitions to a process)
  WorkerProcess* process = nullptr;  // isolation = process: where this worker's partitions are proved
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

}  // namespace cuzk::engine
