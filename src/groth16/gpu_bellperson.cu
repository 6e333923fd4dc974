#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdlib>
#include <cub/device/device_scan.cuh>
#include <future>
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
                      cudaStream_t stream) {
  if (n == 0) return ec::Jacobian<Cfg>::infinity();
  return resident ? msm::gpu::pippenger<Cfg, 4>(resident->data(), d_scalars, n, stream)
                  : msm::gpu::pippenger_streamed<Cfg, 4>(host.data(), d_scalars, n, stream);
}

// Bit i of bellperson density words, as a query flag or a scan's input.
struct DensityBit {
  const std::uint64_t* words;
  __host__ __device__ std::uint32_t operator()(std::size_t i) const {
    return static_cast<std::uint32_t>((words[i / 64] >> (i % 64)) & 1);
  }
};

// flags[i]: whether value first + i of [inputs, aux] is in a query, for i < count. Inputs by `head` (every
// input when null), aux values by `aux` (density bit words, as bellperson's DensityTracker keeps them).
__global__ void query_flags_kernel(std::size_t n_in, const std::uint64_t* head, const std::uint64_t* aux,
                                   std::size_t first, std::size_t count, std::uint8_t* flags) {
  const std::size_t k = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (k >= count) return;
  const std::size_t i = first + k;
  const std::uint64_t* words = i < n_in ? head : aux;
  flags[k] = words ? static_cast<std::uint8_t>(DensityBit{words}(i < n_in ? i : i - n_in)) : 1;
}

// The values [first, first + count) of d_w = [inputs, aux] that a query holds (Montgomery), gathered on the
// device in the order of the key's points: the device form of a_query_scalars / b_query_scalars, or a chunk
// of it. `head` and `aux` are density bit words on the device (head null: every input). *selected: how many.
cuda::DeviceBuffer<Fr> select_query(const Fr* d_w, std::size_t n_in, const std::uint64_t* head,
                                    const std::uint64_t* aux, std::size_t first, std::size_t count,
                                    std::size_t bound, std::size_t* selected, cudaStream_t stream) {
  cuda::DeviceBuffer<Fr> out(std::min(count, bound), stream);
  *selected = 0;
  if (count == 0 || bound == 0) return out;
  cuda::DeviceBuffer<std::uint8_t> flags(count, stream);
  query_flags_kernel<<<blocks_for(count), kThreads, 0, stream>>>(n_in, head, aux, first, count, flags.data());
  cuda::check_last_launch("bellperson query_flags_kernel");
  *selected = groth16::gpu::select_flagged(d_w + first, flags.data(), out.data(), count, stream);
  // check() compared the densities' popcounts with the key's lengths, so this is a bug if it fires.
  if (*selected > out.size())
    throw Error("a query selected " + std::to_string(*selected) + " values for " +
                std::to_string(out.size()) + " points");
  return out;
}

// map[i] ← n_in + map[i] (aux value i's rank among those in the A query) where a_aux has bit i, else
// kNoPoint.
__global__ void a_point_map_kernel(const std::uint64_t* a_aux, std::size_t n_aux, std::size_t n_in,
                                   std::uint32_t* map) {
  const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (i >= n_aux) return;
  map[i] = DensityBit{a_aux}(i) ? static_cast<std::uint32_t>(n_in + map[i]) : msm::gpu::kNoPoint;
}

// For every aux value, its point in the A query (every input first, then the aux values set in a_aux), or
// kNoPoint: how the A query's sum reads the aux values' sort (pippenger_shared).
cuda::DeviceBuffer<std::uint32_t> a_point_map(const std::uint64_t* a_aux, std::size_t n_aux, std::size_t n_in,
                                              cudaStream_t stream) {
  cuda::DeviceBuffer<std::uint32_t> map(n_aux, stream);
  if (n_aux == 0) return map;
  const auto bits =
      thrust::make_transform_iterator(thrust::counting_iterator<std::size_t>(0), DensityBit{a_aux});
  std::size_t temp_bytes = 0;
  CUZK_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, temp_bytes, bits, map.data(), n_aux, stream));
  cuda::DeviceBuffer<unsigned char> temp(std::max<std::size_t>(temp_bytes, 1), stream);
  CUZK_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temp.data(), temp_bytes, bits, map.data(), n_aux, stream));
  a_point_map_kernel<<<blocks_for(n_aux), kThreads, 0, stream>>>(a_aux, n_aux, n_in, map.data());
  cuda::check_last_launch("bellperson a_point_map_kernel");
  return map;
}

