// The engine's private state, shared by its two halves: engine.cpp (jobs, queue, workers, status) and
// partition.cpp (proving one partition: attempts, the GPU region, recovery, the timing line). Not installed.
#pragma once

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "engine/engine.hpp"

#ifdef CUZK_HAVE_CUDA
#include "cuda/stream.hpp"
#include "groth16/gpu_prover.hpp"
#endif

namespace cuzk::engine {

using Clock = std::chrono::steady_clock;

inline double ms_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

template <class Curve>
using Witnesses = std::vector<std::vector<typename Curve::Fr>>;

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

}  // namespace cuzk::engine
