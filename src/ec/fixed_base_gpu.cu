#include <algorithm>
#include <stdexcept>
#include <string>

#include "cuda/device.hpp"
#include "cuda/device_buffer.hpp"
#include "cuda/error.hpp"
#include "cuda/stream.hpp"
#include "ec/batch_normalize.hpp"
#include "ec/bls12_381.hpp"
#include "ec/bn254.hpp"
#include "ec/fixed_base_gpu.hpp"

namespace cuzk::ec::gpu {

namespace {

template <class C>
__global__ void fixed_base_kernel(const Affine<C>* table, unsigned windows, const typename C::Scalar* scalars,
                                  std::size_t n, Jacobian<C>* out) {
  const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  constexpr unsigned kPer = 255;
  const auto k = scalars[i].to_int();  // out of Montgomery form on the device
  XYZZ<C> acc = XYZZ<C>::infinity();
  for (unsigned w = 0; w < windows; ++w) {
    const unsigned d = static_cast<unsigned>(k.v[(w * 8) / 64] >> ((w * 8) % 64)) & kPer;
    if (d) acc = acc.add_affine(table[w * kPer + d - 1]);
  }
  out[i] = acc.to_jacobian();
}

}  // namespace

template <class C>
std::vector<Affine<C>> fixed_base_mul_all(const FixedBaseTable<C>& table,
                                          const std::vector<typename C::Scalar>& scalars) {
  using Fr = typename C::Scalar;
  std::vector<Affine<C>> out(scalars.size());
  if (scalars.empty()) return out;
  if (table.window_bits() != 8)  // the kernel's digits are bytes
    throw std::invalid_argument("the GPU's fixed-base products take a table of 8-bit windows, not " +
                                std::to_string(table.window_bits()));
  cuda::Stream stream;
  cuda::DeviceBuffer<Affine<C>> d_table(table.table().size());
  d_table.upload(table.table().data(), table.table().size(), stream.get());
  // Slices of at most 2^24 scalars, fewer when device memory is short (a quarter of what is free).
  const std::size_t per_item = sizeof(Fr) + sizeof(Jacobian<C>);
  const std::size_t slice = std::clamp<std::size_t>(cuda::mem_info().first / 4 / per_item, 1 << 16, 1 << 24);
  const std::size_t len = std::min(slice, scalars.size());
  cuda::DeviceBuffer<Fr> d_k(len);
  cuda::DeviceBuffer<Jacobian<C>> d_out(len);
  std::vector<Jacobian<C>> jac(len);
  for (std::size_t begin = 0; begin < scalars.size(); begin += len) {
    const std::size_t n = std::min(len, scalars.size() - begin);
    d_k.upload(scalars.data() + begin, n, stream.get());
    constexpr unsigned kThreads = 128;
    fixed_base_kernel<C><<<static_cast<unsigned>((n + kThreads - 1) / kThreads), kThreads, 0, stream.get()>>>(
        d_table.data(), static_cast<unsigned>(table.windows()), d_k.data(), n, d_out.data());
    cuda::check_last_launch("fixed_base_kernel");
    d_out.download(jac.data(), n, stream.get());
    stream.synchronize();
    batch_to_affine(jac.data(), out.data() + begin, n);
  }
  return out;
}

#define CUZK_FIXED_BASE_INSTANTIATE(C)                                            \
  template std::vector<Affine<C>> fixed_base_mul_all<C>(const FixedBaseTable<C>&, \
                                                        const std::vector<typename C::Scalar>&);
CUZK_FIXED_BASE_INSTANTIATE(Bn254::G1Cfg)
CUZK_FIXED_BASE_INSTANTIATE(Bn254::G2Cfg)
CUZK_FIXED_BASE_INSTANTIATE(Bls12_381::G1Cfg)
CUZK_FIXED_BASE_INSTANTIATE(Bls12_381::G2Cfg)

}  // namespace cuzk::ec::gpu
