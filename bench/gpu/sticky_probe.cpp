// cuzk-bench sticky-probe: how this machine's CUDA driver lets a process come back from a sticky fault
// (a trapping kernel), which decides how the engine must recover (issue 5):
//   sticky-probe trap               poison the context with a trap, report the error, exit without a reset
//   sticky-probe wait SECONDS       from a fresh process: ms until a context and a kernel launch succeed
//   sticky-probe inprocess SECONDS  trap, cudaDeviceReset, then ms until a new context in this same process
// Run `trap` then `wait` back to back to learn whether a new process gets the GPU at once (then a GPU
// worker in a child process can be recreated), and `inprocess` to see how long the same process waits.
#include <cuda_runtime_api.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

#include "cuda/fault_injection.hpp"
#include "probe_support.hpp"

namespace cuzk::bench {
namespace {

// A trap on a fresh stream; returns the error the synchronisation reports.
cudaError_t trap() {
  cuda::configure_faults({}, {1, 0, 1});  // the next proof-point fires
  cudaStream_t s = nullptr;
  if (cudaError_t e = cudaStreamCreate(&s); e != cudaSuccess) return e;
  cuda::maybe_inject_sticky_fault(s);
  return cudaStreamSynchronize(s);
}

// Polls for a usable context (cudaFree(0), then a memset and a sync) until `seconds` pass.
int wait_for_context(Clock::time_point start, double seconds) {
  cudaError_t last = cudaSuccess;
  for (;;) {
    last = cudaSetDevice(0);
    if (last == cudaSuccess) last = cudaFree(nullptr);
    void* p = nullptr;
    if (last == cudaSuccess) last = cudaMalloc(&p, 1 << 20);
    if (last == cudaSuccess) last = cudaMemset(p, 1, 1 << 20);
    if (last == cudaSuccess) last = cudaDeviceSynchronize();
    if (p) cudaFree(p);
    if (last == cudaSuccess) {
      std::printf("context usable after %.0f ms\n", ms_since(start));
      return 0;
    }
    if (ms_since(start) > seconds * 1000) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  std::printf("no usable context after %.0f ms: %s (%s)\n", ms_since(start), cudaGetErrorName(last),
              cudaGetErrorString(last));
  return 1;
}

}  // namespace

int run_sticky_probe(int argc, char** argv) {
  const std::string mode = argc >= 1 ? argv[0] : "";
  const double seconds = argc >= 2 ? std::atof(argv[1]) : 60;
  if (mode == "trap") {
    const cudaError_t e = trap();
    std::printf("trap: %s (%s); exiting without a reset\n", cudaGetErrorName(e), cudaGetErrorString(e));
    return e == cudaSuccess ? 1 : 0;
  }
  if (mode == "wait") return wait_for_context(Clock::now(), seconds);
  if (mode == "inprocess") {
    const cudaError_t e = trap();
    std::printf("trap: %s\n", cudaGetErrorName(e));
    const auto start = Clock::now();
    const cudaError_t r = cudaDeviceReset();
    std::printf("cudaDeviceReset: %s after %.0f ms\n", cudaGetErrorName(r), ms_since(start));
    return wait_for_context(start, seconds);
  }
  std::fprintf(stderr, "usage: cuzk-bench sticky-probe trap | wait SECONDS | inprocess SECONDS\n");
  return 2;
}

}  // namespace cuzk::bench
