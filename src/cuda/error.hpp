// CUDA error reporting for the whole GPU layer: every failing CUDA call becomes a CudaError that names
// the call, where it was made and what CUDA said, and carries a Kind that tells the caller what it can
// still do:
//
//   out_of_memory  recoverable: free something, fall back to a smaller-footprint path or retry later
//   sticky         the CUDA context is poisoned (illegal address, launch failure, ECC, hardware
//                  exception…); every later call fails the same way, so the device worker must be
//                  retired and recreated — retrying on this context is pointless
//   no_device      no usable GPU (no driver, driver too old, no device visible, all devices busy)
//   other          any other failure, usually a bug in the caller (invalid argument, bad handle, …)
//
// Nothing here aborts: a proving service must survive a bad job, so errors are always thrown.
#pragma once

#include <cuda_runtime_api.h>

#include <source_location>
#include <stdexcept>
#include <string>

namespace cuzk::cuda {

class CudaError : public std::runtime_error {
 public:
  enum class Kind {
    out_of_memory,
    sticky,  // context poisoned: illegal address, launch failure, ECC, hardware exceptions — the worker
             // must be recreated
    no_device,
    other,
  };

  // `what` is the full message; use throw_error()/CUZK_CUDA_CHECK to get the standard one.
  CudaError(cudaError_t code, const std::string& what);

  cudaError_t code() const noexcept { return code_; }
  Kind kind() const noexcept { return kind_; }

 private:
  cudaError_t code_;
  Kind kind_;
};

// Which Kind a CUDA error code belongs to. cudaSuccess maps to `other` (it is not an error at all, and a
// caller asking is confused).
CudaError::Kind classify(cudaError_t code) noexcept;

// "out_of_memory", "sticky", "no_device", "other": for logs and metric labels.
const char* to_string(CudaError::Kind kind) noexcept;

// Throws CudaError for the failed `call` (source text or a description such as "cudaMalloc of 64 bytes")
// with the message "<call> failed at <file>:<line>: <cudaGetErrorString> (<cudaGetErrorName>)".
//
// Before throwing it clears CUDA's per-thread "last error" for non-sticky codes: a failed cudaMalloc
// leaves cudaErrorMemoryAllocation there, and the next check_last_launch() would otherwise blame an
// innocent kernel launch for an out-of-memory that was already reported and handled. Sticky errors
// cannot be cleared and keep being reported, which is what we want.
[[noreturn]] void throw_error(cudaError_t code, const char* call, const char* file, int line);
[[noreturn]] void throw_error(cudaError_t code, const std::string& call, const char* file, int line);

// Call right after a kernel launch: <<<>>> returns nothing, so configuration errors (too many threads,
// too much shared memory, no kernel image for this GPU) only show up in cudaGetLastError. Faults inside
// the kernel are asynchronous and surface later, at the next synchronizing call. `what` names the
// kernel in the message.
void check_last_launch(const char* what, std::source_location where = std::source_location::current());

// For destructors, which must never throw: reports a failed release on stderr (the first one per
// process only — after a sticky error every release fails and would flood the log) and clears the last
// error as throw_error does.
void report_release_error(cudaError_t code, const char* call) noexcept;

}  // namespace cuzk::cuda

// Evaluates a CUDA runtime call once and throws CudaError naming it if it did not return cudaSuccess.
#define CUZK_CUDA_CHECK(call)                                                        \
  do {                                                                               \
    const cudaError_t cuzk_cuda_check_status_ = (call);                              \
    if (cuzk_cuda_check_status_ != cudaSuccess) [[unlikely]]                         \
      ::cuzk::cuda::throw_error(cuzk_cuda_check_status_, #call, __FILE__, __LINE__); \
  } while (0)
