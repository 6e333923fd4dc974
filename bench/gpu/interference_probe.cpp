// cuzk-bench interference [LOG_N=24] [GIB=4] [REPS=5]: what a second worker's host-side GPU calls cost the
// proof that holds the GPU. Through the daemon with two workers, the H MSM of a partition takes 13 % longer
// at K = 24 (248 against 218 ms) and up to 230 ms longer at K = 27 than with one worker (bench/RESULTS.md),
// about as long as the other worker's pre-staging upload of its a, b, c takes (1.6 GB and 12.9 GB at ~50
// GB/s). The MSM allocates and frees its buckets and sort arrays with cudaMalloc/cudaFree, which may wait for
// work in flight anywhere on the device, that upload included.
//
// One thread times a BLS12-381 G1 MSM of 2^LOG_N resident points and dense scalars (host wall clock of the
// whole call, allocations included, as the provers run it), first alone, then while a second thread on its
// own stream repeats one of:
//   upload      GIB from page-locked memory in one cudaMemcpyAsync (how a pre-staged a, b, c goes up);
//   paced       the same in 128 MiB pieces, the next one issued when the one before it is done;
//   alloc       cudaMalloc and cudaFree of GIB, no copy (pre-staging's allocation alone);
//   alloc+upload both, as pre-staging did them;
//   pool alloc   the allocation stream-ordered (cudaMallocAsync/cudaFreeAsync on the thread's stream, then a
//                synchronisation, where the pool gives the memory back to CUDA);
//   pool+upload  both, as pre-staging does them now;
//   staged      GIB from pageable memory through cuda::StagedUpload (CPU copies on every core into two
//               page-locked buffers: how [inputs, aux] went up beside the H MSM before b908524);
//   cpu         copies between two pageable buffers on every core, no CUDA call (another worker decoding
//               an assignment: does a busy host slow the MSM by itself?).
// Each row: the MSM's median ms and its slowdown against running alone; the last column is the second
// thread's throughput (GB/s for copies, allocations per second otherwise). The MSM result is checked to be
// the same in every row. The MSM allocates its temporaries stream-ordered unless CUZK_STREAM_ORDERED_ALLOC=0:
// run it both ways to see what the pool changes.
#include <cuda_runtime_api.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "cuda/device_buffer.hpp"
#include "cuda/error.hpp"
#include "cuda/parallel_copy.hpp"
#include "cuda/pinned_buffer.hpp"
#include "cuda/staged_upload.hpp"
#include "cuda/stream.hpp"
#include "cuda/vram.hpp"
#include "ec/bls12_381.hpp"
#include "msm/gpu.hpp"
#include "probe_support.hpp"

