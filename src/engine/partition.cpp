// One partition's proof: its attempts (retried after a failed self-check or a CUDA error the device can
// recover from), the GPU region (key prepared in the plan that fits, witness pre-staged), recovery (smaller
// plan, context reset, lost device), and the timing line.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <span>
#include <sstream>

#include "cuda/parallel_copy.hpp"
#include "engine/engine.hpp"
#include "engine/engine_state.hpp"
#include "engine/worker_process.hpp"
#include "ff/random.hpp"
#include "filecoin/vanilla_job.hpp"
#include "groth16/bellperson.hpp"
#include "groth16/prover.hpp"
#include "groth16/verifier.hpp"
#include "io/bellperson_assignment.hpp"
#include "io/json.hpp"
#include "io/wtns.hpp"

#ifdef CUZK_HAVE_CUDA
#include "cuda/current_device_guard.hpp"
#include "cuda/device.hpp"
#include "cuda/error.hpp"
#include "cuda/event.hpp"
#include "cuda/pinned_pool.hpp"
#include "cuda/stream.hpp"
#include "cuda/vram.hpp"
#include "engine/prestage.hpp"
#include "groth16/bellperson_plan.hpp"
#include "groth16/gpu_bellperson.hpp"
#include "groth16/gpu_plan.hpp"
#include "groth16/gpu_prover.hpp"
#endif

