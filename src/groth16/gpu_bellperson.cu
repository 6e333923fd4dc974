#include <algorithm>
#include <bit>
#include <limits>
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
#include "groth16/bellperson_plan.hpp"
#include "groth16/gpu_bellperson.hpp"
#include "groth16/gpu_bellperson_witness.cuh"
#include "groth16/gpu_point_head.cuh"
#include "groth16/gpu_split_msm.cuh"
#include "groth16/plan_attempts.hpp"
#include "groth16/prover.hpp"
#include "msm/gpu.hpp"
#include "ntt/gpu.hpp"
#include "poly/domain.hpp"

namespace cuzk::groth16::bellperson::gpu {

using groth16::gpu::Plan;
using G1 = Curve::G1Cfg;
using G2 = Curve::G2Cfg;

namespace {

constexpr unsigned kThreads = 256;
unsigned blocks_for(std::size_t n) {
  return static_cast<unsigned>((n + kThreads - 1) / kThreads);
}

// log2 of the key's FFT domain m (h holds m − 1 points; ResidentKey checks that m is a power of two).
std::size_t log_domain(const io::bellperson::Params& p) {
  return static_cast<std::size_t>(std::countr_zero(p.h.size() + 1));
}

// a[i] ← a[i]·b[i]: A·B on the odd coset.
__global__ void mul_kernel(Fr* a, const Fr* b, std::size_t m) {
  const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (i < m) a[i] = a[i] * b[i];
}

// After the inverse NTTs: d holds the coefficients of A·B interpolated on the odd coset, each times ω_2m^i
// (= D_i·ω_2m^i), c those of C. There X^m = ω_2m^m = −1, so D = A·B mod (X^m + 1) = C − 2h (A·B − C = h·Z
// with Z = X^m − 1): h_i = (D_i − C_i)·z with z = (−2)^−1, and C never goes to the coset (six NTTs, not
// seven). With ω_2m^−i = −ω_2m^(m−i), h_i = (d_i·ω_2m^(m−i) + C_i)·(−z) for i > 0. Written out of Montgomery
// form for the MSM, in d (a thread reads its elements before writing): z_plain and minus_z_plain hold the
// canonical integers of z and −z as limbs, so that one Montgomery product x·z_plain·R⁻¹ = x·z leaves the
// plain value, the multiply by z and the conversion out of Montgomery form in one.
__global__ void quotient_plain_kernel(Fr* d, const Fr* c, ntt::gpu::Twiddles<Fr> omega2m_powers,
                                      std::size_t m, Fr z_plain, Fr minus_z_plain) {
  const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (i >= m) return;
  const Fr h = i == 0 ? (d[0] - c[0]) * z_plain : (d[i] * omega2m_powers.at(m - i) + c[i]) * minus_z_plain;
  reinterpret_cast<ff::BigInt<4>*>(d)[i] = h.raw();
}

// Waits for a copy stream on the way out of a scope (an exception included), so that no copy is still
// writing into buffers that the scope's end frees.
struct CopyStreamDrain {
  cudaStream_t stream;
  ~CopyStreamDrain() { cudaStreamSynchronize(stream); }
};

// A third domain-sized buffer for the H stage, where the VRAM policy leaves room for it and a margin beside
// it (the stage allocates nothing else; the MSMs after it size themselves to what is free); none otherwise,
// or where the allocation is refused all the same (another worker took the room): the stage then makes do
// with two.
template <class Fr>
std::optional<cuda::DeviceBuffer<Fr>> third_buffer(std::size_t m, cudaStream_t stream) {
  constexpr std::size_t kMargin = std::size_t(1) << 30;
  if (cuda::vram_available() < m * sizeof(Fr) + kMargin) return std::nullopt;
  try {
    return cuda::DeviceBuffer<Fr>(m, stream);
  } catch (const cuda::CudaError& e) {
    if (e.kind() != cuda::CudaError::Kind::out_of_memory) throw;
    return std::nullopt;
  }
}

// A host vector on the device; `temporary`: stream-ordered, for the proof in progress (the key's points
// stay).
template <class V, class T = std::remove_cvref_t<decltype(std::declval<const V&>()[0])>>
cuda::DeviceBuffer<T> on_device(const V& v, cudaStream_t stream,
                                bool temporary = false) {  // vector, HostArray
  cuda::DeviceBuffer<T> d =
      temporary ? cuda::DeviceBuffer<T>(v.size(), stream) : cuda::DeviceBuffer<T>(v.size());
  cuda::StagedUpload().upload(d, v.data(), v.size(), stream);
  return d;
}

// Σ scalars[i]·points[i] over the key's points: the device copy when resident, else streamed from the host.
template <class Cfg>
ec::Jacobian<Cfg> msm(const cuda::DeviceBuffer<ec::Affine<Cfg>>* resident,
                      std::span<const ec::Affine<Cfg>> host, const ff::BigInt<4>* d_scalars, std::size_t n,
                      cudaStream_t stream, msm::gpu::Options options = {}) {
  if (n == 0) return ec::Jacobian<Cfg>::infinity();
  return resident ? msm::gpu::pippenger<Cfg, 4>(resident->data(), d_scalars, n, stream, nullptr, options)
                  : msm::gpu::pippenger_streamed<Cfg, 4>(host.data(), d_scalars, n, stream, options);
}

// The streamed plan's A query head (streamed_head_points), sized and uploaded once the H MSM holds its
// buffers: `free_before` was free before the H MSM, whose scalars (m values) and buffers come back after it;
// `h_later` the bytes the H MSM still allocates (its window sums' scratch), which the head leaves free.
// Refused (another worker took the room meanwhile), the proof goes on without one.
void start_a_head(const io::bellperson::Params& p, std::size_t m, std::size_t free_before,
                  std::size_t h_later, bool witness_uploaded, double share, cudaStream_t stream,
                  std::optional<groth16::gpu::PointHeadUpload<G1>>& head) {
  const auto room = groth16::gpu::head_room_beside_msm(free_before, h_later, m * sizeof(Fr));
  groth16::gpu::try_start_head(
      head, p.a.data(), streamed_head_points(p, room.free_now, room.freed_later, witness_uploaded, share),
      stream);
}

}  // namespace

struct ResidentKey::Impl {
  struct Points {
    cuda::DeviceBuffer<ec::Affine<G1>> h, l, a, b_g1;
    cuda::DeviceBuffer<ec::Affine<G2>> b_g2;
  };
  Plan plan;
  // Resident: the full table (4.3 GB at 2^27). Streamed and lean: compact; streamed proofs expand them on the
  // device for their H stage only (prove: `expanded`), so that the H MSM and the witness side, whose
  // slices and A query head take what room there is, get the 4.3 GB back.
  ntt::gpu::Tables<Fr> tables;
  std::size_t query_chunk = kLeanQueryChunk;      // lean: values of [inputs, aux] per query chunk
  std::optional<Points> points;                   // resident
  std::vector<std::shared_ptr<void>> registered;  // streamed: page-locks of the host points

