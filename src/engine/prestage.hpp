// Pre-staging (GPU builds): a partition's input uploaded from a pinned lease on the worker's copy stream
// while another worker holds the GPU, admitted only where the device has room beside the proof in progress
// and what is staged already, and taken (or revoked, or dropped) by the partition's GPU region. Used by
// partition.cpp alone; a header so that the engine's partition file keeps to the attempts and the region.
#pragma once

#include <algorithm>
#include <initializer_list>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>

#include "cuda/device_buffer.hpp"
#include "cuda/error.hpp"
#include "cuda/event.hpp"
#include "cuda/parallel_copy.hpp"
#include "cuda/pinned_pool.hpp"
#include "cuda/stream.hpp"
#include "cuda/vram.hpp"
#include "engine/engine.hpp"
#include "engine/engine_state.hpp"
#include "groth16/bellperson.hpp"
#include "io/bellperson_assignment.hpp"

namespace cuzk::engine {
// A pinned lease that an assignment's columns may view too (decoded in place) while a staging uploads it.
using SharedLease = std::shared_ptr<cuda::PinnedPool::Lease>;

// A lease of `bytes` from `pool`, shareable; null when the pool cannot lend it.
inline SharedLease lease_shared(cuda::PinnedPool& pool, std::size_t bytes) {
  auto lease = std::make_shared<cuda::PinnedPool::Lease>(pool.lease(bytes));
  return *lease ? lease : nullptr;
}

// A partition's witness uploaded ahead of its GPU region: from a pinned lease, on the worker's copy stream.
// Listed in the device's staging area (and counted in its staged bytes) until the proof takes it, the device
// revokes it, or it is dropped.
template <class Fr>
class Prestaged final : public StagedWitness {
 public:
  Prestaged(StagingArea& area, std::uint64_t generation) : area_(area), generation_(generation) {}
  ~Prestaged() {
    std::lock_guard lock(area_.mutex);
    unlist();
  }
  Prestaged(const Prestaged&) = delete;
  Prestaged& operator=(const Prestaged&) = delete;

  // Allocates and uploads under the area's lock (the caller holds it) and lists the witness there.
  void stage(SharedLease host, std::size_t count, cudaStream_t copy) {
    host_ = std::move(host);
    device_ = cuda::DeviceBuffer<Fr>(count, copy);  // stream-ordered: no wait for the region's kernels
    device_.upload(reinterpret_cast<const Fr*>(host_->data()), count, copy);
    uploaded_.record(copy);
    area_.staged.push_back(this);
    area_.staged_bytes += device_.bytes();  // with the allocation, under the lock: snapshots see both or none
    listed_ = true;
  }

  // The device copy for the proof, which `stream` then waits for; null if revoked, or from an older context.
  cuda::DeviceBuffer<Fr>* take(std::uint64_t generation, cudaStream_t stream) {
    std::lock_guard lock(area_.mutex);
    if (!listed_ || generation != generation_) return nullptr;
    unlist();
    uploaded_.make_wait(stream);
    device_.hand_to(stream);  // freed by the proof, in its stream's order
    return &device_;
  }

  std::size_t revoke() override {
    const std::size_t bytes = device_.bytes();
    try {
      uploaded_.synchronize();          // never free under a copy still in flight
    } catch (const cuda::CudaError&) {  // a poisoned context: the memory goes with it
    }
    unlist();
    device_ = {};
    revoked_ = true;
    return bytes;
  }
  bool revoked() const {
    std::lock_guard lock(area_.mutex);
    return revoked_;
  }

 private:
  void unlist() {  // under the area's lock
    if (!listed_) return;
    std::erase(area_.staged, this);
    area_.staged_bytes -= device_.bytes();
    listed_ = false;
  }

