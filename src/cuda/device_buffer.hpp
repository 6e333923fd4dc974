// DeviceBuffer<T>: the owner of one cudaMalloc'd array of n elements of T, allocated through the VRAM
// policy (cuda/vram.hpp), which counts it against this process's limit and may refuse it.
//
// A buffer made with a stream is stream-ordered: allocated from the device's pool in that stream's order and
// freed in it (cudaFreeAsync), so neither waits for other work on the device — a cudaFree waits for all of
// it, other workers' uploads included. Every use of such a buffer must be on its stream or ordered before
// the buffer's end by an event the stream waits for; the GPU region's temporaries (MSM buckets and sort
// arrays, the H stage's vectors, query scalars and classes) are made this way.
//
// Move-only, so exactly one object frees each allocation, and the allocation is released when the
// owner goes out of scope on every path, failed job included — device memory in use must return to its
// baseline after every job (the engine and the gpu tests check that with cudaMemGetInfo).
//
// Copies are asynchronous on the stream given; the host side must stay alive and unchanged until the
// stream reaches the copy. They are fully asynchronous only for page-locked host memory (PinnedBuffer,
// HostRegistration); from pageable memory CUDA stages through a bounce buffer and may block the caller.
// Every element range is bounds-checked (std::out_of_range) before CUDA is called: an out-of-range
// device write would otherwise be silent corruption or a sticky error that kills the whole context.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <utility>

#include "cuda/checked_size.hpp"
#include "cuda/error.hpp"
#include "cuda/vram.hpp"

namespace cuzk::cuda {

template <class T>
class DeviceBuffer {
  // Elements are moved by memcpy between host and device; nothing is constructed or destroyed on the
  // device.
  static_assert(std::is_trivially_copyable_v<T>, "DeviceBuffer holds trivially copyable types only");

 public:
  DeviceBuffer() noexcept = default;

  // Allocates n uninitialised elements on the current device; n == 0 allocates nothing. Throws CudaError
  // (kind out_of_memory when the device is full or the VRAM policy refuses) or std::length_error.
  explicit DeviceBuffer(std::size_t n) {
    if (n == 0) return;
    data_ = static_cast<T*>(vram_allocate(detail::checked_bytes<T>(n), &device_));
    size_ = n;
  }

  // Stream-ordered: n uninitialised elements usable by work on `stream` from this point of its order, freed
  // at the point of its order where the owner goes (plain cudaMalloc when CUZK_STREAM_ORDERED_ALLOC=0).
  DeviceBuffer(std::size_t n, cudaStream_t stream) {
    if (n == 0) return;
    data_ = static_cast<T*>(vram_allocate_on(detail::checked_bytes<T>(n), stream, &device_, &pool_context_));
    size_ = n;
    stream_ = stream;
  }

  // A view of n elements of device memory that `owner` keeps mapped (cuda/kept_array.hpp: key arrays the
  // daemon keeps for the next worker process); the owner does its own VRAM accounting, and the buffer's end
  // only lets go of it.
  static DeviceBuffer view(std::shared_ptr<void> owner, T* data, std::size_t n) {
    DeviceBuffer b;
    b.owner_ = std::move(owner);
    b.data_ = data;
    b.size_ = n;
    return b;
  }

  ~DeviceBuffer() { reset(); }

  DeviceBuffer(DeviceBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)),
        size_(std::exchange(other.size_, 0)),
        device_(other.device_),
        pool_context_(std::exchange(other.pool_context_, 0)),
        stream_(other.stream_),
        owner_(std::move(other.owner_)) {}
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    if (this != &other) {
      reset();
      data_ = std::exchange(other.data_, nullptr);
      size_ = std::exchange(other.size_, 0);
      device_ = other.device_;
      pool_context_ = std::exchange(other.pool_context_, 0);
      stream_ = other.stream_;
      owner_ = std::move(other.owner_);
    }
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  // Frees the memory now (e.g. to make room before falling back to a smaller path); the buffer becomes
  // empty. cudaFree waits for all work on the device, so memory still used by queued kernels or copies
  // is never released under them; a stream-ordered buffer is released when its stream gets here. Errors
  // (a poisoned context) are reported, never thrown.
  void reset() noexcept {
    if (data_ == nullptr) return;
    if (owner_)
      owner_.reset();
    else if (pool_context_ != 0)
      vram_release_on(data_, bytes(), device_, stream_, pool_context_);
    else
      vram_release(data_, bytes(), device_);
    data_ = nullptr;
    size_ = 0;
    pool_context_ = 0;
  }

  // A stream-ordered buffer is freed in `stream`'s order from now on (nothing changes for a cudaMalloc'd
  // one). The caller has made `stream` wait for every use on the buffer's stream so far (an event), as a
  // pre-staged input does when the proof on another stream takes it.
  void hand_to(cudaStream_t stream) noexcept {
    if (pool_context_ != 0) stream_ = stream;
  }

  T* data() noexcept { return data_; }
  const T* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }
  std::size_t bytes() const noexcept { return size_ * sizeof(T); }
  bool empty() const noexcept { return size_ == 0; }

  // Copies host[0, n) to elements [offset, offset + n) of this buffer.
  void upload(const T* host, std::size_t n, cudaStream_t stream, std::size_t offset = 0) {
    detail::check_range("DeviceBuffer::upload", offset, n, size_);
    if (n == 0) return;
    CUZK_CUDA_CHECK(cudaMemcpyAsync(data_ + offset, host, n * sizeof(T), cudaMemcpyHostToDevice, stream));
  }
  void upload(std::span<const T> host, cudaStream_t stream, std::size_t offset = 0) {
    upload(host.data(), host.size(), stream, offset);
  }

  // Copies elements [offset, offset + n) of this buffer to host[0, n).
  void download(T* host, std::size_t n, cudaStream_t stream, std::size_t offset = 0) const {
    detail::check_range("DeviceBuffer::download", offset, n, size_);
    if (n == 0) return;
    CUZK_CUDA_CHECK(cudaMemcpyAsync(host, data_ + offset, n * sizeof(T), cudaMemcpyDeviceToHost, stream));
  }
  void download(std::span<T> host, cudaStream_t stream, std::size_t offset = 0) const {
    download(host.data(), host.size(), stream, offset);
  }

  // Sets every byte of the buffer to (unsigned char)value, like memset.
  void memset_async(int value, cudaStream_t stream) {
    if (empty()) return;
    CUZK_CUDA_CHECK(cudaMemsetAsync(data_, value, bytes(), stream));
  }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
  int device_ = 0;                  // where it was allocated, for the VRAM account
  std::uint64_t pool_context_ = 0;  // from the pool (of that context), freed on stream_; 0: cudaMalloc'd
  cudaStream_t stream_ = nullptr;
  std::shared_ptr<void> owner_;  // a view's: what keeps its memory mapped
};

}  // namespace cuzk::cuda