namespace cuzk::bench {
namespace {

using Cfg = Bls12_381::G1Cfg;

enum class Load { kNone, kUpload, kPaced, kAlloc, kAllocUpload, kPoolAlloc, kPoolAllocUpload, kStaged, kCpu };

// What the loads read and write.
struct LoadBuffers {
  cuda::PinnedBuffer<std::byte> pinned;
  std::vector<std::byte> pageable, pageable_out;
  cuda::DeviceBuffer<std::byte> device;
  std::size_t bytes;
};

const char* name_of(Load l) {
  switch (l) {
    case Load::kNone:
      return "alone";
    case Load::kUpload:
      return "upload";
    case Load::kPaced:
      return "paced";
    case Load::kAlloc:
      return "alloc";
    case Load::kAllocUpload:
      return "alloc+upload";
    case Load::kPoolAlloc:
      return "pool alloc";
    case Load::kPoolAllocUpload:
      return "pool+upload";
    case Load::kStaged:
      return "staged";
    case Load::kCpu:
      return "cpu";
  }
  return "?";
}

// One round of the second thread's load on `stream`; returns the bytes it moved (0 for an allocation).
std::size_t load_round(Load load, LoadBuffers& b, cudaStream_t stream) {
  const std::size_t bytes = b.bytes;
  switch (load) {
    case Load::kNone:
      return 0;
    case Load::kUpload:
      b.device.upload(b.pinned.data(), bytes, stream);
      CUZK_CUDA_CHECK(cudaStreamSynchronize(stream));
      return bytes;
    case Load::kPaced: {
      constexpr std::size_t kPiece = std::size_t(128) << 20;
      for (std::size_t at = 0; at < bytes; at += kPiece) {
        b.device.upload(b.pinned.data() + at, std::min(kPiece, bytes - at), stream, at);
        CUZK_CUDA_CHECK(cudaStreamSynchronize(stream));
      }
      return bytes;
    }
    case Load::kAlloc: {
      cuda::DeviceBuffer<std::byte> fresh(bytes);
      return 0;
    }
    case Load::kAllocUpload: {
      cuda::DeviceBuffer<std::byte> fresh(bytes);
      fresh.upload(b.pinned.data(), bytes, stream);
      CUZK_CUDA_CHECK(cudaStreamSynchronize(stream));
      return bytes;
    }
    case Load::kPoolAlloc:
    case Load::kPoolAllocUpload: {
      {
        cuda::DeviceBuffer<std::byte> fresh(bytes, stream);
        if (load == Load::kPoolAllocUpload) fresh.upload(b.pinned.data(), bytes, stream);
      }
      CUZK_CUDA_CHECK(cudaStreamSynchronize(stream));
      return load == Load::kPoolAllocUpload ? bytes : 0;
    }
    case Load::kStaged: {
      cuda::StagedUpload up;
      up.upload(b.device, b.pageable.data(), bytes, stream);
      CUZK_CUDA_CHECK(cudaStreamSynchronize(stream));
      return bytes;
    }
    case Load::kCpu:
      cuda::parallel_copy(b.pageable_out.data(), b.pageable.data(), bytes);
      return bytes;
  }
  return 0;
}

int measure_interference(int argc, char** argv) {
  const int log_n = argc >= 1 ? std::atoi(argv[0]) : 24;
  const double gib = argc >= 2 ? std::atof(argv[1]) : 4.0;
  const int reps = argc >= 3 ? std::atoi(argv[2]) : 5;
  if (log_n < 10 || log_n > 28 || !(gib > 0) || reps < 1) {
    std::fprintf(stderr, "usage: cuzk-bench interference [LOG_N 10..28] [GIB > 0] [REPS ≥ 1]\n");
    return 2;
  }
  const std::size_t bytes = static_cast<std::size_t>(gib * double(1 << 30));
  cuda::Stream msm_stream, load_stream;

  const DenseG1Msm inputs = dense_g1_msm(log_n, msm_stream.get());

  LoadBuffers buffers{cuda::PinnedBuffer<std::byte>(bytes), std::vector<std::byte>(bytes),
                      std::vector<std::byte>(bytes), cuda::DeviceBuffer<std::byte>(bytes), bytes};
  for (std::size_t i = 0; i < bytes; i += 4096) {  // every page touched
    buffers.pinned.data()[i] = std::byte(i >> 12);
    buffers.pageable[i] = buffers.pageable_out[i] = std::byte(i >> 12);
  }

  auto msm = [&] {
    return msm::gpu::pippenger<Cfg>(inputs.points.data(), inputs.scalars.data(), inputs.n, msm_stream.get());
  };
  const auto expected = msm();  // warm-up, and the result every row must reproduce
  std::printf(
      "device: BLS12-381 G1 MSM of 2^%d, a second thread's load of %.2f GiB; median of %d; MSM "
      "temporaries %s\n",
      log_n, gib, reps, cuda::stream_ordered_allocation() ? "stream-ordered" : "cudaMalloc'd");
  std::printf("| load | MSM ms | slowdown | second thread |\n|---|---:|---:|---:|\n");
  double alone = 0;
  bool same = true;
  for (const Load load : {Load::kNone, Load::kUpload, Load::kPaced, Load::kAlloc, Load::kAllocUpload,
                          Load::kPoolAlloc, Load::kPoolAllocUpload, Load::kStaged, Load::kCpu}) {
    std::atomic<bool> stop{false};
    std::atomic<std::size_t> rounds{0}, moved{0};
    const auto t0 = Clock::now();
    std::thread second([&] {
      while (load != Load::kNone && !stop.load()) {
        moved += load_round(load, buffers, load_stream.get());
        ++rounds;
      }
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // the load is running before the MSM starts
    std::vector<double> times;
    for (int r = 0; r < reps; ++r) {
      const auto t = Clock::now();
      same = msm().to_affine() == expected.to_affine() && same;
      times.push_back(ms_since(t));
    }
    stop = true;
    second.join();
    const double span_s = ms_since(t0) / 1e3;
    const double msm_ms = median(times);
    if (load == Load::kNone) alone = msm_ms;
    std::string rate = "—";
    if (load == Load::kAlloc || load == Load::kPoolAlloc)
      rate = std::to_string(static_cast<int>(double(rounds) / span_s)) + " /s";
    else if (load != Load::kNone)
      rate = std::to_string(static_cast<int>(double(moved) / 1e9 / span_s)) + " GB/s";
    std::printf("| %s | %.1f | %+.1f %% | %s |\n", name_of(load), msm_ms, 100.0 * (msm_ms / alone - 1.0),
                rate.c_str());
    std::fflush(stdout);
  }
  if (!same) {
    std::printf("MSM RESULTS DIFFER under load\n");
    return 1;
  }
  return 0;
}

}  // namespace

int run_interference_probe(int argc, char** argv) {
  return run_probe("interference", [&] { return measure_interference(argc, argv); });
}

}  // namespace cuzk::bench
