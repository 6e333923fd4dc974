// Stream: the owner of one cudaStream_t.
//
// Created non-blocking: the legacy default stream (stream 0, used implicitly by synchronous cudaMemcpy,
// cudaMemset and by libraries) would otherwise serialise with every one of our streams, and one careless
// call would silently stall the whole copy/compute pipeline.
#pragma once

#include <cuda_runtime_api.h>

#include <utility>

#include "cuda/error.hpp"

namespace cuzk::cuda {

class Stream {
 public:
  // Creates a stream on the current device. `priority` follows CUDA: lower numbers are more urgent; 0 is
  // the default and is clamped by CUDA into the device's supported range.
  explicit Stream(int priority = 0) {
    CUZK_CUDA_CHECK(cudaStreamCreateWithPriority(&stream_, cudaStreamNonBlocking, priority));
  }

  // cudaStreamDestroy returns at once; work already queued still completes before CUDA releases the
  // stream, so destroying a busy stream is safe.
  ~Stream() { destroy(); }

  Stream(Stream&& other) noexcept : stream_(std::exchange(other.stream_, nullptr)) {}
  Stream& operator=(Stream&& other) noexcept {
    if (this != &other) {
      destroy();
      stream_ = std::exchange(other.stream_, nullptr);
    }
    return *this;
  }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  // After cudaDeviceReset the handle belongs to a context that no longer exists: forget it without
  // destroying it (cuda::reset_device).
  void abandon() noexcept { stream_ = nullptr; }

  // nullptr only for a moved-from Stream — which CUDA would read as the legacy default stream.
  cudaStream_t get() const noexcept { return stream_; }

  // Blocks until all work queued so far has finished. This is where asynchronous faults of earlier
  // kernels and copies surface: a sticky CudaError here means the context is lost.
  void synchronize() const { CUZK_CUDA_CHECK(cudaStreamSynchronize(stream_)); }

  // True when all work queued so far has finished; does not block.
  bool ready() const {
    const cudaError_t code = cudaStreamQuery(stream_);
    if (code == cudaErrorNotReady) return false;
    CUZK_CUDA_CHECK(code);
    return true;
  }

 private:
  void destroy() noexcept {
    if (stream_ == nullptr) return;
    if (const cudaError_t code = cudaStreamDestroy(stream_); code != cudaSuccess)
      report_release_error(code, "cudaStreamDestroy");
    stream_ = nullptr;
  }

  cudaStream_t stream_ = nullptr;
};

}  // namespace cuzk::cuda
