#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "cuda/device_buffer.hpp"
#include "cuda/error.hpp"
#include "cuda/event.hpp"
#include "cuda/fault_injection.hpp"
#include "cuda/host_registry.hpp"
#include "cuda/kept_array.hpp"
#include "cuda/staged_upload.hpp"
#include "cuda/stream.hpp"
#include "cuda/vram.hpp"
#include "ec/bls12_381.hpp"
#include "ec/bn254.hpp"
#include "groth16/gpu_prover.hpp"
#include "groth16/gpu_split_msm.cuh"
#include "groth16/plan_attempts.hpp"
#include "groth16/prover.hpp"
#include "msm/gpu.hpp"
#include "ntt/gpu.hpp"

namespace cuzk::groth16::gpu {

// The point arrays in device memory.
template <class Curve>
struct DevicePoints {
  cuda::DeviceBuffer<typename Curve::G1> a, b1, c, h;
  cuda::DeviceBuffer<typename Curve::G2> b2;

  // Uploaded, or kept under "<keep_as>/<query>" by a worker process's memory keeper (cuda/kept_array.hpp).
  DevicePoints(const ProvingKey<Curve>& pk, cudaStream_t stream, const std::string& keep_as)
      : a(up(keep_as, "a", pk.a, stream)),
        b1(up(keep_as, "b1", pk.b1, stream)),
        c(up(keep_as, "c", pk.c, stream)),
        h(up(keep_as, "h", pk.h, stream)),
        b2(up(keep_as, "b2", pk.b2, stream)) {
    CUZK_CUDA_CHECK(cudaStreamSynchronize(stream));
  }

 private:
  template <class V>
  static auto up(const std::string& keep_as, const char* query, const V& v, cudaStream_t stream) {
    return cuda::kept_or_uploaded(cuda::kept_name(keep_as, query), v, stream);
  }
};

// The A and B coefficients as CSR rows (row r of A, then row r of B at n + r) in host memory: the source of
// the device copy, and what the lean plan streams chunk by chunk.
template <class Fr>
struct HostRows {
  std::vector<std::uint32_t> start, cols;
  std::vector<Fr> vals;

  template <class Curve>
  explicit HostRows(const ProvingKey<Curve>& pk) {
    CoefficientRows rows = coefficient_rows(pk);
    cols.resize(rows.order.size());
    vals.resize(rows.order.size());
    for (std::size_t k = 0; k < rows.order.size(); ++k) {
      cols[k] = pk.coefs[rows.order[k]].signal;
      vals[k] = pk.coefs[rows.order[k]].value;
    }
    start = std::move(rows.start);
  }
};

template <class Curve>
struct ResidentKey<Curve>::Impl {
  using Fr = typename Curve::Fr;
  Plan plan;
  ntt::gpu::Tables<Fr> tables;
  cuda::DeviceBuffer<std::uint32_t> row_start;    // every plan
  cuda::DeviceBuffer<std::uint32_t> cols;         // resident and streamed
  cuda::DeviceBuffer<Fr> vals;                    // resident and streamed
  std::optional<HostRows<Fr>> host_rows;          // lean: streamed from here
  std::size_t row_chunk = 0;                      // lean: entries per chunk buffer
  std::optional<DevicePoints<Curve>> points;      // resident
  std::vector<std::shared_ptr<void>> registered;  // page-locks of what is streamed

  Impl(const ProvingKey<Curve>& pk, cudaStream_t stream, Plan p, std::size_t chunk,
       const std::string& keep_as)
      : plan(p),
        tables(static_cast<std::size_t>(__builtin_ctzll(pk.domain_size)), stream,
               p == Plan::kLean ? ntt::TableLayout::kCompact : ntt::TableLayout::kFull),
        row_start(2 * std::size_t(pk.domain_size) + 1) {
    HostRows<Fr> rows(pk);
    row_start.upload(rows.start.data(), rows.start.size(), stream);
    if (plan == Plan::kLean) {
      row_chunk = chunk ? row_chunk_entries(pk, chunk) : row_chunk_entries(pk);
      host_rows.emplace(std::move(rows));
      pin(host_rows->cols);
      pin(host_rows->vals);
    } else {
      cols = cuda::DeviceBuffer<std::uint32_t>(rows.cols.size());
      vals = cuda::DeviceBuffer<Fr>(rows.vals.size());
      cols.upload(rows.cols.data(), rows.cols.size(), stream);
      vals.upload(rows.vals.data(), rows.vals.size(), stream);
    }
    CUZK_CUDA_CHECK(cudaStreamSynchronize(stream));  // the staging vectors die here
    if (plan == Plan::kResident) {
      points.emplace(pk, stream, keep_as);
    } else {
      pin(pk.a);
      pin(pk.b1);
      pin(pk.b2);
      pin(pk.c);
      pin(pk.h);
    }
  }

