#include <cstdint>

#include "cuda/device_buffer.hpp"
#include "cuda/error.hpp"
#include "ec/bls12_381.hpp"
#include "ec/bn254.hpp"
#include "groth16/gpu_prover.hpp"
#include "groth16/prover.hpp"
#include "msm/gpu.hpp"
#include "msm/plain_scalars.hpp"
#include "ntt/gpu.hpp"

namespace cuzk::groth16::gpu {

template <class Curve>
struct ResidentKey<Curve>::Impl {
  using G1 = typename Curve::G1;
  using G2 = typename Curve::G2;
  using Fr = typename Curve::Fr;
  cuda::DeviceBuffer<G1> a, b1, c, h;
  cuda::DeviceBuffer<G2> b2;
  ntt::gpu::Tables<Fr> tables;

  Impl(const ProvingKey<Curve>& pk, cudaStream_t stream)
      : a(pk.a.size()),
        b1(pk.b1.size()),
        c(pk.c.size()),
        h(pk.h.size()),
        b2(pk.b2.size()),
        tables(static_cast<std::size_t>(__builtin_ctzll(pk.domain_size)), stream) {
    a.upload(pk.a.data(), pk.a.size(), stream);
    b1.upload(pk.b1.data(), pk.b1.size(), stream);
    c.upload(pk.c.data(), pk.c.size(), stream);
    h.upload(pk.h.data(), pk.h.size(), stream);
    b2.upload(pk.b2.data(), pk.b2.size(), stream);
    CUZK_CUDA_CHECK(cudaStreamSynchronize(stream));
  }
};

template <class Curve>
ResidentKey<Curve>::ResidentKey(const ProvingKey<Curve>& pk, cudaStream_t stream)
    : impl_(std::make_unique<Impl>(pk, stream)) {}
template <class Curve>
ResidentKey<Curve>::~ResidentKey() = default;

namespace {

// h[i] = a[i]·b[i] - c[i], written as a plain integer (MSM scalar form) in place of a[i].
template <class Fr>
__global__ void h_kernel(Fr* abc, std::size_t n) {
  std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  Fr h = abc[i] * abc[n + i] - abc[2 * n + i];
  auto plain = h.to_int();
  static_assert(sizeof(plain) == sizeof(Fr));
  reinterpret_cast<decltype(plain)*>(abc)[i] = plain;
}

// Indices of scalars equal to one and of the other non-zero scalars, for the split MSMs.
template <std::size_t N>
void split_indices(const ff::BigInt<N>* s, std::size_t n, std::vector<std::uint32_t>& ones,
                   std::vector<std::uint32_t>& others) {
  const auto one = ff::bigint_from_u64<N>(1);
  for (std::size_t i = 0; i < n; ++i) {
    if (s[i].is_zero()) continue;
    (s[i] == one ? ones : others).push_back(static_cast<std::uint32_t>(i));
  }
}

// Σ k_i·P_i over a witness-shaped vector: batch-add the ones, Pippenger the rest.
template <class Cfg, std::size_t N>
ec::Jacobian<Cfg> split_msm(const ec::Affine<Cfg>* d_points, const ff::BigInt<N>* h_scalars,
                            const ff::BigInt<N>* d_scalars, std::size_t n, cudaStream_t stream) {
  std::vector<std::uint32_t> ones, others;
  split_indices(h_scalars, n, ones, others);
  ec::Jacobian<Cfg> acc = ec::Jacobian<Cfg>::infinity();
  if (!ones.empty()) {
    cuda::DeviceBuffer<std::uint32_t> d_ones(ones.size());
    d_ones.upload(ones.data(), ones.size(), stream);
    acc += msm::gpu::batch_add<Cfg>(d_points, ones.size(), stream, d_ones.data());
  }
  if (!others.empty()) {
    cuda::DeviceBuffer<std::uint32_t> d_others(others.size());
    d_others.upload(others.data(), others.size(), stream);
    acc += msm::gpu::pippenger<Cfg, N>(d_points, d_scalars, others.size(), stream, d_others.data());
  }
  return acc;
}

}  // namespace

template <class Curve>
Proof<Curve> prove(const ProvingKey<Curve>& pk, const ResidentKey<Curve>& key,
                   const std::vector<typename Curve::Fr>& witness, const typename Curve::Fr& r,
                   const typename Curve::Fr& s, cudaStream_t stream, StageTimings* timings) {
  using Fr = typename Curve::Fr;
  using G1 = typename Curve::G1Cfg;
  using G2 = typename Curve::G2Cfg;
  check_prove_inputs(pk, witness);
  const auto& k = key.impl();
  const std::size_t n = pk.domain_size;

  AbcEvaluations<Curve> abc;
  {
    StageTimer t(timings, "abc");
    abc = compute_abc(pk, witness);
  }
  cuda::DeviceBuffer<Fr> d_abc(3 * n);
  {
    StageTimer t(timings, "h");
    d_abc.upload(abc.a.data(), n, stream, 0);
    d_abc.upload(abc.b.data(), n, stream, n);
    d_abc.upload(abc.c.data(), n, stream, 2 * n);
    ntt::gpu::to_odd_coset(d_abc.data(), 3, k.tables, stream);
    h_kernel<Fr><<<static_cast<unsigned>((n + 255) / 256), 256, 0, stream>>>(d_abc.data(), n);
    cuda::check_last_launch("groth16 h_kernel");
    CUZK_CUDA_CHECK(cudaStreamSynchronize(stream));
  }
  using Plain = ff::BigInt<Fr::N>;
  std::vector<Plain> w_plain;
  cuda::DeviceBuffer<Plain> d_w(pk.n_vars);
  {
    StageTimer t(timings, "scalars");
    w_plain = msm::plain_scalars(witness.data(), witness.size());
    d_w.upload(w_plain.data(), w_plain.size(), stream);
  }
  MsmResults<Curve> m;
  {
    StageTimer t(timings, "msm_a");
    m.a = split_msm<G1>(k.a.data(), w_plain.data(), d_w.data(), pk.n_vars, stream);
  }
  {
    StageTimer t(timings, "msm_b1");
    m.b1 = split_msm<G1>(k.b1.data(), w_plain.data(), d_w.data(), pk.n_vars, stream);
  }
  {
    StageTimer t(timings, "msm_b2");
    m.b2 = split_msm<G2>(k.b2.data(), w_plain.data(), d_w.data(), pk.n_vars, stream);
  }
  {
    StageTimer t(timings, "msm_c");
    const std::size_t skip = pk.n_public + 1;
    m.c = split_msm<G1>(k.c.data(), w_plain.data() + skip, d_w.data() + skip, pk.n_vars - skip, stream);
  }
  {
    StageTimer t(timings, "msm_h");
    m.c += msm::gpu::pippenger<G1>(k.h.data(), reinterpret_cast<const Plain*>(d_abc.data()), n, stream);
  }
  StageTimer t(timings, "assemble");
  return assemble(pk, m, r, s);
}

#define CUZK_GPU_PROVER_INSTANTIATE(Curve)                                                              \
  template class ResidentKey<Curve>;                                                                    \
  template Proof<Curve> prove<Curve>(const ProvingKey<Curve>&, const ResidentKey<Curve>&,               \
                                     const std::vector<Curve::Fr>&, const Curve::Fr&, const Curve::Fr&, \
                                     cudaStream_t, StageTimings*);
CUZK_GPU_PROVER_INSTANTIATE(Bn254)
CUZK_GPU_PROVER_INSTANTIATE(Bls12_381)

}  // namespace cuzk::groth16::gpu
