// HostRegistration: page-locks an existing host range (cudaHostRegister) for as long as the object
// lives, and unlocks it (cudaHostUnregister) when it goes out of scope.
//
// This is how memory we did not allocate — a std::vector, a memory-mapped proving key — gets the
// asynchronous, full-bandwidth copies of pinned memory without being copied into a PinnedBuffer first.
// Registering costs time proportional to the size (every page is locked), so register long-lived ranges
// once, not per copy. The range must outlive the registration; a read-only mapping needs
// cudaHostRegisterReadOnly, or CUDA refuses it.
//
// Move-only; the destructor never throws.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <span>
#include <string>
#include <utility>

#include "cuda/error.hpp"

namespace cuzk::cuda {

// Whether `p` lies in page-locked host memory (registered or pinned), according to CUDA itself rather than
// to our bookkeeping: the GPU then reads it directly. Never throws.
inline bool is_page_locked(const void* p) noexcept {
  cudaPointerAttributes attr{};
  const bool locked = cudaPointerGetAttributes(&attr, p) == cudaSuccess && attr.type == cudaMemoryTypeHost;
  (void)cudaGetLastError();  // older runtimes leave an error behind for an unregistered pointer
  return locked;
}

class HostRegistration {
 public:
  HostRegistration() noexcept = default;

  // Registers [ptr, ptr + bytes); bytes == 0 registers nothing. `flags` are cudaHostRegister* flags.
  // Throws CudaError, e.g. cudaErrorHostMemoryAlreadyRegistered when the range overlaps another
  // registration (kind other) or out_of_memory when the OS refuses to lock more memory.
  HostRegistration(void* ptr, std::size_t bytes, unsigned int flags = cudaHostRegisterDefault) {
    if (bytes == 0) return;
    if (const cudaError_t code = cudaHostRegister(ptr, bytes, flags); code != cudaSuccess)
      throw_error(code, "cudaHostRegister of " + std::to_string(bytes) + " bytes", __FILE__, __LINE__);
    ptr_ = ptr;
    bytes_ = bytes;
  }

  // Registers the memory behind a span. A span of const T is fine (registering only locks the pages);
  // pass cudaHostRegisterReadOnly when the pages themselves are read-only, e.g. a PROT_READ mapping.
  template <class T>
  explicit HostRegistration(std::span<T> range, unsigned int flags = cudaHostRegisterDefault)
      : HostRegistration(const_cast<void*>(static_cast<const void*>(range.data())), range.size_bytes(),
                         flags) {}

  ~HostRegistration() { reset(); }

  HostRegistration(HostRegistration&& other) noexcept
      : ptr_(std::exchange(other.ptr_, nullptr)), bytes_(std::exchange(other.bytes_, 0)) {}
  HostRegistration& operator=(HostRegistration&& other) noexcept {
    if (this != &other) {
      reset();
      ptr_ = std::exchange(other.ptr_, nullptr);
      bytes_ = std::exchange(other.bytes_, 0);
    }
    return *this;
  }
  HostRegistration(const HostRegistration&) = delete;
  HostRegistration& operator=(const HostRegistration&) = delete;

  // Unregisters now; the range itself is untouched and stays valid.
  void reset() noexcept {
    if (ptr_ == nullptr) return;
    if (const cudaError_t code = cudaHostUnregister(ptr_); code != cudaSuccess)
      report_release_error(code, "cudaHostUnregister");
    ptr_ = nullptr;
    bytes_ = 0;
  }

  // After a device reset took the registration with its context: forget it without unregistering, so
  // the range can be registered again (HostRegistry::restore_after_reset).
  void abandon() noexcept {
    ptr_ = nullptr;
    bytes_ = 0;
  }

  void* data() const noexcept { return ptr_; }
  std::size_t bytes() const noexcept { return bytes_; }
  bool empty() const noexcept { return bytes_ == 0; }

 private:
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
};

}  // namespace cuzk::cuda