// The A query's point for the k-th aux value equal to one (kNoPoint where the A query lacks it).
struct AOnePoint {
  const std::uint32_t* aux_ones;
  const std::uint32_t* a_of_aux;
  __host__ __device__ std::uint32_t operator()(std::size_t k) const { return a_of_aux[aux_ones[k]]; }
};
struct HasPoint {
  __host__ __device__ bool operator()(std::uint32_t i) const { return i != msm::gpu::kNoPoint; }
};

// The A query's ones, as positions among its points: the inputs equal to one (every input is in the A query,
// first), then the aux ones that the A query holds, read off the aux values' classes through a_of_aux. So
// the A query is never gathered nor classified (130 M values at 32 GiB PoRep). Waits for the stream.
groth16::gpu::WitnessClasses a_query_ones(const Assignment& w,
                                          const groth16::gpu::WitnessClasses& aux_classes,
                                          const cuda::DeviceBuffer<std::uint32_t>& a_of_aux,
                                          cudaStream_t stream) {
  std::vector<std::uint32_t> input_ones;
  for (std::size_t j = 0; j < w.inputs.size(); ++j)
    if (w.inputs[j].is_one()) input_ones.push_back(static_cast<std::uint32_t>(j));
  groth16::gpu::WitnessClasses out{
      cuda::DeviceBuffer<std::uint32_t>(input_ones.size() + aux_classes.n_ones, stream),
      cuda::DeviceBuffer<std::uint32_t>(0, stream)};
  out.ones.upload(input_ones.data(), input_ones.size(), stream);
  out.n_ones = input_ones.size();
  if (aux_classes.n_ones == 0) return out;
  const auto points = thrust::make_transform_iterator(thrust::counting_iterator<std::size_t>(0),
                                                      AOnePoint{aux_classes.ones.data(), a_of_aux.data()});
  out.n_ones +=
      groth16::gpu::select_if(points, out.ones.data() + out.n_ones, aux_classes.n_ones, HasPoint{}, stream);
  return out;
}

// The scalars of the witness-side MSMs, on the device and classified for the split form (zeros skipped,
// ones batch-added): [inputs, aux] (the aux values serve L and the A query's tail), the B query gathered
// from it, and the A query's ones.
struct WitnessScalars {
  cuda::DeviceBuffer<Fr> w, b;  // plain integers once classified
  groth16::gpu::WitnessClasses a_classes, b_classes, aux_classes;
  cuda::DeviceBuffer<std::uint32_t> a_of_aux;  // aux value i → its A query point, or msm::gpu::kNoPoint
  std::size_t n_in = 0;
  const ff::BigInt<4>* aux() const { return reinterpret_cast<const ff::BigInt<4>*>(w.data() + n_in); }
  const ff::BigInt<4>* plain(const cuda::DeviceBuffer<Fr>& v) const {
    return reinterpret_cast<const ff::BigInt<4>*>(v.data());
  }
};

// What the witness-side MSMs read of an assignment, on the device: [inputs, aux] and the three densities.
struct DeviceWitness {
  cuda::DeviceBuffer<Fr> w;
  cuda::DeviceBuffer<std::uint64_t> a_aux, b_inputs, b_aux;  // bellperson's density bit words
  std::size_t n_in = 0;

  std::size_t n_aux() const { return w.size() - n_in; }
  // The B query's scalars (the inputs set in b_inputs, then the aux values set in b_aux), in the order of its
  // points: with resident points only the B query is gathered (classify_witness).
  cuda::DeviceBuffer<Fr> b_query(const io::bellperson::Params& p, cudaStream_t stream) const {
    std::size_t n = 0;
    auto out =
        select_query(w.data(), n_in, b_inputs.data(), b_aux.data(), 0, w.size(), p.b_g1.size(), &n, stream);
    if (n != p.b_g1.size())
      throw Error("the B query selected " + std::to_string(n) + " values for " +
                  std::to_string(p.b_g1.size()) + " points");
    return out;
  }
};

