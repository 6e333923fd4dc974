#include <thrust/iterator/counting_iterator.h>

#include <chrono>
#include <cstdint>
#include <cub/device/device_select.cuh>
#include <optional>
#include <span>

#include "cuda/device_buffer.hpp"
#include "cuda/error.hpp"
#include "cuda/host_registry.hpp"
#include "ec/bls12_381.hpp"
#include "ec/bn254.hpp"
#include "groth16/gpu_prover.hpp"
#include "groth16/prover.hpp"
#include "msm/gpu.hpp"
#include "ntt/gpu.hpp"

namespace cuzk::groth16::gpu {

// The point arrays in device memory.
template <class Curve>
struct DevicePoints {
  cuda::DeviceBuffer<typename Curve::G1> a, b1, c, h;
  cuda::DeviceBuffer<typename Curve::G2> b2;

  DevicePoints(const ProvingKey<Curve>& pk, cudaStream_t stream)
      : a(pk.a.size()), b1(pk.b1.size()), c(pk.c.size()), h(pk.h.size()), b2(pk.b2.size()) {
    a.upload(pk.a.data(), pk.a.size(), stream);
    b1.upload(pk.b1.data(), pk.b1.size(), stream);
    c.upload(pk.c.data(), pk.c.size(), stream);
    h.upload(pk.h.data(), pk.h.size(), stream);
    b2.upload(pk.b2.data(), pk.b2.size(), stream);
    CUZK_CUDA_CHECK(cudaStreamSynchronize(stream));
  }
};

template <class Curve>
struct ResidentKey<Curve>::Impl {
  using Fr = typename Curve::Fr;
  ntt::gpu::Tables<Fr> tables;
  // A and B coefficients as CSR rows (row r of A, then row r of B at n + r) for the abc stage.
  cuda::DeviceBuffer<std::uint32_t> row_start, cols;
  cuda::DeviceBuffer<Fr> vals;
  std::optional<DevicePoints<Curve>> points;      // device mode
  std::vector<std::shared_ptr<void>> registered;  // host mode: pk's point vectors, page-locked

  Impl(const ProvingKey<Curve>& pk, cudaStream_t stream, KeyResidency residency)
      : tables(static_cast<std::size_t>(__builtin_ctzll(pk.domain_size)), stream),
        row_start(2 * std::size_t(pk.domain_size) + 1),
        cols(pk.coefs.size()),
        vals(pk.coefs.size()) {
    const CoefficientRows rows = coefficient_rows(pk);
    std::vector<std::uint32_t> col(rows.order.size());
    std::vector<Fr> val(rows.order.size());
    for (std::size_t k = 0; k < rows.order.size(); ++k) {
      col[k] = pk.coefs[rows.order[k]].signal;
      val[k] = pk.coefs[rows.order[k]].value;
    }
    row_start.upload(rows.start.data(), rows.start.size(), stream);
    cols.upload(col.data(), col.size(), stream);
    vals.upload(val.data(), val.size(), stream);
    CUZK_CUDA_CHECK(cudaStreamSynchronize(stream));  // the staging vectors die here

    if (residency != KeyResidency::kHost) {
      try {
        points.emplace(pk, stream);
        return;
      } catch (const cuda::CudaError& e) {
        if (residency == KeyResidency::kDevice || e.kind() != cuda::CudaError::Kind::out_of_memory) throw;
        points.reset();  // whatever was allocated is freed; stream the points instead
      }
    }
    register_points(pk);
  }

