// A host point array's first points uploaded ahead into device memory, for a later streamed MSM to read
// there (msm::gpu::DeviceHead): a streamed bellperson proof uploads the A query's head while the H MSM
// computes and leaves the bus mostly idle (bellperson_plan.hpp, streamed_head_points).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <future>
#include <optional>

#include "cuda/device_buffer.hpp"
#include "cuda/error.hpp"
#include "cuda/event.hpp"
#include "cuda/stream.hpp"
#include "cuda/vram.hpp"
#include "ec/point.hpp"
#include "msm/gpu.hpp"

namespace cuzk::groth16::gpu {

// The copy runs on a stream of its own, queued by a helper thread: from pageable memory (a key the host
// could not page-lock) cudaMemcpyAsync holds its caller until the bytes are read, and the caller here is the
// H MSM's host loop, which must go on queueing slices meanwhile.
template <class C>
class PointHeadUpload {
 public:
  // Points [0, count) of `host` into a buffer allocated in `stream`'s order; the copy waits for it, and for
  // `start_after` when given (another MSM's last upload: msm::gpu::Options::after_uploads).
  PointHeadUpload(const ec::Affine<C>* host, std::size_t count, cudaStream_t stream,
                  cudaEvent_t start_after = nullptr)
      : points_(count, stream) {
    int device = 0;
    CUZK_CUDA_CHECK(cudaGetDevice(&device));
    allocated_.record(stream);
    allocated_.make_wait(copy_.get());
    if (start_after) CUZK_CUDA_CHECK(cudaStreamWaitEvent(copy_.get(), start_after, 0));
    done_ = std::async(std::launch::async, [this, host, count, device] {
      CUZK_CUDA_CHECK(cudaSetDevice(device));
      points_.upload(host, count, copy_.get());
      ready_.record(copy_.get());
    });
  }
  // Waits for the copy on every path (a failed proof included) before the buffer and the stream go. The
  // buffer is freed in the allocating stream's order, after the MSM that read it.
  ~PointHeadUpload() {
    if (done_.valid()) done_.wait();
    cudaStreamSynchronize(copy_.get());
  }
  PointHeadUpload(const PointHeadUpload&) = delete;
  PointHeadUpload& operator=(const PointHeadUpload&) = delete;

  std::size_t bytes() const { return points_.size() * sizeof(ec::Affine<C>); }

  // The head, for the MSM that reads it (its streams wait for the copy); rethrows the copy's error.
  msm::gpu::DeviceHead<C> take() {
    if (done_.valid()) done_.get();
    return {points_.data(), points_.size(), ready_.get()};
  }

 private:
  cuda::DeviceBuffer<ec::Affine<C>> points_;
  cuda::Stream copy_;
  cuda::Event allocated_{false}, ready_{false};
  std::future<void> done_;
};

// The room for a head started while an MSM runs (from its after_allocation or after_uploads hook): what is
// free now less the MSM's `later_bytes`, and what comes back once it ends: its buffers (what it took of
// `free_before`, measured before it began) and `held` bytes its caller frees with it.
struct HeadRoom {
  std::size_t free_now, freed_later;
};
inline HeadRoom head_room_beside_msm(std::size_t free_before, std::size_t later_bytes, std::size_t held) {
  const std::size_t available = cuda::vram_available();
  return {available > later_bytes ? available - later_bytes : 0,
          held + (free_before > available ? free_before - available : 0)};
}

// Starts `head` with points [0, count) of `host` where count > 0 and the device has the room: refused
// (another worker took it meanwhile), `head` stays empty and the MSM streams those points as it would have.
template <class C>
void try_start_head(std::optional<PointHeadUpload<C>>& head, const ec::Affine<C>* host, std::size_t count,
                    cudaStream_t stream, cudaEvent_t start_after = nullptr) {
  if (count == 0) return;
  try {
    head.emplace(host, count, stream, start_after);
  } catch (const cuda::CudaError& e) {
    if (e.kind() != cuda::CudaError::Kind::out_of_memory) throw;
  }
}

// The next query's head, started while an MSM runs (a streamed proof's witness side: the L query's during the
// A query's MSM, the B query's during L's and B's G1 MSM): sized once that MSM holds its buffers, what it
// still allocates left free (Options::after_allocation), its copy queued after that MSM's last upload
// (Options::after_uploads), so that it takes the bus only once the MSM no longer needs it: started with the
// MSM's allocation it shared the bus with the MSM's own slices and cost that MSM more than it saved the next.
// (The MSM used to end only once the head was up: its streamed points' buffers were freed by cudaFree, which
// waits for every stream; they are stream-ordered now, bench/RESULTS.md 2026-12-07.) The L query's head is on
// by default, the B query's off (bellperson_plan.hpp). Stays where it is while the MSM runs (the hooks point
// to it).
template <class C>
class NextHead {
 public:
  // Hooks into `options`: `held`, what the caller frees with the MSM; `count(HeadRoom)`, how many points of
  // `host` to take then.
  template <class Count>
  void hook(msm::gpu::Options& options, const ec::Affine<C>* host, std::size_t held, Count count,
            cudaStream_t stream) {
    options.after_allocation = [this](std::size_t later) { msm_later_ = later; };
    options.after_uploads = [this, host, held, count, stream,
                             free_before = cuda::vram_available()](cudaEvent_t uploaded) {
      try_start_head(head_, host, count(head_room_beside_msm(free_before, msm_later_, held)), stream,
                     uploaded);
    };
  }
  // For the MSM that reads the head (none: an empty one).
  msm::gpu::DeviceHead<C> take() { return head_ ? head_->take() : msm::gpu::DeviceHead<C>{}; }
  std::size_t bytes() const { return head_ ? head_->bytes() : 0; }
  // In the stream's order, after the MSM that read it.
  void reset() { head_.reset(); }

 private:
  std::optional<PointHeadUpload<C>> head_;
  std::size_t msm_later_ = 0;
};

}  // namespace cuzk::groth16::gpu
