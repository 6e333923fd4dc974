// Which of this build's code a GPU runs, and which 381-bit multiply that code uses.
//
// A build carries machine code (SASS) for some architectures and PTX for others (CMAKE_CUDA_ARCHITECTURES,
// docs/gpu.md "Architectures"). On a GPU it has no machine code for, the driver compiles the PTX when the
// process first loads the kernels (and keeps the result in its JIT cache). The multiply form is fixed when
// the kernels are compiled, by the architecture they are compiled for (ff/mont_fp64.hpp): the FP64 form for
// sm_90 and sm_100, where the FP64 pipe is full rate, the integer form everywhere else. So a PTX build for
// an older architecture run on an H200 runs the integer form, as a consumer card would.
#pragma once

#include <string>

namespace cuzk::cuda {

struct DeviceCode {
  int cc_major = 0, cc_minor = 0;  // the GPU's compute capability
  int code_arch = 0;               // __CUDA_ARCH__ of the code it runs (e.g. 900, 890)
  int binary_version = 0;          // the machine code's architecture (cudaFuncAttributes: 90 for sm_90)
  int ptx_version = 0;             // the virtual architecture it was made from (89: compute_89)
  bool fp64_multiply = false;      // the 381-bit field multiplies on the FP64 pipe
  // Machine code the driver made from PTX at load time, rather than machine code the build carries.
  bool jit() const { return ptx_version != binary_version; }
  // "sm_90 machine code, FP64-pipe multiply" or "compute_89 PTX compiled by the driver for sm_90,
  // integer multiply".
  std::string describe() const;
};

// Runs a one-thread probe kernel on device `id` (loading this build's kernels there, which is when the
// driver compiles PTX if it must: the first call on a GPU without machine code may take minutes). Throws
// CudaError when the build has no code the GPU can run. The calling thread's current device is unchanged.
DeviceCode device_code(int id);

// The CUDA JIT cache size this process asks for when the environment does not set CUDA_CACHE_MAXSIZE: 1 GiB.
// cuzk's kernels for one architecture take ~18 MB there (measured on an H200: compute_89 PTX, every GPU
// test binary), within the driver's default (256 MiB; 32 MiB on old drivers), but that cache is shared
// with every other CUDA program of the user and each cuzk version adds its own: an evicted entry costs the
// next start ~30 s of compilation. Call before the first CUDA call of the process; returns the value in
// effect.
std::string ensure_jit_cache_size();

// CMAKE_CUDA_ARCHITECTURES of this build, e.g. "75-virtual,86-real,89-real,90-real,120-real".
const char* build_architectures();

}  // namespace cuzk::cuda