  // Page-locks the point vectors so the streamed uploads are asynchronous and full speed, sharing the
  // lock when the repository (or another worker) already holds it. A range CUDA refuses to lock
  // (locked-memory limit) stays pageable: slower copies, same results.
  void register_points(const ProvingKey<Curve>& pk) {
    auto add = [&](const auto& v) {
      try {
        registered.push_back(cuda::HostRegistry::instance().pin(v.data(), v.size() * sizeof(v[0])));
      } catch (const cuda::CudaError&) {
      }
    };
    add(pk.a);
    add(pk.b1);
    add(pk.b2);
    add(pk.c);
    add(pk.h);
  }
};

template <class Curve>
ResidentKey<Curve>::ResidentKey(const ProvingKey<Curve>& pk, cudaStream_t stream, KeyResidency residency)
    : impl_(std::make_unique<Impl>(pk, stream, residency)) {}
template <class Curve>
ResidentKey<Curve>::~ResidentKey() = default;
template <class Curve>
bool ResidentKey<Curve>::points_on_device() const {
  return impl_->points.has_value();
}

namespace {

constexpr unsigned kThreads = 256;

unsigned blocks_for(std::size_t n) {
  return static_cast<unsigned>((n + kThreads - 1) / kThreads);
}

// The abc stage: a = A·w and b = B·w at row i (CSR rows of the key), c = a·b, into abc = a | b | c.
template <class Fr>
__global__ void abc_kernel(const std::uint32_t* start, const std::uint32_t* cols, const Fr* vals, const Fr* w,
                           std::size_t n, Fr* abc) {
  const std::size_t row = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (row >= n) return;
  Fr sa = Fr::zero(), sb = Fr::zero();
  for (std::uint32_t k = start[row]; k < start[row + 1]; ++k) sa += vals[k] * w[cols[k]];
  for (std::uint32_t k = start[n + row]; k < start[n + row + 1]; ++k) sb += vals[k] * w[cols[k]];
  abc[row] = sa;
  abc[n + row] = sb;
  abc[2 * n + row] = sa * sb;
}

// Montgomery form → plain integers (the MSM scalar form).
template <class Fr>
__global__ void to_plain_kernel(const Fr* in, ff::BigInt<Fr::N>* out, std::size_t n) {
  const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = in[i].to_int();
}

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

// Positions of the witness values equal to one and of the other non-zero values (the split MSMs'
// classification, done once per proof on the device), for the signals [from, n) renumbered from 0.
struct WitnessClasses {
  cuda::DeviceBuffer<std::uint32_t> ones, others;
  std::size_t n_ones = 0, n_others = 0;
};

template <class Fr>
__global__ void flag_kernel(const Fr* w, std::size_t count, std::uint8_t* is_one, std::uint8_t* is_other) {
  const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (i >= count) return;
  const Fr x = w[i];
  const bool one = x.is_one();
  is_one[i] = one;
  is_other[i] = !one && !x.is_zero();
}

template <class Fr>
WitnessClasses classify(const Fr* d_w, std::size_t count, cudaStream_t stream) {
  WitnessClasses out{cuda::DeviceBuffer<std::uint32_t>(count), cuda::DeviceBuffer<std::uint32_t>(count)};
  if (count == 0) return out;
  cuda::DeviceBuffer<std::uint8_t> is_one(count), is_other(count);
  flag_kernel<Fr><<<blocks_for(count), kThreads, 0, stream>>>(d_w, count, is_one.data(), is_other.data());
  cuda::check_last_launch("groth16 flag_kernel");
  const thrust::counting_iterator<std::uint32_t> positions(0);
  cuda::DeviceBuffer<std::uint32_t> selected(2);
  std::size_t temp_bytes = 0;
  CUZK_CUDA_CHECK(cub::DeviceSelect::Flagged(nullptr, temp_bytes, positions, is_one.data(), out.ones.data(),
                                             selected.data(), count, stream));
  cuda::DeviceBuffer<unsigned char> temp(temp_bytes);
  CUZK_CUDA_CHECK(cub::DeviceSelect::Flagged(temp.data(), temp_bytes, positions, is_one.data(),
                                             out.ones.data(), selected.data(), count, stream));
  CUZK_CUDA_CHECK(cub::DeviceSelect::Flagged(temp.data(), temp_bytes, positions, is_other.data(),
                                             out.others.data(), selected.data() + 1, count, stream));
  std::uint32_t n[2];
  selected.download(n, 2, stream);
  CUZK_CUDA_CHECK(cudaStreamSynchronize(stream));
  out.n_ones = n[0];
  out.n_others = n[1];
  return out;
}

// Σ k_i·P_i over a witness-shaped vector: batch-add the ones, Pippenger the rest.
template <class Cfg, std::size_t N>
ec::Jacobian<Cfg> split_msm(const ec::Affine<Cfg>* d_points, const ff::BigInt<N>* d_scalars,
                            const WitnessClasses& classes, cudaStream_t stream, StageTimings* timings) {
  // Both calls return after their stream work (the results come back to the host), so wall time is GPU time.
  const auto t0 = std::chrono::steady_clock::now();
  ec::Jacobian<Cfg> acc = ec::Jacobian<Cfg>::infinity();
  if (classes.n_ones > 0)
    acc += msm::gpu::batch_add<Cfg>(d_points, classes.n_ones, stream, classes.ones.data());
  const auto t1 = std::chrono::steady_clock::now();
  if (classes.n_others > 0)
    acc += msm::gpu::pippenger<Cfg, N>(d_points, d_scalars, classes.n_others, stream, classes.others.data());
  if (timings) {
    const auto t2 = std::chrono::steady_clock::now();
    timings->add_detail("batch_add", std::chrono::duration<double, std::milli>(t1 - t0).count());
    timings->add_detail("tail_msm", std::chrono::duration<double, std::milli>(t2 - t1).count());
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

  using Plain = ff::BigInt<Fr::N>;
  cuda::DeviceBuffer<Fr> d_abc(3 * n), d_wm(pk.n_vars);  // d_wm: the witness in Montgomery form
  cuda::DeviceBuffer<Plain> d_w(pk.n_vars);
  {
    StageTimer t(timings, "abc");
    d_wm.upload(witness.data(), witness.size(), stream);
    CUZK_CUDA_CHECK(cudaMemsetAsync(d_abc.data(), 0, 3 * n * sizeof(Fr), stream));
    abc_kernel<Fr><<<blocks_for(n), kThreads, 0, stream>>>(k.row_start.data(), k.cols.data(), k.vals.data(),
                                                           d_wm.data(), n, d_abc.data());
    cuda::check_last_launch("groth16 abc_kernel");
    to_plain_kernel<Fr><<<blocks_for(pk.n_vars), kThreads, 0, stream>>>(d_wm.data(), d_w.data(), pk.n_vars);
    cuda::check_last_launch("groth16 to_plain_kernel");
    CUZK_CUDA_CHECK(cudaStreamSynchronize(stream));
  }
  {
    StageTimer t(timings, "h");
    ntt::gpu::to_odd_coset(d_abc.data(), 3, k.tables, stream);
    h_kernel<Fr><<<blocks_for(n), kThreads, 0, stream>>>(d_abc.data(), n);
    cuda::check_last_launch("groth16 h_kernel");
    CUZK_CUDA_CHECK(cudaStreamSynchronize(stream));
  }
  const std::size_t skip = pk.n_public + 1;  // C covers the private signals only
  MsmResults<Curve> m;
  if (!k.points) {  // host mode: every MSM streams its points (dense; zero digits are skipped anyway)
    StageTimer t(timings, "msm_streamed");
    m.a = msm::gpu::pippenger_streamed<G1>(pk.a.data(), d_w.data(), pk.n_vars, stream);
    m.b1 = msm::gpu::pippenger_streamed<G1>(pk.b1.data(), d_w.data(), pk.n_vars, stream);
    m.b2 = msm::gpu::pippenger_streamed<G2>(pk.b2.data(), d_w.data(), pk.n_vars, stream);
    m.c = msm::gpu::pippenger_streamed<G1>(pk.c.data(), d_w.data() + skip, pk.n_vars - skip, stream);
    m.c += msm::gpu::pippenger_streamed<G1>(pk.h.data(), reinterpret_cast<const Plain*>(d_abc.data()), n,
                                            stream);
    t.finish();
    StageTimer ta(timings, "assemble");
    return assemble(pk, m, r, s);
  }
  const auto& p = *k.points;
  StageTimer classify_timer(timings, "classify");
  const WitnessClasses all = classify(d_wm.data(), pk.n_vars, stream),
                       priv = classify(d_wm.data() + skip, pk.n_vars - skip, stream);
  classify_timer.finish();
  {
    StageTimer t(timings, "msm_a");
    m.a = split_msm<G1>(p.a.data(), d_w.data(), all, stream, timings);
  }
  {
    StageTimer t(timings, "msm_b1");
    m.b1 = split_msm<G1>(p.b1.data(), d_w.data(), all, stream, timings);
  }
  {
    StageTimer t(timings, "msm_b2");
    m.b2 = split_msm<G2>(p.b2.data(), d_w.data(), all, stream, timings);
  }
  {
    StageTimer t(timings, "msm_c");
    m.c = split_msm<G1>(p.c.data(), d_w.data() + skip, priv, stream, timings);
  }
  {
    StageTimer t(timings, "msm_h");
    m.c += msm::gpu::pippenger<G1>(p.h.data(), reinterpret_cast<const Plain*>(d_abc.data()), n, stream);
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
