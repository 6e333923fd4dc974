// The witness side of a bellperson proof on the GPU (gpu_bellperson.cu holds the H side and puts the two
// together): [inputs, aux] and the densities uploaded beside the H stage, then either classified for the
// split MSMs over resident points (zeros skipped, ones batch-added, the rest through Pippenger), or summed
// query by query over points streamed from host memory (the streamed and lean plans).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <future>
#include <optional>

#include "cuda/device_buffer.hpp"
#include "cuda/event.hpp"
#include "cuda/stream.hpp"
#include "ec/point.hpp"
#include "groth16/bellperson.hpp"
#include "groth16/gpu_point_head.cuh"
#include "groth16/gpu_split_msm.cuh"
#include "groth16/prover.hpp"
#include "groth16/timings.hpp"

namespace cuzk::groth16::bellperson::gpu {

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
  cuda::DeviceBuffer<Fr> b_query(const io::bellperson::Params& p, cudaStream_t stream) const;
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
  WitnessUpload(const Assignment& w, cudaStream_t stream);
  // Waits for the copies on every path (an exception in the proof included) before the buffers and the
  // stream go; a failed copy was reported by take(), or is moot once the proof has failed.
  ~WitnessUpload();
  WitnessUpload(const WitnessUpload&) = delete;
  WitnessUpload& operator=(const WitnessUpload&) = delete;

  // The uploaded buffers, with `stream` made to wait for the copies; rethrows a copy's error.
  DeviceWitness take(cudaStream_t stream);

 private:
  cuda::Stream copy_;
  cuda::Event allocated_{false}, uploaded_{false};
  DeviceWitness d_;
  std::future<void> done_;
};

// [inputs, aux] classified for the split MSMs over resident points: the B query gathered, the aux values and
// it classified, the A query's ones read off the aux values' classes. Stages witness (the upload's wait) and
// classify.
WitnessScalars classify_witness(const io::bellperson::Params& p, const Assignment& w, WitnessUpload& upload,
                                cudaStream_t stream, StageTimings* timings);

// The witness-side sums of a proof with streamed points: the A query, B in G1 and G2, and L (the C query's
// private part).
struct WitnessSums {
  Curve::G1Jac a = Curve::G1Jac::infinity(), b1 = Curve::G1Jac::infinity(), l = Curve::G1Jac::infinity();
  Curve::G2Jac b2 = Curve::G2Jac::infinity();

  // Into a proof's sums: A and B from here, L added to C (which holds the H term or will).
  void add_to(MsmResults<Curve>& res) const;
};

// The split form over streamed points, one query at a time (a 16 GiB card holds one query's scalars and
// classes beside [inputs, aux], not all three), each MSM streaming its points once; `chunk` values of
// [inputs, aux] at a time (lean: so that an 11 GiB card holds a chunk's). Dense, the 2^27 A and L MSMs sorted
// every window's digit of 130 M mostly-0/1 scalars: 5.4 and 3.1 s on the H200. `a_head` (may be empty): the A
// query's first points, uploaded during the H MSM; its sum reads them there, and they are freed after it.
// `head_shares` (whole queries only; 0: none): the shares of the room each MSM leaves that the next query's
// first points take (the L query's during the A query's MSM, the B query's during L's and B's G1 MSM).
struct WitnessHeadShares {
  double l = 0, b = 0, b2 = 0;  // streamed_l_head_share, streamed_b_head_share, streamed_b2_head_share
};
WitnessSums witness_side_streamed(const io::bellperson::Params& p, const Assignment& w, WitnessUpload& upload,
                                  std::size_t chunk, cudaStream_t stream, StageTimings* timings,
                                  std::optional<groth16::gpu::PointHeadUpload<Curve::G1Cfg>>& a_head,
                                  WitnessHeadShares head_shares = {});

}  // namespace cuzk::groth16::bellperson::gpu