// [inputs, aux] and the densities uploaded on a copy stream while the H MSM runs (4.2 GB at 32 GiB PoRep,
// against an H MSM of ~1 s). The assignment may be pageable memory: the copy (through StagedUpload's
// page-locked buffers, filled on the host) holds the calling thread until its bytes are read, so a helper
// thread makes it and the H MSM is launched meanwhile. Straight from pageable memory it took ~0.5 s and held
// the driver's staging path, and the H MSM took 1.88 s instead of 1.26 (on the H200), apparently its small
// copies waiting behind it. The densities (16 MB each at PoRep scale) come here too, not at the classify
// stage: there a second worker's pre-staging DMA (12.9 GB at K = 27) was often in flight, and the proof's
// copies waited behind it on the copy engine (classify 249 ms instead of 24).
class WitnessUpload {
 public:
  // The buffers are the proof stream's (stream-ordered there): the copies wait for their allocation.
  WitnessUpload(const Assignment& w, cudaStream_t stream)
      : d_{cuda::DeviceBuffer<Fr>(w.inputs.size() + w.aux.size(), stream),
           cuda::DeviceBuffer<std::uint64_t>(w.a_aux.words.size(), stream),
           cuda::DeviceBuffer<std::uint64_t>(w.b_inputs.words.size(), stream),
           cuda::DeviceBuffer<std::uint64_t>(w.b_aux.words.size(), stream), w.inputs.size()} {
    int device = 0;
    CUZK_CUDA_CHECK(cudaGetDevice(&device));
    allocated_.record(stream);
    allocated_.make_wait(copy_.get());
    done_ = std::async(std::launch::async, [this, &w, device] {
      CUZK_CUDA_CHECK(cudaSetDevice(device));
      cuda::StagedUpload up;
      const cudaStream_t copy = copy_.get();
      up.upload(d_.a_aux, w.a_aux.words.data(), w.a_aux.words.size(), copy);
      up.upload(d_.b_inputs, w.b_inputs.words.data(), w.b_inputs.words.size(), copy);
      up.upload(d_.b_aux, w.b_aux.words.data(), w.b_aux.words.size(), copy);
      up.upload(d_.w, w.inputs.data(), w.inputs.size(), copy);
      up.upload(d_.w, w.aux.data(), w.aux.size(), copy, w.inputs.size());
      uploaded_.record(copy);
    });
  }
  // Waits for the copies on every path (an exception in the proof included) before the buffers and the
  // stream go; a failed copy was reported by take(), or is moot once the proof has failed.
  ~WitnessUpload() {
    if (done_.valid()) done_.wait();
    cudaStreamSynchronize(copy_.get());
  }
  WitnessUpload(const WitnessUpload&) = delete;
  WitnessUpload& operator=(const WitnessUpload&) = delete;

  // The uploaded buffers, with `stream` made to wait for the copies; rethrows a copy's error.
  DeviceWitness take(cudaStream_t stream) {
    done_.get();
    uploaded_.make_wait(stream);
    return std::move(d_);
  }

 private:
  cuda::Stream copy_;
  cuda::Event allocated_{false}, uploaded_{false};
  DeviceWitness d_;
  std::future<void> done_;
};

WitnessScalars classify_witness(const io::bellperson::Params& p, const Assignment& w, WitnessUpload& upload,
                                cudaStream_t stream, StageTimings* timings) {
  WitnessScalars s;
  s.n_in = w.inputs.size();
  DeviceWitness d;
  {
    StageTimer t(timings, "witness");  // what is left of the upload after the H MSM
    d = upload.take(stream);
  }
  StageTimer t(timings, "classify");
  s.b = d.b_query(p, stream);
  s.w = std::move(d.w);
  s.b_classes = groth16::gpu::classify(s.b.data(), s.b.size(), stream);
  s.aux_classes = groth16::gpu::classify(s.w.data() + s.n_in, w.aux.size(), stream);
  s.a_of_aux = a_point_map(d.a_aux.data(), w.aux.size(), s.n_in, stream);
  // The A query's ones only: its other values are the aux's (in the sort shared with L) and the inputs'.
  s.a_classes = a_query_ones(w, s.aux_classes, s.a_of_aux, stream);
  for (auto* v : {&s.w, &s.b}) groth16::gpu::to_plain_in_place(v->data(), v->size(), stream);
  CUZK_CUDA_CHECK(cudaStreamSynchronize(stream));
  return s;
}