namespace cuzk::engine {

namespace {

double stage_sum(const groth16::StageTimings& t, std::initializer_list<const char*> names) {
  double sum = 0;
  for (const auto& [name, ms] : t.stages_ms)
    for (const char* n : names)
      if (name == n) sum += ms;
  return sum;
}

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
    } catch (const HandBack&) {
      throw;
    } catch (const std::exception& e) {
#ifdef CUZK_HAVE_CUDA
      if (const auto* ce = dynamic_cast<const cuda::CudaError*>(&e);
          ce && ce->kind() == cuda::CudaError::Kind::out_of_memory)
        ++out_of_memory;
#endif
      if ((!w.device && !w.process) || r.attempts >= std::max(1u, config_.max_attempts) ||
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
std::unique_lock<std::mutex> Engine::enter_gpu(Worker& w, double* waited_ms) {
  auto& d = *w.device;
  const auto t0 = Clock::now();
  await_predecessor();
  std::unique_lock gpu(d.gpu);
  *waited_ms = ms_between(t0, Clock::now());
  if (d.lost) throw DeviceLost("GPU " + std::to_string(d.ordinal) + " was lost while waiting for it");
  if (w.generation != d.generation) {  // the context was reset since this worker's streams were made
    w.stream->abandon();
    w.copy->abandon();
    w.stream = std::make_unique<cuda::Stream>();
    w.copy = std::make_unique<cuda::Stream>();
    w.generation = d.generation;
  }
  return gpu;
}

void Engine::report_plan(Device& d, const Circuit& c,
                         const std::function<groth16::gpu::Footprint()>& footprint) {
  {
    std::lock_guard lock(d.plans_mutex);
    if (!d.plans_reported.insert(c.id).second) return;
  }
  const cuda::CurrentDeviceGuard on(d.ordinal);
  // The key's points that a memory keeper holds from an earlier worker process are this one's room too.
  const std::size_t kept = cuda::kept_bytes(DeviceKey::keep_name(c, d.ordinal) + "/");
  log("cuzk: GPU " + std::to_string(d.ordinal) + ", circuit " + c.id + ": " +
      groth16::gpu::describe_choice(footprint(), cuda::vram_capacity() + kept) +
      (kept > 0 ? " (" + groth16::gpu::format_gib(kept) + " of it the key kept on the device)" : ""));
}

void Engine::report_plans(const Circuit& c) {
  await_predecessor();  // free memory decides the plan: not while a dying context still holds it
  for (auto& d : devices_) {
    if (d->lost) continue;
    try {
      report_plan(*d, c, [&] {
        return std::visit(
            [](const auto& key) -> groth16::gpu::Footprint {
              if constexpr (std::is_same_v<std::decay_t<decltype(key)>, io::bellperson::Params>)
                return groth16::bellperson::gpu_footprint(key);
              else
                return groth16::gpu::footprint(key);
            },
            c.key);
      });
    } catch (const cuda::CudaError&) {  // the device in trouble: its first partition finds out and recovers
    }
  }
}

#endif

void Engine::synthesize_vanilla(Job& job, std::uint32_t partition, PartitionResult& r,
                                groth16::bellperson::Assignment& out,
                                const io::bellperson_assignment::Lend& lend) {
  const std::string what = "partition " + std::to_string(job.vanilla_first + partition);
  const auto t0 = Clock::now();
  {
    // Before any GPU time is spent on it: vanilla proofs that do not satisfy the circuit (a·b ≠ c in some
    // row, checked as each row is evaluated), or whose public inputs are not the ones the chain's
    // challenges give, cannot give a proof that verifies.
    groth16::StageTimer t(&r.stages, "synthesis");
    out = job.vanilla->assignment(job.vanilla_first + partition, what, lend);
  }
  r.synthesis_ms = ms_between(t0, Clock::now());
  groth16::StageTimer t(&r.stages, "synthesis_check");
  try {
    groth16::bellperson::check(std::get<io::bellperson::Params>(job.circuit->key), out);
  } catch (const groth16::bellperson::Error& e) {
    throw std::runtime_error(what + ": the key of circuit '" + job.circuit->id +
                             "' does not fit the synthesized circuit: " + e.what());
  }
}

void Engine::prove_bellperson(Worker& w, Job& job, std::uint32_t partition, PartitionResult& r) {
  namespace bp = groth16::bellperson;
  const auto& params = std::get<io::bellperson::Params>(job.circuit->key);
  // The witness this partition holds until its proof is done: a, b, c over the domain and [inputs, aux].
  const auto n = params.lengths();
  const auto witness_slot =
      job.vanilla || !job.witness_paths.empty()
          ? reserve_witness(job, (3 * (n.h + 1) + params.vk.ic.size() + n.l) * sizeof(bp::Fr), r)
          : HostMemoryBudget::Reservation{};
  bp::Assignment loaded;
#ifdef CUZK_HAVE_CUDA
  const auto too_large = [&](std::size_t bytes) { warn_pinned_pool_too_small(job.circuit->id, bytes); };
  SharedLease abc_lease;  // set when a, b, c were decoded into a pinned lease
#endif
  if (job.vanilla) {
    synthesize_vanilla(job, partition, r, loaded
#ifdef CUZK_HAVE_CUDA
                       ,
                       lend_pinned(pinned_pool_.get(), w, abc_lease, too_large)
#endif
    );
  } else if (!job.witness_paths.empty()) {
    groth16::StageTimer t(&r.stages, "load_witness");
#ifdef CUZK_HAVE_CUDA
    loaded = io::bellperson_assignment::read(job.witness_paths[partition],
                                             lend_pinned(pinned_pool_.get(), w, abc_lease, too_large));
#else
    loaded = io::bellperson_assignment::read(job.witness_paths[partition]);
#endif
  }
  const auto& a = job.witness_paths.empty() && !job.vanilla
                      ? std::get<std::vector<bp::Assignment>>(job.witnesses)[partition]
                      : loaded;
  const std::vector<bp::Fr> pub(a.inputs.begin() + 1, a.inputs.end());
#ifdef CUZK_HAVE_CUDA
  const auto staged = stage_ahead<bp::Fr>(
      pinned_pool_.get(), w, job.circuit->id, r,
      {std::span<const bp::Fr>(a.a), std::span<const bp::Fr>(a.b), std::span<const bp::Fr>(a.c)}, too_large,
      abc_lease);
#endif
  with_attempts(w, job, partition, r, [&] {
    const auto t0 = Clock::now();
    double gpu_wait_ms = 0;  // behind the device's other workers, outside this proof's GPU time
    const bp::Fr rr = ff::random_nonzero_os<bp::Fr>(), ss = ff::random_nonzero_os<bp::Fr>();
    groth16::Proof<bp::Curve> proof;
    if (!w.device || w.device->lost) {
      hand_back_if_another_device_proves(w);
      r.plan = w.device ? "cpu-fallback" : "cpu";
      proof = bp::prove(params, a, rr, ss);
    } else if (w.device->simulated) {
      const auto region = enter_simulated_gpu(w, &gpu_wait_ms);
      r.stages.add_detail("gpu_wait", gpu_wait_ms);
      r.plan = "simulated";
      proof = bp::prove(params, a, rr, ss);
    } else {
#ifdef CUZK_HAVE_CUDA
      auto& d = *w.device;
      const auto gpu = enter_gpu(w, &gpu_wait_ms);
      r.stages.add_detail("gpu_wait", gpu_wait_ms);
      report_plan(d, *job.circuit, [&] { return bp::gpu_footprint(params); });
      // In a worker process the key's points stay on the device when it dies (cuda/kept_array.hpp).
      const std::string keep_as = DeviceKey::keep_name(*job.circuit, d.ordinal);
      const auto& key = d.keys[job.circuit->id].prepare<bp::gpu::ResidentKey>(
          job.circuit, &r.stages,
          [&](auto forced) {
            return std::make_unique<bp::gpu::ResidentKey>(params, w.stream->get(), forced, 0, keep_as);
          },
          keep_as);
      r.plan = groth16::gpu::to_string(key.plan());
      auto* ready = take_staged(staged.get(), w, r);
      prove_on_device(w, job, key.proof_bytes(), ready ? ready->bytes() : 0, [&] {
        proof = bp::gpu::prove(params, key, a, rr, ss, w.stream->get(), &r.stages, ready);
      });
#endif
    }
    if (corrupt_.fire()) proof.a = -proof.a;  // fault injection: the self-check must catch this
    r.prove_ms = ms_between(t0, Clock::now()) - gpu_wait_ms;
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
  const auto staged =
      stage_ahead<Fr>(pinned_pool_.get(), w, job.circuit->id, r, {std::span<const Fr>(witness)},
                      [&](std::size_t bytes) { warn_pinned_pool_too_small(job.circuit->id, bytes); });
#endif
  with_attempts(w, job, partition, r, [&] {
    const auto t0 = Clock::now();
    double gpu_wait_ms = 0;  // behind the device's other workers, outside this proof's GPU time
    const Fr rr = ff::random_nonzero_os<Fr>(), ss = ff::random_nonzero_os<Fr>();
    groth16::Proof<C> proof;
    if (!w.device || w.device->lost) {
      hand_back_if_another_device_proves(w);
      r.plan = w.device ? "cpu-fallback" : "cpu";
      proof = groth16::prove(pk, witness, rr, ss, &r.stages);
    } else if (w.device->simulated) {
      const auto region = enter_simulated_gpu(w, &gpu_wait_ms);
      r.stages.add_detail("gpu_wait", gpu_wait_ms);
      r.plan = "simulated";
      proof = groth16::prove(pk, witness, rr, ss, &r.stages);
    } else {
#ifdef CUZK_HAVE_CUDA
      auto& d = *w.device;
      const auto gpu = enter_gpu(w, &gpu_wait_ms);  // the GPU region
      r.stages.add_detail("gpu_wait", gpu_wait_ms);
      report_plan(d, *job.circuit, [&] { return groth16::gpu::footprint(pk); });
      // Without a forced plan the key steps down by itself until lean fits (or throws). In a worker process
      // the points stay on the device when it dies (cuda/kept_array.hpp).
      const std::string keep_as = DeviceKey::keep_name(*job.circuit, d.ordinal);
      const auto& key = d.keys[job.circuit->id].prepare<groth16::gpu::ResidentKey<C>>(
          job.circuit, &r.stages,
          [&](auto forced) {
            return std::make_unique<groth16::gpu::ResidentKey<C>>(pk, w.stream->get(), forced, 0, keep_as);
          },
          keep_as);
      r.plan = groth16::gpu::to_string(key.plan());
      auto* ready = take_staged(staged.get(), w, r);
      prove_on_device(w, job, key.proof_bytes(), ready ? ready->bytes() : 0, [&] {
        proof = groth16::gpu::prove(pk, key, witness, rr, ss, w.stream->get(), &r.stages, ready);
      });
#endif
    }
    if (corrupt_.fire()) proof.a = -proof.a;  // fault injection: the self-check must catch this
    r.prove_ms = ms_between(t0, Clock::now()) - gpu_wait_ms;
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

#ifdef CUZK_HAVE_CUDA
void Engine::prove_on_device(Worker& w, Job& job, std::size_t proof_bytes, std::size_t ready_bytes,
                             const std::function<void()>& prove) {
  auto& d = *w.device;
  enter_staging_region(d.staging, d.ordinal, job.circuit->id, proof_bytes, ready_bytes);
  // What this daemon holds on the device apart from pre-staged inputs (other workers stage theirs
  // meanwhile) and apart from this proof's own pre-staged input, which the proof frees.
  auto held = [&] {
    std::lock_guard lock(d.staging.mutex);
    return cuda::vram_usage(d.ordinal).in_use - d.staging.staged_bytes;
  };
  const std::size_t held_before = held() - ready_bytes;
  const cuda::ThreadVramPeak peak;
  prove();
  learn_proof_need(d.staging, job.circuit->id, peak.bytes() + ready_bytes);
  // Every buffer of the proof is gone now: anything more is a leak an operator must hear about.
  if (const std::size_t after = held(); after > held_before) {
    log("cuzk: worker=" + w.name + " job=" + job.id + " VRAM leak: " + std::to_string(after - held_before) +
        " bytes still held after the proof");
    std::lock_guard lock(mutex_);
    ++faults_.vram_leaks;
  }
}
#endif

bool Engine::recover(Worker& w, const std::string& circuit_id, const std::exception& error, bool repeated) {
  // The worker process died under the partition; the next call starts a new one.
  if (dynamic_cast<const WorkerDied*>(&error)) return true;
  // The device is gone: the next attempt hands the partition back, or proves it on the CPU.
  if (dynamic_cast<const DeviceLost*>(&error)) return true;
#ifdef CUZK_HAVE_CUDA
  if (!w.device) return false;
  auto& d = *w.device;
  std::lock_guard gpu(d.gpu);
  // Lost (perhaps by another worker while this one waited for it): the next attempt runs on the CPU.
  if (d.lost) return true;
  const auto* e = dynamic_cast<const cuda::CudaError*>(&error);
  if (!e) return false;
  if (e->kind() == cuda::CudaError::Kind::out_of_memory) {
    {
      std::lock_guard lock(mutex_);
      ++faults_.out_of_memory;
    }
    // Whatever the failed attempt allocated is already freed (its buffers went with the exception). Make
    // room: first the witnesses other workers pre-staged (they upload again in their own region) and other
    // circuits' device keys; then, if the same partition runs out again (not a passing squeeze), a smaller
    // plan for this circuit on this device (until the key is evicted or the context reset); lean and alone
    // on the device, try again as is (memory other processes hold may come back).
    std::size_t revoked = 0;
    {
      std::lock_guard lock(d.staging.mutex);
      revoked = d.staging.revoke_all();
    }
    if (revoked > 0)
      log("cuzk: device " + std::to_string(d.ordinal) + ": out of memory; took back " +
          std::to_string(revoked >> 20) + " MiB of pre-staged witnesses");
    bool freed = revoked > 0;
    for (auto& [id, slot] : d.keys)
      if (id != circuit_id && slot.plan) {
        slot.drop();
        freed = true;
      }
    // In a worker process, device copies an earlier process left with the keeper for keys this one has not
    // prepared hold memory too (cuda/kept_array.hpp).
    std::vector<std::string> in_use{circuit_id + "@"};
    for (const auto& [id, slot] : d.keys)
      if (!slot.kept_as.empty()) in_use.push_back(slot.kept_as + "/");
    if (cuda::retain_kept(in_use) > 0) freed = true;
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
    // In a worker process the context cannot come back (cuda/device.hpp, reset_device): end the process;
    // the parent starts a new one, which gets the GPU at once, and proves this and every partition in
    // flight here again.
    if (config_.exit_on_sticky) {
      log("cuzk: device " + std::to_string(d.ordinal) + ": sticky CUDA error (" + e->what() +
          "); this worker process exits so its parent can start a new one");
      std::fflush(stderr);
      if (config_.before_sticky_exit) config_.before_sticky_exit();
      std::_Exit(kExitStickyFault);
    }
    // The context is poisoned for every worker on this device. The first to get here resets it; the others
    // find the generation moved and only renew their streams.
    if (w.generation == d.generation && !d.lost) {
      for (auto& [id, slot] : d.keys) slot.drop();  // device memory that dies with the context
      {
        std::lock_guard lock(d.staging.mutex);
        d.staging.revoke_all();
      }
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
            re.what() + ")" +
            (another_device_proves(w) ? "; the other GPUs prove its partitions until the daemon is restarted"
                                      : "; its workers prove on the CPU until the daemon is restarted"));
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

void Engine::hand_back_if_another_device_proves(const Worker& w) const {
  if ((w.device || w.process) && another_device_proves(w))
    throw HandBack("its GPU is lost; another GPU proves the partition");
}

void Engine::await_predecessor() {
  const double ms = predecessor_.wait(config_.predecessor_wait);
  if (ms < 1) return;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.0f ms", ms);
  log(std::string("cuzk: waited ") + buf + " for the worker process this one replaces to exit" +
      (predecessor_.timed_out() ? " (it has not: going on; its device memory may still be held)"
                                : " (its device memory is free)"));
}

std::unique_lock<std::mutex> Engine::enter_simulated_gpu(Worker& w, double* waited_ms) {
  auto& d = *w.device;
  const auto t0 = Clock::now();
  await_predecessor();
  std::unique_lock region(d.gpu);
  *waited_ms = ms_between(t0, Clock::now());
  if (d.lost) throw DeviceLost("GPU " + std::to_string(d.ordinal) + " was lost while waiting for it");
  if (config_.lose_device.ordinal == d.ordinal && ++d.regions == config_.lose_device.after) {
    d.lost_reason = "simulated loss (EngineConfig::lose_device)";
    d.lost = true;
    log("cuzk: device " + std::to_string(d.ordinal) + " LOST: " + d.lost_reason +
        (another_device_proves(w) ? "; the other GPUs prove its partitions"
                                  : "; its workers prove on the CPU"));
    throw DeviceLost("GPU " + std::to_string(d.ordinal) + " was lost");
  }
  return region;
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
    if (w.process) {
      prove_in_worker_process(w, job, partition, r);
    } else if (job.circuit->bellperson()) {
      prove_bellperson(w, job, partition, r);
    } else {
      io::with_curve(job.circuit->curve, [&]<class C>() { prove_snarkjs<C>(w, job, partition, r); });
    }
    r.state = job.cancel ? PartitionState::kCancelled : PartitionState::kDone;
  } catch (const groth16::Cancelled&) {
    r.state = PartitionState::kCancelled;
  } catch (const HandBack& e) {  // back to the queue (Engine::work), for a device that can prove it
    log("cuzk: job=" + job.id + " partition=" + std::to_string(partition) + " worker=" + w.name + " " +
        e.what() + ": queued again");
    r.state = PartitionState::kPending;
    return r;
  } catch (const std::exception& e) {
    r.state = PartitionState::kFailed;
    r.error = e.what();
  }
  const std::string prestage = r.prestage.empty() ? "none" : r.prestage;
  {
    std::lock_guard lock(mutex_);
    if (!r.plan.empty()) {
      ++partitions_by_plan_[r.plan];
      ++partitions_by_prestage_[prestage];
    }
  }
  // The timing line, in the original daemon's vocabulary where a stage matches. GPU time by the plan that
  // proved it: a worker process's GPU partitions count too, and CPU fallbacks do not.
  const bool ran_on_gpu = !r.plan.empty() && r.plan != "cpu" && r.plan != "cpu-fallback";
  std::ostringstream line;
  line.setf(std::ios::fixed);
  line.precision(1);
  line << "cuzk: job=" << job.id << " partition=" << partition << "/" << job.parts.size()
       << " circuit=" << job.circuit_id << " kind=" << job.kind << " worker=" << w.name
       << " state=" << to_string(r.state) << " plan=" << (r.plan.empty() ? "none" : r.plan)
       << " attempts=" << r.attempts << " prestage_setup=" << prestage << " queue_ms=" << r.queue_ms
       << " load_witness_ms=" << stage_sum(r.stages, {"load_witness"}) << " synthesis_ms=" << r.synthesis_ms
       << " abc_ms=" << stage_sum(r.stages, {"abc", "witness"})
       << " ntt_msm_h_ms=" << stage_sum(r.stages, {"h", "msm_h"})
       << " batch_add_ms=" << r.stages.detail("batch_add") << " tail_msm_ms=" << r.stages.detail("tail_msm")
       << " split_msm_ms="
       << stage_sum(r.stages, {"classify", "msm_a", "msm_b1", "msm_b2", "msm_c", "msm_tails", "msm_streamed"})
       << " gpu_wait_ms=" << r.stages.detail("gpu_wait")
       << " gpu_total_ms=" << (ran_on_gpu ? r.prove_ms : 0.0) << " verify_ms=" << r.verify_ms
       << " total_ms=" << ms_between(t0, Clock::now());
  if (!r.error.empty()) line << " error=\"" << r.error << "\"";
  if (config_.log_partitions) log(line.str());
  return r;
}

}  // namespace cuzk::engine