  // Page-locks a streamed array so its uploads are asynchronous and full speed, sharing the lock when the
  // repository (or another worker) already holds it.
  template <class V>
  void pin(const V& v) {
    cuda::HostRegistry::instance().pin_if_possible(v, registered);
  }
};

template <class Curve>
ResidentKey<Curve>::ResidentKey(const ProvingKey<Curve>& pk, cudaStream_t stream, std::optional<Plan> plan,
                                std::size_t row_chunk, const std::string& keep_as) {
  const Footprint f = footprint(pk);
  impl_ = make_in_plan<Impl>(
      f, plan, keep_as, [&](Plan p) { return std::make_unique<Impl>(pk, stream, p, row_chunk, keep_as); });
  proof_bytes_ = f.proof + (impl_->plan == Plan::kLean ? f.row_chunks : 0);
}
template <class Curve>
ResidentKey<Curve>::~ResidentKey() = default;
template <class Curve>
Plan ResidentKey<Curve>::plan() const {
  return impl_->plan;
}

namespace {

constexpr unsigned kThreads = 256;

unsigned blocks_for(std::size_t n) {
  return static_cast<unsigned>((n + kThreads - 1) / kThreads);
}

// The abc stage for rows [r0, r0 + rows): a = A·w and b = B·w (CSR rows of the key), c = a·b. Entry k of
// row r of A is at cols/vals[k - a_base], of B at [k - b_base]: 0 when the rows are resident, the chunk's
// offsets when the lean plan streamed them.
template <class Fr>
__global__ void abc_kernel(const std::uint32_t* start, std::size_t n, const std::uint32_t* cols,
                           const Fr* vals, std::uint64_t a_base, std::uint64_t b_base, const Fr* w,
                           std::size_t r0, std::size_t rows, Fr* a, Fr* b, Fr* c) {
  const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (i >= rows) return;
  const std::size_t row = r0 + i;
  Fr sa = Fr::zero(), sb = Fr::zero();
  for (std::uint64_t k = start[row]; k < start[row + 1]; ++k) sa += vals[k - a_base] * w[cols[k - a_base]];
  for (std::uint64_t k = start[n + row]; k < start[n + row + 1]; ++k)
    sb += vals[k - b_base] * w[cols[k - b_base]];
  a[row] = sa;
  b[row] = sb;
  c[row] = sa * sb;
}

// map[i] = i − skip for the private wires (their C points), kNoPoint for ONE and the public inputs.
__global__ void private_wire_map_kernel(std::size_t n_vars, std::size_t skip, std::uint32_t* map) {
  const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (i < n_vars) map[i] = i >= skip ? static_cast<std::uint32_t>(i - skip) : msm::gpu::kNoPoint;
}

// h[i] = a[i]·b[i] - c[i], written as a plain integer (MSM scalar form) in place of a[i].
template <class Fr>
__global__ void h_kernel(Fr* a, const Fr* b, const Fr* c, std::size_t n) {
  std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  Fr h = a[i] * b[i] - c[i];
  auto plain = h.to_int();
  static_assert(sizeof(plain) == sizeof(Fr));
  reinterpret_cast<decltype(plain)*>(a)[i] = plain;
}

// The lean plan's abc stage: the coefficient rows cut into chunks of at most `cap` entries (A and B of
// the same rows together), uploaded into two device buffers on a copy stream, so chunk k + 1 uploads while
// chunk k is evaluated (the same double buffering as the MSM's streamed points).
template <class Fr>
void abc_streamed(const HostRows<Fr>& h, const std::uint32_t* d_start, std::size_t n, std::size_t cap,
                  const Fr* w, Fr* a, Fr* b, Fr* c, cudaStream_t stream) {
  struct Chunk {
    std::size_t r0, r1, a_count, b_count;
  };
  std::vector<Chunk> chunks;
  for (std::size_t r0 = 0; r0 < n;) {
    std::size_t r1 = r0 + 1;
    auto entries = [&](std::size_t end) {
      return std::size_t(h.start[end] - h.start[r0]) + std::size_t(h.start[n + end] - h.start[n + r0]);
    };
    // Rows are short: grow by doubling, then back off to the largest prefix that fits.
    std::size_t step = 1024;
    while (r1 < n && entries(std::min(n, r1 + step)) <= cap) r1 = std::min(n, r1 + step), step *= 2;
    while (step > 1 && r1 < n) {
      step /= 2;
      if (entries(std::min(n, r1 + step)) <= cap) r1 = std::min(n, r1 + step);
    }
    chunks.push_back({r0, r1, h.start[r1] - h.start[r0], h.start[n + r1] - h.start[n + r0]});
    r0 = r1;
  }
  const std::size_t second = chunks.size() > 1 ? cap : 0;  // one chunk needs one buffer
  cuda::DeviceBuffer<std::uint32_t> d_cols[2] = {cuda::DeviceBuffer<std::uint32_t>(cap),
                                                 cuda::DeviceBuffer<std::uint32_t>(second)};
  cuda::DeviceBuffer<Fr> d_vals[2] = {cuda::DeviceBuffer<Fr>(cap), cuda::DeviceBuffer<Fr>(second)};
  cuda::Stream copy;
  cuda::Event uploaded[2] = {cuda::Event(false), cuda::Event(false)};
  cuda::Event released[2] = {cuda::Event(false), cuda::Event(false)};
  auto upload = [&](std::size_t k) {
    const Chunk& ch = chunks[k];
    const std::size_t buf = k % 2, a_from = h.start[ch.r0], b_from = h.start[n + ch.r0];
    released[buf].make_wait(copy.get());
    d_cols[buf].upload(h.cols.data() + a_from, ch.a_count, copy.get());
    d_vals[buf].upload(h.vals.data() + a_from, ch.a_count, copy.get());
    d_cols[buf].upload(h.cols.data() + b_from, ch.b_count, copy.get(), ch.a_count);
    d_vals[buf].upload(h.vals.data() + b_from, ch.b_count, copy.get(), ch.a_count);
    uploaded[buf].record(copy.get());
  };
  if (!chunks.empty()) upload(0);
  for (std::size_t k = 0; k < chunks.size(); ++k) {
    if (k + 1 < chunks.size()) upload(k + 1);
    const Chunk& ch = chunks[k];
    const std::size_t buf = k % 2, rows = ch.r1 - ch.r0;
    uploaded[buf].make_wait(stream);
    // b_base ≥ 0: B's entries start after all of A's, and this chunk holds fewer A entries than that.
    abc_kernel<Fr><<<blocks_for(rows), kThreads, 0, stream>>>(
        d_start, n, d_cols[buf].data(), d_vals[buf].data(), h.start[ch.r0], h.start[n + ch.r0] - ch.a_count,
        w, ch.r0, rows, a, b, c);
    cuda::check_last_launch("groth16 abc_kernel (streamed rows)");
    released[buf].record(stream);
  }
  // The chunk buffers and the copy stream go when this returns: wait for the kernels that read them.
  CUZK_CUDA_CHECK(cudaStreamSynchronize(stream));
}

}  // namespace

template <class Curve>
Proof<Curve> prove(const ProvingKey<Curve>& pk, const ResidentKey<Curve>& key,
                   const std::vector<typename Curve::Fr>& witness, const typename Curve::Fr& r,
                   const typename Curve::Fr& s, cudaStream_t stream, StageTimings* timings,
                   cuda::DeviceBuffer<typename Curve::Fr>* prestaged) {
  using Fr = typename Curve::Fr;
  using G1 = typename Curve::G1Cfg;
  using G2 = typename Curve::G2Cfg;
  using Plain = ff::BigInt<Fr::N>;
  check_prove_inputs(pk, witness);
  const auto& k = key.impl();
  const std::size_t n = pk.domain_size, skip = pk.n_public + 1;  // C covers the private signals only

  // Buffers are freed as soon as their stage is over (wm after the classification, b and c after H), so the
  // MSMs, which size their slices from what is left, get the most room.
  const bool staged = prestaged && prestaged->size() == pk.n_vars;
  cuda::DeviceBuffer<Fr> wm =
      staged ? std::move(*prestaged) : cuda::DeviceBuffer<Fr>(pk.n_vars, stream);  // Montgomery
  cuda::DeviceBuffer<Fr> a(n, stream), b(n, stream), c(n, stream);
  cuda::DeviceBuffer<Plain> w(pk.n_vars, stream);
  {
    StageTimer t(timings, "abc");
    if (!staged) cuda::StagedUpload().upload(wm, witness.data(), witness.size(), stream);
    if (k.host_rows)
      abc_streamed<Fr>(*k.host_rows, k.row_start.data(), n, k.row_chunk, wm.data(), a.data(), b.data(),
                       c.data(), stream);
    else
      abc_kernel<Fr><<<blocks_for(n), kThreads, 0, stream>>>(k.row_start.data(), n, k.cols.data(),
                                                             k.vals.data(), 0, 0, wm.data(), 0, n, a.data(),
                                                             b.data(), c.data());
    cuda::check_last_launch("groth16 abc_kernel");
    to_plain_kernel<Fr><<<blocks_for(pk.n_vars), kThreads, 0, stream>>>(wm.data(), w.data(), pk.n_vars);
    cuda::check_last_launch("groth16 to_plain_kernel");
    CUZK_CUDA_CHECK(cudaStreamSynchronize(stream));
  }
  std::optional<WitnessClasses> all, priv;      // the split MSMs' classification (resident points only)
  cuda::DeviceBuffer<std::uint32_t> c_of_wire;  // resident: wire i → its C point i − skip, or kNoPoint
  if (k.points) {
    StageTimer t(timings, "classify");
    all.emplace(classify(wm.data(), pk.n_vars, stream));
    // C's ones only: its other values are read from the sort shared with A and B1, through c_of_wire.
    priv.emplace(classify(wm.data() + skip, pk.n_vars - skip, stream, /*others=*/false));
    c_of_wire = cuda::DeviceBuffer<std::uint32_t>(pk.n_vars, stream);
    private_wire_map_kernel<<<blocks_for(pk.n_vars), kThreads, 0, stream>>>(pk.n_vars, skip,
                                                                            c_of_wire.data());
    cuda::check_last_launch("groth16 private_wire_map_kernel");
  }
  wm.reset();
  {
    StageTimer t(timings, "h");
    for (Fr* v : {a.data(), b.data(), c.data()}) ntt::gpu::to_odd_coset(v, 1, k.tables, stream);
    h_kernel<Fr><<<blocks_for(n), kThreads, 0, stream>>>(a.data(), b.data(), c.data(), n);
    cuda::check_last_launch("groth16 h_kernel");
    CUZK_CUDA_CHECK(cudaStreamSynchronize(stream));
  }
  b.reset();
  c.reset();
  cuda::maybe_inject_sticky_fault(stream);  // tests: poison the context here, as a faulting MSM would
  const Plain* h = reinterpret_cast<const Plain*>(a.data());
  MsmResults<Curve> m;
  if (!k.points) {
    // Streamed points: the split form too, classified here on the plain witness (before the H stage a, b and
    // c are on the device, and a small card has no room for the classes beside them), each MSM streaming its
    // points once. Dense, they sorted every window's digit of every mostly-0/1 witness value.
    {
      StageTimer t(timings, "classify");
      all.emplace(classify(w.data(), pk.n_vars, stream));
      priv.emplace(classify(w.data() + skip, pk.n_vars - skip, stream));
    }
    StageTimer t(timings, "msm_streamed");
    m.a = split_msm_streamed<G1>(pk.a.data(), pk.n_vars, w.data(), *all, stream);
    m.b1 = split_msm_streamed<G1>(pk.b1.data(), pk.n_vars, w.data(), *all, stream);
    m.b2 = split_msm_streamed<G2>(pk.b2.data(), pk.n_vars, w.data(), *all, stream);
    all.reset();
    m.c = split_msm_streamed<G1>(pk.c.data(), pk.n_vars - skip, w.data() + skip, *priv, stream);
    priv.reset();
    m.c += msm::gpu::pippenger_streamed<G1>(pk.h.data(), h, n, stream);
    t.finish();
    StageTimer ta(timings, "assemble");
    return assemble(pk, m, r, s);
  }
  const auto& p = *k.points;
  std::vector<ec::Jacobian<G1>> tails;  // A, B1 and C over the witness values other than 0 and 1: one sort
  {
    StageTimer t(timings, "msm_tails");
    const msm::gpu::PointSet<G1> sets[] = {
        {p.a.data(), nullptr}, {p.b1.data(), nullptr}, {p.c.data(), c_of_wire.data()}};
    tails = tails_sum<G1>(std::span(sets), w.data(), *all, stream, timings);
  }
  {
    StageTimer t(timings, "msm_a");
    m.a = tails[0] + ones_sum(p.a.data(), *all, stream, timings);
  }
  {
    StageTimer t(timings, "msm_b1");
    m.b1 = tails[1] + ones_sum(p.b1.data(), *all, stream, timings);
  }
  {
    StageTimer t(timings, "msm_b2");
    m.b2 = split_msm<G2>(p.b2.data(), w.data(), *all, stream, timings);
  }
  {
    StageTimer t(timings, "msm_c");
    m.c = tails[2] + ones_sum(p.c.data(), *priv, stream, timings);
  }
  {
    StageTimer t(timings, "msm_h");
    m.c += msm::gpu::pippenger<G1>(p.h.data(), h, n, stream);
  }
  StageTimer t(timings, "assemble");
  return assemble(pk, m, r, s);
}

#define CUZK_GPU_PROVER_INSTANTIATE(Curve)                                                              \
  template class ResidentKey<Curve>;                                                                    \
  template Proof<Curve> prove<Curve>(const ProvingKey<Curve>&, const ResidentKey<Curve>&,               \
                                     const std::vector<Curve::Fr>&, const Curve::Fr&, const Curve::Fr&, \
                                     cudaStream_t, StageTimings*, cuda::DeviceBuffer<Curve::Fr>*);
CUZK_GPU_PROVER_INSTANTIATE(Bn254)
CUZK_GPU_PROVER_INSTANTIATE(Bls12_381)

}  // namespace cuzk::groth16::gpu