// Scalars on the device for a split MSM with streamed points: `count` values (Montgomery) classified, then
// made plain in place. Does not own them.
class ClassifiedScalars {
 public:
  ClassifiedScalars(Fr* values, std::size_t count, cudaStream_t stream)
      : values_(values), count_(count), classes_(groth16::gpu::classify(values, count, stream)) {
    groth16::gpu::to_plain_in_place(values, count, stream);
  }

  // Σ over the key's points from `points` on (one per value), streamed from host memory.
  template <class Cfg>
  ec::Jacobian<Cfg> sum(const ec::Affine<Cfg>* points, cudaStream_t stream) const {
    return groth16::gpu::split_msm_streamed<Cfg, 4>(
        points, count_, reinterpret_cast<const ff::BigInt<4>*>(values_), classes_, stream);
  }

 private:
  Fr* values_;
  std::size_t count_;
  groth16::gpu::WitnessClasses classes_;
};

// A query with streamed points, its scalars gathered from [inputs, aux] (the uploaded d.w) by its densities
// (`head` over the inputs, null: all of them; `aux` over the aux values): `chunk` values of [inputs, aux] at
// a time, each chunk's selected values being the query's next points. `add(scalars, first_point)` sums a
// chunk's. The streamed plan takes the query whole (chunk ≥ all values); lean in chunks, so that an 11 GiB
// card holds a chunk's gathered values and classes beside [inputs, aux], not the whole A query's (4 GiB and
// 1.3 GiB at 32 GiB PoRep). Every point of the query must be met (`points`).
template <class Add>
void for_each_query_chunk(const DeviceWitness& d, const std::uint64_t* head, const std::uint64_t* aux,
                          std::size_t points, std::size_t chunk, cudaStream_t stream, StageTimings* timings,
                          Add&& add) {
  const std::size_t total = d.w.size();
  std::size_t point = 0;
  for (std::size_t first = 0, count = 0; first < total; first += count) {
    count = std::min(chunk, total - first);
    std::size_t n = 0;
    cuda::DeviceBuffer<Fr> values;
    std::optional<ClassifiedScalars> scalars;
    {
      StageTimer t(timings, "classify");
      values = select_query(d.w.data(), d.n_in, head, aux, first, count, points - point, &n, stream);
      if (n > 0) scalars.emplace(values.data(), n, stream);
    }
    if (scalars) add(*scalars, point);
    point += n;
  }
  // check() compared the densities' popcounts with the key's lengths, so this is a bug if it fires.
  if (point != points)
    throw Error("a query selected " + std::to_string(point) + " values for " + std::to_string(points) +
                " points");
}

// The witness-side sums of a proof with streamed points: the A query, B in G1 and G2, and L (the C query's
// private part).
struct WitnessSums {
  ec::Jacobian<G1> a = ec::Jacobian<G1>::infinity(), b1 = ec::Jacobian<G1>::infinity(),
                   l = ec::Jacobian<G1>::infinity();
  ec::Jacobian<G2> b2 = ec::Jacobian<G2>::infinity();
};

// The split form over streamed points, one query at a time (a 16 GiB card holds one query's scalars and
// classes beside [inputs, aux], not all three), each MSM streaming its points once; `chunk` values of
// [inputs, aux] at a time (lean: so that an 11 GiB card holds a chunk's). Dense, the 2^27 A and L MSMs sorted
// every window's digit of 130 M mostly-0/1 scalars: 5.4 and 3.1 s on the H200.
WitnessSums witness_side_streamed(const io::bellperson::Params& p, const Assignment& w, WitnessUpload& upload,
                                  std::size_t chunk, cudaStream_t stream, StageTimings* timings) {
  DeviceWitness d;
  {
    StageTimer t(timings, "witness");
    d = upload.take(stream);
  }
  WitnessSums out;
  for_each_query_chunk(d, nullptr, d.a_aux.data(), p.a.size(), chunk, stream, timings,
                       [&](const ClassifiedScalars& sc, std::size_t at) {
                         StageTimer t(timings, "msm_a");
                         out.a += sc.sum<G1>(p.a.data() + at, stream);
                       });
  for_each_query_chunk(d, d.b_inputs.data(), d.b_aux.data(), p.b_g1.size(), chunk, stream, timings,
                       [&](const ClassifiedScalars& sc, std::size_t at) {
                         {
                           StageTimer t(timings, "msm_b1");
                           out.b1 += sc.sum<G1>(p.b_g1.data() + at, stream);
                         }
                         StageTimer t(timings, "msm_b2");
                         out.b2 += sc.sum<G2>(p.b_g2.data() + at, stream);
                       });
  // L over the aux assignment, classified in place (its last use): a chunk of values at a time.
  for (std::size_t first = 0, count = 0; first < w.aux.size(); first += count) {
    count = std::min(chunk, w.aux.size() - first);
    std::optional<ClassifiedScalars> aux;
    {
      StageTimer t(timings, "classify");
      aux.emplace(d.w.data() + d.n_in + first, count, stream);
    }
    StageTimer t(timings, "msm_c");
    out.l += aux->sum<G1>(p.l.data() + first, stream);
  }
  return out;
}

