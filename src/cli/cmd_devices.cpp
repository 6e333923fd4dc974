// cuzk info --devices: every GPU this build can see, and which of its code each one runs (machine code or
// PTX the driver compiles, and the multiply form), so an operator knows before proving whether a card runs
// what it should (docs/gpu.md, "Architectures").
#include <cstdio>
#include <iostream>

#include "cli/commands.hpp"

#ifdef CUZK_HAVE_CUDA
#include "cuda/device.hpp"
#include "cuda/device_code.hpp"
#include "cuda/error.hpp"
#endif

namespace cuzk::cli {

int run_info_devices() {
#ifdef CUZK_HAVE_CUDA
  cuda::ensure_jit_cache_size();
  const int n = cuda::device_count();
  std::cout << "CUDA backend, built for " << cuda::build_architectures() << "; " << n << " device"
            << (n == 1 ? "" : "s") << "\n";
  int failed = 0;
  for (int id = 0; id < n; ++id) {
    const cuda::DeviceInfo info = cuda::device_info(id);
    std::printf("GPU %d: %s, sm_%d%d, %d SMs, %.1f GiB: ", id, info.name.c_str(), info.cc_major,
                info.cc_minor, info.sm_count, double(info.total_mem) / double(1ull << 30));
    std::fflush(stdout);
    try {
      std::cout << cuda::device_code(id).describe() << "\n";
    } catch (const cuda::CudaError& e) {
      std::cout << "NO CODE THIS BUILD CAN RUN (" << e.what() << ")\n";
      ++failed;
    }
  }
  return failed ? kFailed : kOk;
#else
  std::cout << "this build has no CUDA backend (CPU only)\n";
  return kOk;
#endif
}

}  // namespace cuzk::cli
