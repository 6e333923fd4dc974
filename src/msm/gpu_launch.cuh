// Launch shape and point type shared by the GPU MSM's kernels (msm/gpu_impl.cuh and the headers it includes;
// instantiated per curve in gpu_<curve>.cu, so everything here has internal linkage).
#pragma once

#include <cstddef>
#include <cstdint>

#include "ec/point.hpp"

namespace cuzk::msm::gpu {
namespace {

constexpr unsigned kThreads = 128;
constexpr std::uint32_t kSignBit = 0x80000000u;

template <class C>
using Xyzz = ec::XYZZ<C>;

unsigned blocks_for(std::size_t items) {
  return static_cast<unsigned>((items + kThreads - 1) / kThreads);
}

}  // namespace
}  // namespace cuzk::msm::gpu
