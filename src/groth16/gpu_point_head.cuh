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

}  // namespace cuzk::groth16::gpu
