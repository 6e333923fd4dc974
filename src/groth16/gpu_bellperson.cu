#include <bit>

#include "cuda/device_buffer.hpp"
#include "cuda/error.hpp"
#include "groth16/gpu_bellperson.hpp"
#include "groth16/prover.hpp"
#include "msm/gpu.hpp"
#include "msm/plain_scalars.hpp"
#include "ntt/gpu.hpp"

namespace cuzk::groth16::bellperson::gpu {

namespace {

constexpr unsigned kThreads = 256;
unsigned blocks_for(std::size_t n) {
  return static_cast<unsigned>((n + kThreads - 1) / kThreads);
}

// a[i] ← (a[i]·b[i] − c[i])·z_inv on the odd coset, where Z(x) = x^m − 1 is the constant −2.
__global__ void quotient_kernel(Fr* abc, std::size_t m, Fr z_inv) {
  const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (i < m) abc[i] = (abc[i] * abc[m + i] - abc[2 * m + i]) * z_inv;
}

// After the inverse NTT of odd-coset values: coefficient i times ω_2m^−i (= −ω_2m^(m−i) for i > 0), then out
// of Montgomery form for the MSM.
__global__ void uncoset_plain_kernel(const Fr* a, const Fr* omega2m_powers, std::size_t m,
                                     ff::BigInt<4>* out) {
  const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (i >= m) return;
  const Fr x = i == 0 ? a[0] : -(a[i] * omega2m_powers[m - i]);
  out[i] = x.to_int();
}

template <class Cfg>
ec::Jacobian<Cfg> msm(const std::vector<ec::Affine<Cfg>>& points, const std::vector<Fr>& scalars,
                      cudaStream_t stream) {
  if (scalars.empty()) return ec::Jacobian<Cfg>::infinity();
  const auto plain = msm::plain_scalars(scalars.data(), scalars.size());
  cuda::DeviceBuffer<ec::Affine<Cfg>> d_points(points.size());
  cuda::DeviceBuffer<ff::BigInt<4>> d_scalars(plain.size());
  d_points.upload(points.data(), points.size(), stream);
  d_scalars.upload(plain.data(), plain.size(), stream);
  return msm::gpu::pippenger<Cfg, 4>(d_points.data(), d_scalars.data(), scalars.size(), stream);
}

}  // namespace

Proof<Curve> prove(const io::bellperson::Params& p, const Assignment& w, const Fr& r, const Fr& s,
                   cudaStream_t stream) {
  check(p, w);
  using G1 = Curve::G1Cfg;
  using G2 = Curve::G2Cfg;
  const std::size_t m = p.h.size() + 1, log_m = static_cast<std::size_t>(std::countr_zero(m));
  const std::size_t j = snarkjs_position_step(m);

  // a, b, c at snarkjs's positions, uploaded together.
  std::vector<Fr> abc(3 * m, Fr::zero());
  for (const auto& [t, v] : {std::pair{0u, &w.a}, std::pair{1u, &w.b}, std::pair{2u, &w.c}})
    for (std::size_t k = 0; k < v->size(); ++k) abc[t * m + ((j * k) & (m - 1))] = (*v)[k];
  cuda::DeviceBuffer<Fr> d_abc(3 * m);
  d_abc.upload(abc.data(), abc.size(), stream);
  const ntt::gpu::Tables<Fr> tables(log_m, stream);
  ntt::gpu::to_odd_coset(d_abc.data(), 3, tables, stream);
  const Fr z_inv = (-Fr::from_u64(2)).inverse();
  quotient_kernel<<<blocks_for(m), kThreads, 0, stream>>>(d_abc.data(), m, z_inv);
  cuda::check_last_launch("bellperson quotient_kernel");
  ntt::gpu::inverse(d_abc.data(), tables, stream);
  cuda::DeviceBuffer<ff::BigInt<4>> d_h(m);
  uncoset_plain_kernel<<<blocks_for(m), kThreads, 0, stream>>>(d_abc.data(), tables.omega2n_powers(), m,
                                                               d_h.data());
  cuda::check_last_launch("bellperson uncoset_plain_kernel");
  cuda::DeviceBuffer<ec::Affine<G1>> d_hpoints(p.h.size());
  d_hpoints.upload(p.h.data(), p.h.size(), stream);

  MsmResults<Curve> res;
  res.c =
      msm::gpu::pippenger<G1, 4>(d_hpoints.data(), d_h.data(), m - 1, stream) + msm<G1>(p.l, w.aux, stream);
  const auto a = a_query_scalars(w);
  const auto b = b_query_scalars(w);
  res.a = msm<G1>(p.a, a, stream);
  res.b1 = msm<G1>(p.b_g1, b, stream);
  res.b2 = msm<G2>(p.b_g2, b, stream);
  if (p.vk.delta1.is_infinity() || p.vk.delta2.is_infinity())
    throw Error("the key's δ is the identity (UnexpectedIdentity)");
  return assemble<Curve>(BlindingPoints<Curve>{p.vk.alpha1, p.vk.beta1, p.vk.delta1, p.vk.beta2, p.vk.delta2},
                         res, r, s);
}

}  // namespace cuzk::groth16::bellperson::gpu