  Impl(const io::bellperson::Params& p, cudaStream_t stream, Plan wanted, const std::string& keep_as)
      : plan(wanted),
        tables(log_domain(p), poly::root_of_unity_from<Fr>(kGenerator, log_domain(p) + 1), stream,
               wanted == Plan::kResident ? ntt::TableLayout::kFull : ntt::TableLayout::kCompact) {
    if (plan == Plan::kResident) {
      const auto up = [&](const std::string& query, const auto& v) {
        return cuda::kept_or_uploaded(cuda::kept_name(keep_as, query), v, stream);
      };
      auto h = up("h", p.h);
      auto l = up("l", p.l);
      auto a = up("a", p.a);
      auto b_g1 = up("b_g1", p.b_g1);
      auto b_g2 = up("b_g2", p.b_g2);
      points.emplace(Points{std::move(h), std::move(l), std::move(a), std::move(b_g1), std::move(b_g2)});
    } else {  // sharing the page-locks the repository (or another worker) already holds
      auto& registry = cuda::HostRegistry::instance();
      registry.pin_if_possible(p.h, registered);
      registry.pin_if_possible(p.l, registered);
      registry.pin_if_possible(p.a, registered);
      registry.pin_if_possible(p.b_g1, registered);
      registry.pin_if_possible(p.b_g2, registered);
    }
    CUZK_CUDA_CHECK(cudaStreamSynchronize(stream));
  }
};

ResidentKey::ResidentKey(const io::bellperson::Params& params, cudaStream_t stream, std::optional<Plan> plan,
                         std::size_t query_chunk, const std::string& keep_as) {
  if (params.lengths_only) throw Error("a verifying-only .params read has no points to prove with");
  if (params.h.empty() || !std::has_single_bit(params.h.size() + 1))
    throw Error("the key's h has " + std::to_string(params.h.size()) + " points; m − 1 for a power of two m");
  const auto f = gpu_footprint(params);
  impl_ = groth16::gpu::make_in_plan<Impl>(
      f, plan, keep_as, [&](Plan p) { return std::make_unique<Impl>(params, stream, p, keep_as); });
  if (query_chunk) impl_->query_chunk = query_chunk;
  proof_bytes_ = f.proof_of(impl_->plan);
}

ResidentKey::~ResidentKey() = default;

namespace {

// The A and L queries' sums over the aux values other than 0 and 1 (37 M of 130 M at 32 GiB PoRep): the same
// scalars, so one sort of their digits serves both (pippenger_shared), the A query's points read through
// ws.a_of_aux (a 2^27 partition on the H200: A + L 391.6 → 379.5 ms). Stage msm_tails, detail tail_msm.
std::pair<ec::Jacobian<G1>, ec::Jacobian<G1>> a_and_l_tails(const ResidentKey::Impl::Points& pts,
                                                            const WitnessScalars& ws, cudaStream_t stream,
                                                            StageTimings* timings) {
  StageTimer t(timings, "msm_tails");
  const msm::gpu::PointSet<G1> sets[] = {{pts.l.data(), nullptr}, {pts.a.data(), ws.a_of_aux.data()}};
  const auto sums =
      groth16::gpu::tails_sum<G1, 4>(std::span(sets), ws.aux(), ws.aux_classes, stream, timings);
  return {sums[1], sums[0]};
}

// The rest of the A query's sum: its ones (inputs and aux) batch-added, and its inputs' other values (at most
// the few public inputs, found on the host) through a small Pippenger.
ec::Jacobian<G1> a_ones_and_inputs(const ResidentKey::Impl::Points& pts, const WitnessScalars& ws,
                                   const Assignment& w, cudaStream_t stream, StageTimings* timings) {
  ec::Jacobian<G1> sum = groth16::gpu::ones_sum(pts.a.data(), ws.a_classes, stream, timings);
  std::vector<std::uint32_t> inputs;  // positions in the A query: the inputs come first
  for (std::size_t j = 0; j < w.inputs.size(); ++j)
    if (!w.inputs[j].is_zero() && !w.inputs[j].is_one()) inputs.push_back(static_cast<std::uint32_t>(j));
  if (!inputs.empty()) {
    cuda::DeviceBuffer<std::uint32_t> d(inputs.size(), stream);
    d.upload(inputs.data(), inputs.size(), stream);
    // The inputs are the first values of both [inputs, aux] and the A query: one position for point and
    // scalar.
    sum += msm::gpu::pippenger<G1, 4>(pts.a.data(), ws.plain(ws.w), inputs.size(), stream, d.data());
  }
  return sum;
}

}  // namespace

Plan ResidentKey::plan() const {
  return impl_->plan;
}

Proof<Curve> prove(const io::bellperson::Params& p, const ResidentKey& key, const Assignment& w, const Fr& r,
                   const Fr& s, cudaStream_t stream, StageTimings* timings,
                   cuda::DeviceBuffer<Fr>* prestaged_abc) {
  check(p, w);
  const auto& k = key.impl();
  const auto* pts = k.points ? &*k.points : nullptr;
  const std::size_t m = p.h.size() + 1;
  // H with two domain-sized buffers: a, b and c go up one at a time (pre-staged, or from the assignment),
  // each to the first n points of bellperson's own domain (the key's tables are made for its root), and are
  // taken to the odd coset, folded into the first buffer as they come: 2m at the peak (8.6 GB beside 4.3 GB
  // of tables at 2^27, so 16 GiB cards prove 32 GiB PoRep), not 4m.
  const std::size_t n = w.a.size();  // check() saw b and c of the same size
  if (prestaged_abc && prestaged_abc->size() != 3 * n)
    throw Error("the pre-staged a, b, c do not match the assignment");
  cuda::StagedUpload up;  // from pageable memory at page-locked speed
  // Vector `which` of a, b, c into `out` on stream `s`, zeros after it.
  auto put = [&](unsigned which, cuda::DeviceBuffer<Fr>& out, cudaStream_t s) {
    if (prestaged_abc)
      CUZK_CUDA_CHECK(cudaMemcpyAsync(out.data(), prestaged_abc->data() + which * n, n * sizeof(Fr),
                                      cudaMemcpyDeviceToDevice, s));
    else
      up.upload(out, (which == 0 ? w.a : which == 1 ? w.b : w.c).data(), n, s);
    CUZK_CUDA_CHECK(cudaMemsetAsync(out.data() + n, 0, (m - n) * sizeof(Fr), s));
  };
  // [inputs, aux] (the split MSMs' scalars) go up on a copy stream while the GPU works. With resident points
  // and a, b, c pre-staged (the daemon, where the aux is page-locked too and goes up by DMA) they start here,
  // before the H stage: started at the H MSM, a second worker's pre-staging DMA shared the bus with them and
  // the proof waited for them at the classify stage (41 ms of a 371 ms K = 24 partition, against 4 in
  // process). Otherwise they start at the H MSM: the streamed plans (small cards) have room only once one of
  // the H stage's domain-sized vectors is gone, and a, b, c going up from pageable memory here would share
  // the CPU copies with them.
  std::optional<WitnessUpload> upload;
  if (pts && prestaged_abc) upload.emplace(w, stream);
  // The streamed plan's full NTT table, made now (~ms) and freed after the H stage (ResidentKey::Impl).
  std::optional<ntt::gpu::Tables<Fr>> expanded;
  if (k.plan == Plan::kStreamed) expanded.emplace(k.tables.expanded(stream));
  const ntt::gpu::Tables<Fr>& tables = expanded ? *expanded : k.tables;
  const Fr z_inv = (-Fr::from_u64(2)).inverse();  // Z = X^m − 1 on the odd coset: −2
  const Fr z_plain = Fr::from_raw(z_inv.to_int()), minus_z_plain = Fr::from_raw((-z_inv).to_int());
  cuda::DeviceBuffer<Fr> d_q(m, stream),
      d_t(m, stream);  // d_q: A, A·B, then H's plain coefficients; d_t: B, then C's coefficients
  {
    StageTimer t(timings, "abc");  // a alone: b and c go up while the NTTs run (below)
    put(0, d_q, stream);
    CUZK_CUDA_CHECK(cudaStreamSynchronize(stream));
  }
  {
    // b goes up on a copy stream while a's NTTs run: without pre-staging (the C ABI; in the daemon, a
    // partition whose a, b, c the device could not take ahead of time, as on 80 GB cards at 32 GiB PoRep) the
    // uploads (~80 ms each at 2^27 from page-locked memory) then cost the GPU little. c goes up right after
    // b, into a third buffer, where the device has room for one: it is then there before A·B's inverse NTT
    // ends. Where it has not (16 GiB cards), it waits for d_t, free once A·B is formed, and goes up during
    // that NTT, which is shorter than the upload (the H stage took ~29 ms longer that way at 2^27).
    // Pre-staged, the three are device copies.
    StageTimer t(timings, "h");
    std::optional<cuda::DeviceBuffer<Fr>> d_c;  // before the drain: freed only once the copies are done
    if (!prestaged_abc) d_c = third_buffer<Fr>(m, stream);
    cuda::Stream copy;
    const CopyStreamDrain drain{copy.get()};  // before d_q, d_t and d_c go, on every path
    cuda::Event buffers_ready{false}, b_ready{false}, t_free{false}, c_ready{false};
    buffers_ready.record(stream);  // the stream-ordered allocations of d_t and d_c
    buffers_ready.make_wait(copy.get());
    ntt::gpu::to_odd_coset(d_q.data(), 1, tables, stream);
    // Every kernel that needs no c is queued before c's upload is: from pageable memory (the C ABI) an upload
    // returns only once the host has read its source (~80 ms at 2^27), and the GPU must not wait for that.
    put(1, d_t, copy.get());
    b_ready.record(copy.get());
    b_ready.make_wait(stream);
    ntt::gpu::to_odd_coset(d_t.data(), 1, tables, stream);
    mul_kernel<<<blocks_for(m), kThreads, 0, stream>>>(d_q.data(), d_t.data(), m);
    cuda::check_last_launch("bellperson mul_kernel");
    t_free.record(stream);
    ntt::gpu::inverse(d_q.data(), tables, stream);  // A·B's on the odd coset
    if (d_c) {
      d_t.reset();  // in stream order: the peak of three buffers lasts only while b is transformed
      put(2, *d_c, copy.get());  // after b's upload in the copy stream's order, not after the GPU's work
    } else {
      t_free.make_wait(copy.get());
      put(2, d_t, copy.get());
    }
    c_ready.record(copy.get());
    c_ready.make_wait(stream);
    cuda::DeviceBuffer<Fr>& c_values = d_c ? *d_c : d_t;
    ntt::gpu::inverse(c_values.data(), tables, stream);  // C's coefficients
    quotient_plain_kernel<<<blocks_for(m), kThreads, 0, stream>>>(
        d_q.data(), c_values.data(), tables.twiddles(), m, z_plain, minus_z_plain);
    cuda::check_last_launch("bellperson quotient_plain_kernel");
    CUZK_CUDA_CHECK(cudaStreamSynchronize(stream));  // after c_ready: the copies are done too
  }
  if (prestaged_abc) prestaged_abc->reset();
  d_t.reset();
  expanded.reset();
  const auto* d_h = reinterpret_cast<const ff::BigInt<4>*>(d_q.data());
  cuda::maybe_inject_sticky_fault(stream);  // tests: poison the context here, as a faulting MSM would
  MsmResults<Curve> res;
  // Streamed points: [inputs, aux] (4.2 GB at 32 GiB PoRep) goes up during the H MSM only where the device
  // has room for it beside large slices of the H points (each slice re-merges every bucket); on 12 GiB cards
  // and below it waits for the H MSM. A 16 GiB card has ~12.3 GB here once the streamed plan's full NTT
  // table is gone: 7.5 GiB left, and 16 slices of the H points at c = 20, as at 24 GiB.
  const std::size_t w_bytes = (w.inputs.size() + w.aux.size()) * sizeof(Fr);
  constexpr std::size_t kStreamedHMsmRoom = std::size_t(7) << 30;
  if (!upload && (pts || cuda::vram_available() >= w_bytes + kStreamedHMsmRoom)) upload.emplace(w, stream);
  // The streamed plan: the A query's first points go up while the H MSM computes, into the room it leaves.
  std::optional<groth16::gpu::PointHeadUpload<G1>> a_head;
  msm::gpu::Options h_options;
  // The L and B queries' heads, each during the MSM before it (witness_side_streamed).
  WitnessHeadShares head_shares;
  if (!pts && k.plan == Plan::kStreamed) {
    head_shares = {streamed_l_head_share(), streamed_b_head_share(), streamed_b2_head_share()};
    const double share = streamed_head_share();
    if (share > 0)
      h_options.after_allocation = [&, share, free_before = cuda::vram_available(),
                                    up = upload.has_value()](std::size_t h_later) {
        start_a_head(p, m, free_before, h_later, up, share, stream, a_head);
      };
  }
  {
    StageTimer t(timings, "msm_h");
    res.c = msm<G1>(pts ? &pts->h : nullptr, p.h, d_h, m - 1, stream, h_options);
  }
  d_q.reset();
  if (!upload) upload.emplace(w, stream);
  if (!pts) {
    // Streamed points: each query whole, lean in chunks. (Running the H MSM beside these on a second stream,
    // each in a share of the room, was slower at 24 GiB: bench/RESULTS.md, 2026-12-07.)
    const std::size_t chunk = k.plan == Plan::kLean ? k.query_chunk : std::numeric_limits<std::size_t>::max();
    witness_side_streamed(p, w, *upload, chunk, stream, timings, a_head, head_shares).add_to(res);
  }
  if (pts) {
    // Resident points: the witness-side MSMs take the split form, on scalars gathered on the device.
    const WitnessScalars ws = classify_witness(p, w, *upload, stream, timings);
    const auto [a_tail, l_tail] = a_and_l_tails(*pts, ws, stream, timings);
    {
      StageTimer t(timings, "msm_a");  // the ones, and the inputs' other values: the aux's are in a_tail
      res.a = a_tail + a_ones_and_inputs(*pts, ws, w, stream, timings);
    }
    {
      StageTimer t(timings, "msm_b1");
      res.b1 = groth16::gpu::split_msm<G1>(pts->b_g1.data(), ws.plain(ws.b), ws.b_classes, stream, timings);
    }
    {
      StageTimer t(timings, "msm_b2");
      res.b2 = groth16::gpu::split_msm<G2>(pts->b_g2.data(), ws.plain(ws.b), ws.b_classes, stream, timings);
    }
    {
      StageTimer t(timings, "msm_c");  // L over the aux assignment (the C query's private part): its ones
      res.c += l_tail + groth16::gpu::ones_sum(pts->l.data(), ws.aux_classes, stream, timings);
    }
  }
  if (p.vk.delta1.is_infinity() || p.vk.delta2.is_infinity())
    throw Error("the key's δ is the identity (UnexpectedIdentity)");
  StageTimer t(timings, "assemble");
  return assemble<Curve>(BlindingPoints<Curve>{p.vk.alpha1, p.vk.beta1, p.vk.delta1, p.vk.beta2, p.vk.delta2},
                         res, r, s);
}

Proof<Curve> prove(const io::bellperson::Params& params, const Assignment& w, const Fr& r, const Fr& s,
                   cudaStream_t stream) {
  check(params, w);
  const ResidentKey key(params, stream);
  return prove(params, key, w, r, s, stream);
}

}  // namespace cuzk::groth16::bellperson::gpu
