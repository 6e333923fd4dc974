#include "cuda/shared_device_memory.hpp"

#include <cuda.h>
#include <cudaTypedefs.h>
#include <unistd.h>

#include <cstdint>
#include <mutex>
#include <string>

#include "cuda/error.hpp"
#include "cuda/vram.hpp"

namespace cuzk::cuda {

namespace {

// The driver's virtual memory calls, looked up once.
struct Driver {
  PFN_cuMemCreate_v10020 create = nullptr;
  PFN_cuMemRelease_v10020 release = nullptr;
  PFN_cuMemExportToShareableHandle_v10020 export_handle = nullptr;
  PFN_cuMemImportFromShareableHandle_v10020 import_handle = nullptr;
  PFN_cuMemAddressReserve_v10020 reserve = nullptr;
  PFN_cuMemAddressFree_v10020 address_free = nullptr;
  PFN_cuMemMap_v10020 map = nullptr;
  PFN_cuMemUnmap_v10020 unmap = nullptr;
  PFN_cuMemSetAccess_v10020 set_access = nullptr;
  PFN_cuMemGetAllocationGranularity_v10020 granularity = nullptr;
  PFN_cuDeviceGetAttribute_v2000 attribute = nullptr;
  bool complete = false;
};

template <class F>
bool lookup(const char* symbol, F& f) {
  void* p = nullptr;
  cudaDriverEntryPointQueryResult found{};
  if (cudaGetDriverEntryPointByVersion(symbol, &p, 12000, cudaEnableDefault, &found) != cudaSuccess ||
      found != cudaDriverEntryPointSuccess || p == nullptr) {
    (void)cudaGetLastError();
    return false;
  }
  f = reinterpret_cast<F>(p);
  return true;
}

const Driver& driver() {
  static const Driver d = [] {
    Driver r;
    r.complete = lookup("cuMemCreate", r.create) && lookup("cuMemRelease", r.release) &&
                 lookup("cuMemExportToShareableHandle", r.export_handle) &&
                 lookup("cuMemImportFromShareableHandle", r.import_handle) &&
                 lookup("cuMemAddressReserve", r.reserve) && lookup("cuMemAddressFree", r.address_free) &&
                 lookup("cuMemMap", r.map) && lookup("cuMemUnmap", r.unmap) &&
                 lookup("cuMemSetAccess", r.set_access) &&
                 lookup("cuMemGetAllocationGranularity", r.granularity) &&
                 lookup("cuDeviceGetAttribute", r.attribute);
    return r;
  }();
  return d;
}

// The driver's result as the runtime's error (their numbers agree for the errors that matter here: out of
// memory, and the sticky ones).
[[noreturn]] void fail(CUresult r, const std::string& call) {
  const auto code = static_cast<cudaError_t>(r);
  throw CudaError(code, call + " failed: CUDA driver error " + std::to_string(static_cast<int>(r)) + " (" +
                            cudaGetErrorName(code) + ")");
}

CUmemAllocationProp properties(int device) {
  CUmemAllocationProp p{};
  p.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  p.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  p.location.id = device;
  p.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
  return p;
}

int current_device() {
  int d = 0;
  CUZK_CUDA_CHECK(cudaGetDevice(&d));
  return d;
}

}  // namespace

bool SharedDeviceMemory::supported() {
  const Driver& d = driver();
  if (!d.complete) return false;
  int vmm = 0, fd = 0;
  const int device = current_device();
  if (d.attribute(&vmm, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, device) != CUDA_SUCCESS ||
      d.attribute(&fd, CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED, device) !=
          CUDA_SUCCESS)
    return false;
  return vmm != 0 && fd != 0;
}

std::size_t SharedDeviceMemory::rounded(std::size_t bytes) {
  const Driver& d = driver();
  if (!d.complete) throw CudaError(cudaErrorNotSupported, "exportable device memory: the driver lacks it");
  const CUmemAllocationProp p = properties(current_device());
  std::size_t g = 0;
  if (const CUresult r = d.granularity(&g, &p, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED); r != CUDA_SUCCESS)
    fail(r, "cuMemGetAllocationGranularity");
  if (g == 0) g = std::size_t(2) << 20;
  return (bytes + g - 1) / g * g;
}

std::unique_ptr<SharedDeviceMemory> SharedDeviceMemory::create(std::size_t bytes) {
  const Driver& d = driver();
  const std::size_t size = rounded(bytes);
  const std::string what = "exportable allocation of " + std::to_string(size) + " bytes";
  std::unique_ptr<SharedDeviceMemory> m(new SharedDeviceMemory);
  int device = 0;
  vram_admit(size, &device, what);
  const CUmemAllocationProp p = properties(device);
  CUmemGenericAllocationHandle h = 0;
  if (const CUresult r = d.create(&h, size, &p, 0); r != CUDA_SUCCESS) {
    const auto code = r == CUDA_ERROR_OUT_OF_MEMORY ? cudaErrorMemoryAllocation : static_cast<cudaError_t>(r);
    vram_admit_failed(size, device, code, "cuMemCreate (" + what + ")");
  }
  m->handle_ = h;
  m->bytes_ = size;
  m->device_ = device;  // counted from here: the destructor uncounts
  m->map(device);
  return m;
}

std::unique_ptr<SharedDeviceMemory> SharedDeviceMemory::import(int fd, std::size_t bytes) {
  const Driver& d = driver();
  if (!d.complete) throw CudaError(cudaErrorNotSupported, "exportable device memory: the driver lacks it");
  std::unique_ptr<SharedDeviceMemory> m(new SharedDeviceMemory);
  CUmemGenericAllocationHandle h = 0;
  if (const CUresult r = d.import_handle(&h, reinterpret_cast<void*>(static_cast<std::intptr_t>(fd)),
                                         CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
      r != CUDA_SUCCESS)
    fail(r, "cuMemImportFromShareableHandle");
  m->handle_ = h;
  m->bytes_ = bytes;
  int device = 0;
  vram_count_mapped(bytes, &device);
  m->device_ = device;
  m->map(device);
  return m;
}

void SharedDeviceMemory::map(int device) {
  const Driver& d = driver();
  CUdeviceptr va = 0;
  if (const CUresult r = d.reserve(&va, bytes_, 0, 0, 0); r != CUDA_SUCCESS) fail(r, "cuMemAddressReserve");
  address_ = static_cast<std::uintptr_t>(va);
  if (const CUresult r = d.map(va, bytes_, 0, handle_, 0); r != CUDA_SUCCESS) fail(r, "cuMemMap");
  mapped_ = true;
  CUmemAccessDesc access{};
  access.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  access.location.id = device;
  access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  if (const CUresult r = d.set_access(va, bytes_, &access, 1); r != CUDA_SUCCESS) fail(r, "cuMemSetAccess");
}

SharedDeviceMemory::~SharedDeviceMemory() {
  const Driver& d = driver();
  // Work still queued on this memory must finish before it is unmapped (cudaFree would wait likewise).
  if (address_ != 0) (void)cudaDeviceSynchronize();
  if (mapped_) (void)d.unmap(static_cast<CUdeviceptr>(address_), bytes_);
  if (address_ != 0) (void)d.address_free(static_cast<CUdeviceptr>(address_), bytes_);
  if (handle_ != 0) (void)d.release(handle_);
  if (device_ >= 0) vram_uncount(bytes_, device_);
  (void)cudaGetLastError();
}

io::kept::UniqueFd SharedDeviceMemory::export_fd() const {
  int fd = -1;
  if (const CUresult r = driver().export_handle(&fd, handle_, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0);
      r != CUDA_SUCCESS)
    fail(r, "cuMemExportToShareableHandle");
  return io::kept::UniqueFd(fd);
}

}  // namespace cuzk::cuda