  StagingArea& area_;
  std::uint64_t generation_;  // of the context it was uploaded in
  SharedLease host_;          // read by the upload in flight; shared with a column decoded into it
  cuda::DeviceBuffer<Fr> device_;
  cuda::Event uploaded_{false};
  bool listed_ = false;
  bool revoked_ = false;
};

// Whether the device can take `bytes` more now (the caller holds the area's lock): beside everything the
// proof in progress may still need and what is staged already. A circuit whose proof has not yet run on this
// device is not admitted: its need is not known.
inline bool admitted(const StagingArea& area, const std::string& circuit_id, std::size_t bytes) {
  const auto own = area.proof_need.find(circuit_id);
  if (own == area.proof_need.end()) return false;
  std::size_t need = own->second;
  if (const auto current = area.proof_need.find(area.circuit); current != area.proof_need.end())
    need = std::max(need, current->second);
  return area.floor + need + area.staged_bytes + bytes <= cuda::vram_capacity();
}

// Uploads the first `count` values of `host` (filled already) if the device admits them. Null: upload in the
// region.
template <class Fr>
std::unique_ptr<Prestaged<Fr>> stage_lease(StagingArea& area, std::uint64_t generation, cuda::Stream& copy,
                                           const std::string& circuit_id, SharedLease host,
                                           std::size_t count) {
  // Declared before the lock, so destroyed after it is released: a Prestaged unlists itself under that
  // lock, and a refused allocation in stage() destroys it on the way out (destroyed under the lock, that was
  // a self-deadlock the allocation-fault test ran into). Made inside the try: its event cannot be created in
  // a poisoned context, and that error belongs to the GPU region, not to the partition.
  std::unique_ptr<Prestaged<Fr>> p;
  try {
    std::lock_guard lock(area.mutex);
    if (!admitted(area, circuit_id, count * sizeof(Fr))) return nullptr;
    p = std::make_unique<Prestaged<Fr>>(area, generation);
    p->stage(std::move(host), count, copy.get());
    return p;
  } catch (const cuda::CudaError&) {  // refused, or a context in trouble: the region finds out and recovers
    return nullptr;
  }
}

// Uploads a proof's input (`parts` one after the other: a witness, or a bellperson a, b, c) while another
// worker may hold the GPU, if the pinned pool lends a buffer and the device admits it. Null: upload in the
// region.
template <class Fr>
std::unique_ptr<Prestaged<Fr>> prestage(cuda::PinnedPool& pool, StagingArea& area, std::uint64_t generation,
                                        cuda::Stream& copy, const std::string& circuit_id,
                                        std::initializer_list<std::span<const Fr>> parts) {
  std::size_t count = 0;
  for (const auto& part : parts) count += part.size();
  // Asked before the copy into pinned memory (gigabytes at PoRep scale, wasted when the answer is no), and
  // again in stage_lease after it.
  try {
    std::lock_guard lock(area.mutex);
    if (!admitted(area, circuit_id, count * sizeof(Fr))) return nullptr;
  } catch (const cuda::CudaError&) {  // free memory not known: a context in trouble, the region recovers
    return nullptr;
  }
  auto lease = lease_shared(pool, count * sizeof(Fr));
  if (!lease) return nullptr;
  std::size_t at = 0;
  for (const auto& part : parts) {
    cuda::parallel_copy(lease->data() + at, part.data(), part.size_bytes());
    at += part.size_bytes();
  }
  return stage_lease<Fr>(area, generation, copy, circuit_id, std::move(lease), count);
}

// Called in the GPU region once the key is on the device: what the daemon holds apart from staged witnesses
// is the admission floor, and the circuit's estimated per-proof need its first guess.
inline void enter_staging_region(StagingArea& area, int ordinal, const std::string& circuit_id,
                                 std::size_t estimate, std::size_t own_staged) {
  std::lock_guard lock(area.mutex);
  area.floor = cuda::vram_usage(ordinal).in_use - area.staged_bytes - own_staged;
  area.circuit = circuit_id;
  auto& need = area.proof_need[circuit_id];
  need = std::max(need, estimate);
}

// After a proof: what it really took (its thread's peak, plus its pre-staged witness) raises the need.
inline void learn_proof_need(StagingArea& area, const std::string& circuit_id, std::size_t bytes) {
  std::lock_guard lock(area.mutex);
  auto& need = area.proof_need[circuit_id];
  need = std::max(need, bytes);
}

// Before a partition's attempts: its input pre-staged on the worker's device when that can be done, and
// the outcome for the timing line (ok, fallback: uploaded in the region, off: no pinned pool). `W` is the
// engine's worker. The input is `parts`; when `filled` is set they were decoded there, one after the other,
// and go up from it.
// `too_large(bytes)` is called when the input alone exceeds the pool's budget: no partition of this circuit
// can ever be pre-staged, a setting to raise rather than a moment's contention.
template <class Fr, class W, class TooLarge>
std::unique_ptr<Prestaged<Fr>> stage_ahead(cuda::PinnedPool* pool, W& w, const std::string& circuit_id,
                                           PartitionResult& r,
                                           std::initializer_list<std::span<const Fr>> parts,
                                           TooLarge&& too_large, SharedLease filled = nullptr) {
  if (!w.device || w.device->lost) return nullptr;
  std::unique_ptr<Prestaged<Fr>> staged;
  if (pool && w.generation == w.device->generation) {
    auto& d = *w.device;
    std::size_t count = 0;
    for (const auto& part : parts) count += part.size();
    if (filled) {
      staged = stage_lease<Fr>(d.staging, w.generation, *w.copy, circuit_id, std::move(filled), count);
    } else {
      if (count * sizeof(Fr) > pool->stats().budget) too_large(count * sizeof(Fr));
      staged = prestage<Fr>(*pool, d.staging, w.generation, *w.copy, circuit_id, parts);
    }
  }
  r.prestage = staged ? "ok" : pool ? "fallback" : "off";
  return staged;
}

// Pinned leases for a bellperson assignment's a, b, c and its aux, to decode them into
// (io::bellperson_assignment's Lend): when the worker has a usable device and the pool can lend them.
// Whatever the device later admits, the values are then read once and go to the GPU by DMA from there. `abc`
// is set to the a, b, c lease, the one pre-staging uploads.
template <class W, class TooLarge>
io::bellperson_assignment::Lend lend_pinned(cuda::PinnedPool* pool, W& w, SharedLease& abc,
                                            TooLarge&& too_large) {
  if (!pool || !w.device || w.device->lost || w.generation != w.device->generation) return {};
  namespace ba = io::bellperson_assignment;
  using Fr = groth16::bellperson::Fr;
  return [pool, &abc, too_large](ba::Part part, std::uint64_t count) -> std::optional<ba::LentMemory> {
    const std::size_t bytes = count * sizeof(Fr);
    if (bytes > pool->stats().budget) {
      if (part == ba::Part::kAbc) too_large(bytes);
      return std::nullopt;
    }
    auto l = lease_shared(*pool, bytes);
    if (!l) return std::nullopt;
    if (part == ba::Part::kAbc) abc = l;
    return ba::LentMemory{std::span<Fr>(reinterpret_cast<Fr*>(l->data()), count), std::move(l)};
  };
}

// In the GPU region: the pre-staged input, on the first attempt only, unless the device took it back.
template <class Fr, class W>
cuda::DeviceBuffer<Fr>* take_staged(Prestaged<Fr>* staged, W& w, PartitionResult& r) {
  if (!staged) return nullptr;
  cuda::DeviceBuffer<Fr>* ready = staged->take(w.generation, w.stream->get());
  if (staged->revoked()) r.prestage = "fallback";
  return ready;
}

}  // namespace cuzk::engine
