// HostRegistry: the one place where long-lived host ranges are page-locked for the GPU.
//
// cudaHostRegister refuses a range that overlaps one already registered, and the original system failed
// exactly there: two workers registering the same proving key, and a failed registration's cleanup
// unlocking pages the other worker still copied from. Here every holder of a range shares one
// registration with a reference count: the repository (which pins a key when it loads it) and every
// worker that streams that key get the same lock, and the pages are unlocked when the last holder lets go.
// A range that overlaps a different registered range is not registered at all (nullptr): it stays
// pageable, which only makes its copies slower.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "cuda/error.hpp"
#include "cuda/host_registration.hpp"

namespace cuzk::cuda {

class HostRegistry {
 public:
  // The process's registry.
  static HostRegistry& instance();

  // Page-locks [ptr, ptr + bytes), or shares the registration already held on exactly that range. The
  // handle keeps the pages locked; nullptr when the range overlaps another registered range or bytes == 0.
  // Throws CudaError when CUDA refuses (e.g. the OS's locked-memory limit).
  std::shared_ptr<void> pin(const void* ptr, std::size_t bytes, unsigned flags = cudaHostRegisterPortable);

  // pin() for a vector a GPU key streams from, the lock kept in `locks`. A range CUDA refuses to lock stays
  // pageable: slower copies, same results.
  template <class T>
  void pin_if_possible(const T& v, std::vector<std::shared_ptr<void>>& locks) {  // a vector or HostArray
    try {
      if (auto lock = pin(v.data(), v.size() * sizeof(v[0]))) locks.push_back(std::move(lock));
    } catch (const CudaError&) {
    }
  }

  // After cudaDeviceReset (cuda::reset_device): ranges whose registration went with the destroyed context
  // are registered again, so holders keep full-speed copies. Returns how many were; a range CUDA now
  // refuses stays pageable (its copies still work, slower).
  std::size_t restore_after_reset();

  std::size_t registered_bytes() const;
  std::size_t ranges() const;

 private:
  struct Entry {
    HostRegistration registration;
    long holders = 0;
    unsigned flags = 0;
    std::size_t bytes = 0;
  };
  void release(std::uintptr_t start) noexcept;

  mutable std::mutex mutex_;
  std::map<std::uintptr_t, Entry> ranges_;  // by start address
};

}  // namespace cuzk::cuda
