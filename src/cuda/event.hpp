// Event: the owner of one cudaEvent_t — a marker in a stream, used to time GPU work and to order work
// across streams without blocking the host.
#pragma once

#include <cuda_runtime_api.h>

#include <utility>

#include "cuda/error.hpp"

namespace cuzk::cuda {

class Event {
 public:
  // Timing events can be passed to elapsed_ms(); pass timing = false for events used only for
  // synchronisation, which CUDA records more cheaply.
  explicit Event(bool timing = true) {
    CUZK_CUDA_CHECK(cudaEventCreateWithFlags(&event_, timing ? cudaEventDefault : cudaEventDisableTiming));
  }

  ~Event() { destroy(); }

  Event(Event&& other) noexcept : event_(std::exchange(other.event_, nullptr)) {}
  Event& operator=(Event&& other) noexcept {
    if (this != &other) {
      destroy();
      event_ = std::exchange(other.event_, nullptr);
    }
    return *this;
  }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;

  cudaEvent_t get() const noexcept { return event_; }

  // Marks the current end of `stream`: the event completes when all work queued before it has.
  void record(cudaStream_t stream) { CUZK_CUDA_CHECK(cudaEventRecord(event_, stream)); }

  // Makes `stream` wait, on the device, until this event completes (cross-stream dependency); the host
  // does not block.
  void make_wait(cudaStream_t stream) const { CUZK_CUDA_CHECK(cudaStreamWaitEvent(stream, event_, 0)); }

  // Blocks the host until the event completes; asynchronous faults of the work before it surface here.
  void synchronize() const { CUZK_CUDA_CHECK(cudaEventSynchronize(event_)); }

  // True when the event has completed (or was never recorded); does not block.
  bool ready() const {
    const cudaError_t code = cudaEventQuery(event_);
    if (code == cudaErrorNotReady) return false;
    CUZK_CUDA_CHECK(code);
    return true;
  }

  // Milliseconds of GPU time between `start` and `end` (about 0.5 µs resolution). Both must be timing
  // events that were recorded and have completed — synchronize `end` first — otherwise CudaError.
  static float elapsed_ms(const Event& start, const Event& end) {
    float ms = 0.0f;
    CUZK_CUDA_CHECK(cudaEventElapsedTime(&ms, start.event_, end.event_));
    return ms;
  }

 private:
  void destroy() noexcept {
    if (event_ == nullptr) return;
    if (const cudaError_t code = cudaEventDestroy(event_); code != cudaSuccess)
      report_release_error(code, "cudaEventDestroy");
    event_ = nullptr;
  }

  cudaEvent_t event_ = nullptr;
};

}  // namespace cuzk::cuda