// How a streamed proof runs its H MSM beside the witness-side MSMs: the H MSM's share of the room, and the
// values of [inputs, aux] per query chunk on the witness side.
struct StreamedOverlap {
  double h_share = 0.5;
  std::size_t query_chunk = std::numeric_limits<std::size_t>::max();
};

// CUZK_STREAMED_OVERLAP: "off" (one after the other), or SHARE[:LOG2_CHUNK] (the H MSM's share of the room,
// in (0, 1), and chunks of 2^LOG2_CHUNK values; whole queries without). Unset: off, until a 32 GiB PoRep
// under a 24 GiB limit has measured it on a GPU (issue 31).
std::optional<StreamedOverlap> streamed_overlap() {
  const char* env = std::getenv("CUZK_STREAMED_OVERLAP");
  if (!env || !*env) return std::nullopt;
  StreamedOverlap o;
  const std::string v(env);
  if (v == "off") return std::nullopt;
  const auto bad = [&] {
    return Error("CUZK_STREAMED_OVERLAP=" + v + ": expected off or SHARE[:LOG2_CHUNK], SHARE in (0, 1)");
  };
  char* end = nullptr;
  o.h_share = std::strtod(v.c_str(), &end);
  if (end == v.c_str() || !(o.h_share > 0 && o.h_share < 1)) throw bad();
  if (*end == ':') {
    const char* start = end + 1;
    const unsigned long bits = std::strtoul(start, &end, 10);
    if (end == start || bits < 10 || bits > 40) throw bad();
    o.query_chunk = std::size_t(1) << bits;
  }
  if (*end != '\0') throw bad();
  return o;
}

}  // namespace

struct ResidentKey::Impl {
  struct Points {
    cuda::DeviceBuffer<ec::Affine<G1>> h, l, a, b_g1;
    cuda::DeviceBuffer<ec::Affine<G2>> b_g2;
  };
  Plan plan;
  ntt::gpu::Tables<Fr> tables;
  std::size_t query_chunk = kLeanQueryChunk;      // lean: values of [inputs, aux] per query chunk
  std::optional<Points> points;                   // resident
  std::vector<std::shared_ptr<void>> registered;  // streamed: page-locks of the host points

