#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <cub/device/device_scan.cuh>
#include <optional>
#include <string>
#include <utility>

#include "cuda/error.hpp"
#include "cuda/staged_upload.hpp"
#include "cuda/vram.hpp"
#include "groth16/bellperson_plan.hpp"
#include "groth16/gpu_bellperson_witness.cuh"
#include "msm/gpu.hpp"

namespace cuzk::groth16::bellperson::gpu {

using G1 = Curve::G1Cfg;
using G2 = Curve::G2Cfg;

namespace {

using groth16::gpu::split_detail::blocks_for;
using groth16::gpu::split_detail::kThreads;

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

// Scalars on the device for a split MSM with streamed points: `count` values (Montgomery) classified, then
// made plain in place. Does not own them.
class ClassifiedScalars {
 public:
  ClassifiedScalars(Fr* values, std::size_t count, cudaStream_t stream)
      : values_(values), count_(count), classes_(groth16::gpu::classify(values, count, stream)) {
    groth16::gpu::to_plain_in_place(values, count, stream);
  }

  // Σ over the key's points from `points` on (one per value), streamed from host memory; `head`: the first
  // of them already on the device.
  template <class Cfg>
  ec::Jacobian<Cfg> sum(const ec::Affine<Cfg>* points, cudaStream_t stream,
                        msm::gpu::DeviceHead<Cfg> head = {}, msm::gpu::Options options = {}) const {
    return groth16::gpu::split_msm_streamed<Cfg, 4>(points, count_,
                                                    reinterpret_cast<const ff::BigInt<4>*>(values_), classes_,
                                                    stream, head, std::move(options));
  }
  std::size_t count() const { return count_; }

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

}  // namespace

cuda::DeviceBuffer<Fr> DeviceWitness::b_query(const io::bellperson::Params& p, cudaStream_t stream) const {
  std::size_t n = 0;
  auto out =
      select_query(w.data(), n_in, b_inputs.data(), b_aux.data(), 0, w.size(), p.b_g1.size(), &n, stream);
  if (n != p.b_g1.size())
    throw Error("the B query selected " + std::to_string(n) + " values for " + std::to_string(p.b_g1.size()) +
                " points");
  return out;
}

WitnessUpload::WitnessUpload(const Assignment& w, cudaStream_t stream)
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

WitnessUpload::~WitnessUpload() {
  if (done_.valid()) done_.wait();
  cudaStreamSynchronize(copy_.get());
}

DeviceWitness WitnessUpload::take(cudaStream_t stream) {
  done_.get();
  uploaded_.make_wait(stream);
  return std::move(d_);
}

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

void WitnessSums::add_to(MsmResults<Curve>& res) const {
  res.a = a;
  res.b1 = b1;
  res.b2 = b2;
  res.c += l;
}

namespace {

// The streamed plan's witness side (each query whole): A (reading its head, uploaded during the H MSM), then
// L, then B in G1 and G2. With `shares`, while each MSM computes after its last slice the next query's first
// points go up into the room it leaves (groth16::gpu::NextHead): L's during A's MSM
// (streamed_l_head_points), B's G1 points during L's, B's G2 points during B's G1 MSM
// (streamed_b_head_points); each head is held only until the next MSM has read it. B's values are gathered
// before L's classification makes the aux values plain in place.
WitnessSums witness_side_whole(const io::bellperson::Params& p, DeviceWitness& d, cudaStream_t stream,
                               StageTimings* timings,
                               std::optional<groth16::gpu::PointHeadUpload<G1>>& a_head,
                               WitnessHeadShares shares) {
  using groth16::gpu::HeadRoom;
  WitnessSums out;
  groth16::gpu::NextHead<G1> l_head, b1_head;
  groth16::gpu::NextHead<G2> b2_head;
  const std::size_t n_aux = d.n_aux();
  for_each_query_chunk(
      d, nullptr, d.a_aux.data(), p.a.size(), d.w.size(), stream, timings,
      [&](const ClassifiedScalars& sc, std::size_t) {
        StageTimer t(timings, "msm_a");
        msm::gpu::Options options;
        if (shares.l > 0 && n_aux > 0) {
          // Given back after A: its MSM's buffers, its head and its gathered values.
          const std::size_t held = (a_head ? a_head->bytes() : 0) + sc.count() * sizeof(Fr);
          l_head.hook(
              options, p.l.data(), held,
              [&p, n_aux, share = shares.l](HeadRoom room) {
                return std::min(n_aux, streamed_l_head_points(p, room.free_now, room.freed_later, share));
              },
              stream);
        }
        out.a += sc.sum<G1>(p.a.data(), stream, a_head ? a_head->take() : msm::gpu::DeviceHead<G1>{},
                            std::move(options));
        a_head.reset();  // in the stream's order, after the sum that read it
      });
  cuda::DeviceBuffer<Fr> b_values;
  {
    // Montgomery values, gathered before L's classification makes [inputs, aux] plain.
    StageTimer t(timings, "classify");
    b_values = d.b_query(p, stream);
  }
  const std::size_t n_b = b_values.size();
  {
    std::optional<ClassifiedScalars> aux;
    {
      StageTimer t(timings, "classify");
      aux.emplace(d.w.data() + d.n_in, n_aux, stream);
    }
    StageTimer t(timings, "msm_c");
    msm::gpu::Options options;
    if (shares.b > 0 && n_b > 0)
      // Given back after L: its MSM's buffers, its head and the aux values' classes (two positions a value).
      b1_head.hook(
          options, p.b_g1.data(), l_head.bytes() + n_aux * 2 * sizeof(std::uint32_t),
          [&p, n_b, share = shares.b](HeadRoom room) {
            return std::min(n_b, streamed_b_head_points(p, room.free_now, room.freed_later, share, false));
          },
          stream);
    out.l += aux->sum<G1>(p.l.data(), stream, l_head.take(), std::move(options));
    l_head.reset();
  }
  std::optional<ClassifiedScalars> b;
  {
    StageTimer t(timings, "classify");
    b.emplace(b_values.data(), n_b, stream);
  }
  {
    StageTimer t(timings, "msm_b1");
    msm::gpu::Options options;
    if (shares.b2 > 0 && n_b > 0)
      b2_head.hook(
          options, p.b_g2.data(), b1_head.bytes(),
          [&p, n_b, share = shares.b2](HeadRoom room) {
            return std::min(n_b, streamed_b_head_points(p, room.free_now, room.freed_later, share, true));
          },
          stream);
    out.b1 += b->sum<G1>(p.b_g1.data(), stream, b1_head.take(), std::move(options));
    b1_head.reset();
  }
  StageTimer t(timings, "msm_b2");
  out.b2 += b->sum<G2>(p.b_g2.data(), stream, b2_head.take());
  b2_head.reset();
  return out;
}

}  // namespace

// The split form over streamed points, one query at a time (a 16 GiB card holds one query's scalars and
// classes beside [inputs, aux], not all three), each MSM streaming its points once; `chunk` values of
// [inputs, aux] at a time (lean: so that an 11 GiB card holds a chunk's). Dense, the 2^27 A and L MSMs sorted
// every window's digit of 130 M mostly-0/1 scalars: 5.4 and 3.1 s on the H200.
WitnessSums witness_side_streamed(const io::bellperson::Params& p, const Assignment& w, WitnessUpload& upload,
                                  std::size_t chunk, cudaStream_t stream, StageTimings* timings,
                                  std::optional<groth16::gpu::PointHeadUpload<G1>>& a_head,
                                  WitnessHeadShares head_shares) {
  DeviceWitness d;
  {
    StageTimer t(timings, "witness");
    d = upload.take(stream);
  }
  if (chunk >= d.w.size()) return witness_side_whole(p, d, stream, timings, a_head, head_shares);
  WitnessSums out;
  for_each_query_chunk(d, nullptr, d.a_aux.data(), p.a.size(), chunk, stream, timings,
                       [&](const ClassifiedScalars& sc, std::size_t at) {
                         StageTimer t(timings, "msm_a");
                         // The head holds the query's first points: the first chunk's.
                         const bool head = a_head && at == 0;
                         out.a += sc.sum<G1>(p.a.data() + at, stream,
                                             head ? a_head->take() : msm::gpu::DeviceHead<G1>{});
                         if (head) a_head.reset();  // in the stream's order, after the sum that read it
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

}  // namespace cuzk::groth16::bellperson::gpu
