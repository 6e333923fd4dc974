// Device memory another process can map: allocated with CUDA's virtual memory calls (cuMemCreate) as
// exportable to a POSIX file descriptor. The memory lives while any process holds that descriptor or a
// mapping made from it, so a process that fills it may die and another map it again (io/kept_memory.hpp:
// the daemon holds the descriptors of its worker processes' key arrays).
//
// The driver's calls are reached through cudaGetDriverEntryPointByVersion, so nothing here links libcuda
// itself (the runtime loads it as before). Where the device or driver cannot export memory (WSL, old
// drivers), supported() says so and callers use DeviceBuffer instead.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <memory>

#include "io/kept_memory.hpp"

namespace cuzk::cuda {

class SharedDeviceMemory {
 public:
  // Whether the current device can export and import memory as file descriptors.
  static bool supported();
  // `bytes` rounded up to the size exportable allocations come in on the current device.
  static std::size_t rounded(std::size_t bytes);

  // Allocates rounded(bytes) on the current device, counted and refused by the VRAM policy like a cudaMalloc
  // (cuda/vram.hpp). Throws CudaError: kind out_of_memory when refused or the device is full.
  static std::unique_ptr<SharedDeviceMemory> create(std::size_t bytes);
  // Maps memory that create() made, in this or another process, from a descriptor of it (exported by
  // export_fd; the caller keeps its descriptor). `bytes` is its rounded size. Counted, never refused.
  // Throws CudaError.
  static std::unique_ptr<SharedDeviceMemory> import(int fd, std::size_t bytes);

  ~SharedDeviceMemory();  // unmaps; the memory is freed once no descriptor or mapping of it is left
  SharedDeviceMemory(const SharedDeviceMemory&) = delete;
  SharedDeviceMemory& operator=(const SharedDeviceMemory&) = delete;

  // A new descriptor of the memory, for another process. Throws CudaError.
  io::kept::UniqueFd export_fd() const;
  void* data() const noexcept { return reinterpret_cast<void*>(address_); }
  std::size_t bytes() const noexcept { return bytes_; }

 private:
  SharedDeviceMemory() = default;
  void map(int device);  // reserves an address range for handle_ and maps it, readable and writable

  unsigned long long handle_ = 0;  // CUmemGenericAllocationHandle
  std::uintptr_t address_ = 0;     // CUdeviceptr; 0 until mapped
  bool mapped_ = false;
  std::size_t bytes_ = 0;
  int device_ = -1;  // counted on this device's VRAM account once set
};

}  // namespace cuzk::cuda