  Impl(const io::bellperson::Params& p, cudaStream_t stream, Plan wanted, const std::string& keep_as)
      : plan(wanted),
        tables(log_domain(p), poly::root_of_unity_from<Fr>(kGenerator, log_domain(p) + 1), stream,
               wanted == Plan::kLean ? ntt::TableLayout::kCompact : ntt::TableLayout::kFull) {
    if (plan == Plan::kResident) {
      const auto up = [&](const std::string& query, const auto& v) {
        return cuda::kept_or_uploaded(keep_as.empty() ? std::string() : keep_as + "/" + query, v, stream);
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
    ntt::gpu::to_odd_coset(d_q.data(), 1, k.tables, stream);
    // Every kernel that needs no c is queued before c's upload is: from pageable memory (the C ABI) an upload
    // returns only once the host has read its source (~80 ms at 2^27), and the GPU must not wait for that.
    put(1, d_t, copy.get());
    b_ready.record(copy.get());
    b_ready.make_wait(stream);
    ntt::gpu::to_odd_coset(d_t.data(), 1, k.tables, stream);
    mul_kernel<<<blocks_for(m), kThreads, 0, stream>>>(d_q.data(), d_t.data(), m);
    cuda::check_last_launch("bellperson mul_kernel");
    t_free.record(stream);
    ntt::gpu::inverse(d_q.data(), k.tables, stream);  // A·B's on the odd coset
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
    ntt::gpu::inverse(c_values.data(), k.tables, stream);  // C's coefficients
    quotient_plain_kernel<<<blocks_for(m), kThreads, 0, stream>>>(
        d_q.data(), c_values.data(), k.tables.twiddles(), m, z_plain, minus_z_plain);
    cuda::check_last_launch("bellperson quotient_plain_kernel");
    CUZK_CUDA_CHECK(cudaStreamSynchronize(stream));  // after c_ready: the copies are done too
  }
  if (prestaged_abc) prestaged_abc->reset();
  d_t.reset();
  const auto* d_h = reinterpret_cast<const ff::BigInt<4>*>(d_q.data());
  cuda::maybe_inject_sticky_fault(stream);  // tests: poison the context here, as a faulting MSM would
  MsmResults<Curve> res;
  // Streamed points: [inputs, aux] (4.2 GB at 32 GiB PoRep) goes up during the H MSM only where the device
  // has room for it beside large slices of the H points; on 16 GiB cards and below it waits for the H MSM,
  // which then slices its 2^27 points 8–16 times instead of 64–128 (each slice re-merges every bucket).
  const std::size_t w_bytes = (w.inputs.size() + w.aux.size()) * sizeof(Fr);
  constexpr std::size_t kStreamedHMsmRoom = std::size_t(8) << 30;
  if (!upload && (pts || cuda::vram_available() >= w_bytes + kStreamedHMsmRoom)) upload.emplace(w, stream);
  const std::optional<StreamedOverlap> overlap =
      !pts && k.plan == Plan::kStreamed && upload ? streamed_overlap() : std::nullopt;
  if (overlap) {
    // Streamed points with room to spare (24 GiB cards at 32 GiB PoRep): the H MSM, bound by its products,
    // runs on a helper thread while the witness-side MSMs, bound by the bus (their scalars are mostly 0 and
    // 1, their 34.6 GB of points cross PCIe), run beside it on a second stream, where one after the other
    // left the GPU's cores idle during their uploads. Each plans within its share of the room.
    const std::size_t room = cuda::vram_available();
    const auto h_room = static_cast<std::size_t>(overlap->h_share * double(room));
    int device = 0;
    CUZK_CUDA_CHECK(cudaGetDevice(&device));
    cuda::ThreadVramSection section;  // the engine's per-proof need counts the helper's peak too
    std::size_t h_peak = 0;
    double h_ms = 0;
    std::future<ec::Jacobian<G1>> h_sum = std::async(std::launch::async, [&] {
      CUZK_CUDA_CHECK(cudaSetDevice(device));
      const cuda::ThreadVramShare share(h_room);
      const cuda::ThreadVramPeak peak;
      const auto t0 = std::chrono::steady_clock::now();
      const auto sum = msm<G1>(nullptr, p.h, d_h, m - 1, stream);
      h_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      h_peak = peak.bytes();
      return sum;
    });  // waited for on every path: its destructor, before d_q goes
    cuda::Stream side;
    WitnessSums sums;
    {
      const cuda::ThreadVramShare share(room - h_room);
      sums = witness_side_streamed(p, w, *upload, overlap->query_chunk, side.get(), timings);
    }
    {
      StageTimer t(timings, "msm_h");  // the H MSM's part after the witness side's (its whole: msm_h_beside)
      res.c = h_sum.get() + sums.l;
    }
    section.add_helper_peak(h_peak);
    if (timings) timings->add_detail("msm_h_beside", h_ms);
    res.a = sums.a;
    res.b1 = sums.b1;
    res.b2 = sums.b2;
  } else {
    StageTimer t(timings, "msm_h");
    res.c = msm<G1>(pts ? &pts->h : nullptr, p.h, d_h, m - 1, stream);
  }
  d_q.reset();
  if (!upload) upload.emplace(w, stream);
  if (!pts && !overlap) {
    // Streamed points: lean, a query in chunks.
    const std::size_t chunk = k.plan == Plan::kLean ? k.query_chunk : std::numeric_limits<std::size_t>::max();
    const WitnessSums sums = witness_side_streamed(p, w, *upload, chunk, stream, timings);
    res.a = sums.a;
    res.b1 = sums.b1;
    res.b2 = sums.b2;
    res.c += sums.l;
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
