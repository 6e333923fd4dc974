#include "cuda/error.hpp"

#include <atomic>
#include <cstdio>

namespace cuzk::cuda {

CudaError::CudaError(cudaError_t code, const std::string& what)
    : std::runtime_error(what), code_(code), kind_(classify(code)) {}

CudaError::Kind classify(cudaError_t code) noexcept {
  switch (code) {
    // Device memory (cudaMalloc) or page-locked host memory (cudaMallocHost, cudaHostRegister) is
    // exhausted. The context stays usable.
    case cudaErrorMemoryAllocation:
      return CudaError::Kind::out_of_memory;

    // The driver documents each of these as leaving the process "in an inconsistent state": every
    // further CUDA call returns the same error until the process is restarted. The GPU itself may be
    // fine (the ECC/NVLink/contained cases are the exception), but this process's context is not.
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorLaunchTimeout:
    case cudaErrorAssert:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorTensorMemoryLeak:
    case cudaErrorECCUncorrectable:
    case cudaErrorNvlinkUncorrectable:
    case cudaErrorContained:
    case cudaErrorMpsClientTerminated:
    case cudaErrorExternalDevice:
      return CudaError::Kind::sticky;

    // No GPU can be used by this process at all: no driver (this is what a GPU-less host returns), a
    // driver older than the runtime, the stub libcuda, no device visible (CUDA_VISIBLE_DEVICES), all
    // devices in exclusive mode and taken, or a driver stack that is not ready.
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver:
    case cudaErrorStubLibrary:
    case cudaErrorDevicesUnavailable:
    case cudaErrorSystemDriverMismatch:
    case cudaErrorSystemNotReady:
    case cudaErrorCompatNotSupportedOnDevice:
      return CudaError::Kind::no_device;

    default:
      return CudaError::Kind::other;
  }
}

const char* to_string(CudaError::Kind kind) noexcept {
  switch (kind) {
    case CudaError::Kind::out_of_memory:
      return "out_of_memory";
    case CudaError::Kind::sticky:
      return "sticky";
    case CudaError::Kind::no_device:
      return "no_device";
    case CudaError::Kind::other:
      return "other";
  }
  return "other";
}

namespace {

// Non-sticky errors stay in the per-thread last-error slot until read; read them so they are not
// reported a second time by an unrelated check_last_launch(). Harmless for sticky errors.
void clear_last_error(cudaError_t code) noexcept {
  if (classify(code) != CudaError::Kind::sticky) (void)cudaGetLastError();
}

std::string message(cudaError_t code, const std::string& call, const char* file, unsigned line) {
  std::string m = call;
  m += " failed at ";
  m += file;
  m += ':';
  m += std::to_string(line);
  m += ": ";
  m += cudaGetErrorString(code);
  m += " (";
  m += cudaGetErrorName(code);
  m += ')';
  return m;
}

}  // namespace

void throw_error(cudaError_t code, const std::string& call, const char* file, int line) {
  clear_last_error(code);
  throw CudaError(code, message(code, call, file, static_cast<unsigned>(line)));
}

void throw_error(cudaError_t code, const char* call, const char* file, int line) {
  throw_error(code, std::string(call), file, line);
}

void check_last_launch(const char* what, std::source_location where) {
  const cudaError_t code = cudaGetLastError();
  if (code == cudaSuccess) [[likely]]
    return;
  throw_error(code, std::string("kernel launch ") + what, where.file_name(), static_cast<int>(where.line()));
}

void report_release_error(cudaError_t code, const char* call) noexcept {
  clear_last_error(code);
  static std::atomic<bool> reported{false};
  if (reported.exchange(true, std::memory_order_relaxed)) return;
  std::fprintf(stderr, "cuzk: %s failed in a destructor: %s (%s); further release errors are not logged\n",
               call, cudaGetErrorString(code), cudaGetErrorName(code));
}

}  // namespace cuzk::cuda
