// A proving key's array on the device, kept across worker processes (io/kept_memory.hpp): the first worker
// process uploads it into exportable memory (cuda/shared_device_memory.hpp) and hands the daemon a
// descriptor of it; a replacement (after a sticky fault, a crash, SIGKILL) maps that memory and checks its
// checksum on the device instead of uploading the array again. Without a keeper (thread isolation, the CLI,
// the C ABI), or where the device cannot export memory, it is an ordinary upload.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "cuda/device_buffer.hpp"
#include "cuda/staged_upload.hpp"

namespace cuzk::cuda {

class SharedDeviceMemory;

// Whether arrays named here are kept: this process has a keeper and its current device can export memory.
bool keeping_arrays();

// The kept memory named `name` holding `bytes` bytes: mapped and checked when the keeper has it (*reused
// set), else allocated, filled by fill(device pointer) on `stream`, checksummed and handed to the keeper.
// nullptr when keeping is off or failed for a reason other than memory (the caller uploads as usual; the
// reason is said once on stderr). Throws CudaError out_of_memory when the device has no room, and sticky
// errors, as an upload would.
std::shared_ptr<SharedDeviceMemory> kept_memory(const std::string& name, std::size_t bytes,
                                                cudaStream_t stream, const std::function<void(void*)>& fill,
                                                bool* reused);
void* kept_data(const SharedDeviceMemory& m);

// Bytes the keeper holds under names starting with `prefix`, and the release of them (the memory is freed
// once no process maps it). Without a keeper, or when it cannot be reached: 0, nothing. Never throw.
std::size_t kept_bytes(const std::string& prefix) noexcept;
void drop_kept(const std::string& prefix) noexcept;
// Drops what the keeper holds under names that start with none of `prefixes`; returns the bytes dropped.
std::size_t retain_kept(const std::vector<std::string>& prefixes) noexcept;

// The name a key's query is kept under: "<keep_as>/<query>"; empty (not kept) when keep_as is, as for the
// CLI's and the C ABI's keys, which no keeper holds.
inline std::string kept_name(const std::string& keep_as, std::string_view query) {
  return keep_as.empty() ? std::string() : keep_as + "/" + std::string(query);
}

// host[0, n) on the device: from the keeper under `name` when keeping (name non-empty), else uploaded into
// an ordinary DeviceBuffer. V is a vector or HostArray of trivially copyable T.
template <class V, class T = std::remove_cvref_t<decltype(std::declval<const V&>()[0])>>
DeviceBuffer<T> kept_or_uploaded(const std::string& name, const V& host, cudaStream_t stream,
                                 bool* reused = nullptr) {
  const std::size_t n = host.size();
  if (!name.empty() && n > 0 && keeping_arrays()) {
    bool was_kept = false;
    auto m = kept_memory(
        name, n * sizeof(T), stream,
        [&](void* device) { StagedUpload().copy(device, host.data(), n * sizeof(T), stream); }, &was_kept);
    if (m) {
      if (reused) *reused = was_kept;
      T* data = static_cast<T*>(kept_data(*m));
      return DeviceBuffer<T>::view(std::move(m), data, n);
    }
  }
  if (reused) *reused = false;
  DeviceBuffer<T> d(n);
  StagedUpload().upload(d, host.data(), n, stream);
  return d;
}

}  // namespace cuzk::cuda
