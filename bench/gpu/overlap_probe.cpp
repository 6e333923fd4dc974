// cuzk-bench overlap [LOG_N=26] [REPS=3]: whether a proof's NTTs and another proof's MSM gain from running
// at the same time on one GPU. The G1 MSM's accumulation is bound by the FP64 pipe (the 381-bit products
// run as doubles, mont_fp64.hpp) and leaves the integer pipe mostly idle; the Fr NTT runs on the integer
// pipe. Today a device's workers take turns in the GPU region, so the two never meet.
//
// Times, as median wall clock of REPS rounds:
//   msm     a BLS12-381 G1 MSM of 2^LOG_N resident points and dense scalars (a partition's H MSM);
//   ntts    the H stage's seven NTTs of 2^LOG_N: three vectors to the odd coset, then one inverse;
//   both    the two started together on two streams (two host threads), until both are done — once
//           with equal stream priorities, once with the NTTs' stream more urgent (its blocks then take
//           the SM slots that the MSM's finishing blocks free, so the SMs run both kernels' warps).
// The MSM's result and the NTTs' output are checked to equal those of the runs alone.
#include <cuda_runtime_api.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

#include "cuda/device_buffer.hpp"
#include "cuda/error.hpp"
#include "cuda/stream.hpp"
#include "ec/bls12_381.hpp"
#include "ff/encoding.hpp"
#include "msm/gpu.hpp"
#include "ntt/gpu.hpp"
#include "probe_support.hpp"

namespace cuzk::bench {
namespace {

using Cfg = Bls12_381::G1Cfg;
using Fr = Bls12_381::Fr;

int measure_overlap(int argc, char** argv) {
  const int log_n = argc >= 1 ? std::atoi(argv[0]) : 26;
  const int reps = argc >= 2 ? std::atoi(argv[1]) : 3;
  if (log_n < 12 || log_n > 27 || reps < 1) {
    std::fprintf(stderr, "usage: cuzk-bench overlap [LOG_N 12..27] [REPS ≥ 1]\n");
    return 2;
  }
  const std::size_t n = std::size_t(1) << log_n;
  int least = 0, greatest = 0;
  CUZK_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
  cuda::Stream msm_stream, ntt_stream, urgent_ntt_stream(greatest);

  const DenseG1Msm inputs = dense_g1_msm(log_n, msm_stream.get());

  // NTT inputs: three random vectors (a, b, c), kept apart so that every round starts from them.
  std::vector<Fr> abc(3 * n);
  tbb::parallel_for(std::size_t(0), 3 * n, [&](std::size_t i) {
    std::mt19937_64 r(i * 0xD1B54A32D192ED03ull + 5);
    abc[i] = ff::random_element<Fr>(r);
  });
  cuda::DeviceBuffer<Fr> d_input(3 * n), d_work(3 * n);
  d_input.upload(abc.data(), 3 * n, ntt_stream.get());
  const ntt::gpu::Tables<Fr> tables(static_cast<std::size_t>(log_n), ntt_stream.get());
  CUZK_CUDA_CHECK(cudaDeviceSynchronize());

  auto msm = [&] {
    return msm::gpu::pippenger<Cfg>(inputs.points.data(), inputs.scalars.data(), n, msm_stream.get());
  };
  auto reset_ntt_input = [&] {
    CUZK_CUDA_CHECK(cudaMemcpyAsync(d_work.data(), d_input.data(), 3 * n * sizeof(Fr),
                                    cudaMemcpyDeviceToDevice, ntt_stream.get()));
    ntt_stream.synchronize();
  };
  auto ntts = [&](cudaStream_t s) {
    ntt::gpu::to_odd_coset(d_work.data(), 3, tables, s);
    ntt::gpu::inverse(d_work.data(), tables, s);
    CUZK_CUDA_CHECK(cudaStreamSynchronize(s));
  };
  auto ntt_output = [&] {
    std::vector<Fr> out(3 * n);
    d_work.download(out.data(), 3 * n, ntt_stream.get());
    ntt_stream.synchronize();
    return out;
  };

  const auto expected_msm = msm().to_affine();  // warm-up, and the result every run must reproduce
  reset_ntt_input();
  ntts(ntt_stream.get());
  const auto expected_ntt = ntt_output();
  bool same = true;

  std::vector<double> t_msm, t_ntt;
  for (int r = 0; r < reps; ++r) {
    auto t = Clock::now();
    same = msm().to_affine() == expected_msm && same;
    t_msm.push_back(ms_since(t));
    reset_ntt_input();
    t = Clock::now();
    ntts(ntt_stream.get());
    t_ntt.push_back(ms_since(t));
  }
  const double m = median(t_msm), k = median(t_ntt);
  std::printf("device: BLS12-381, 2^%d; median of %d; stream priorities %d (least) .. %d (greatest)\n", log_n,
              reps, least, greatest);
  std::printf("| run | ms | against msm + ntts (%.1f ms) |\n|---|---:|---:|\n", m + k);
  std::printf("| msm alone | %.1f | |\n| 7 ntts alone | %.1f | |\n", m, k);

  for (const bool urgent : {false, true}) {
    std::vector<double> t_both, t_msm_in, t_ntt_in;
    for (int r = 0; r < reps; ++r) {
      reset_ntt_input();
      const cudaStream_t s = urgent ? urgent_ntt_stream.get() : ntt_stream.get();
      const auto t0 = Clock::now();
      double ntt_done = 0;
      std::thread second([&] {
        ntts(s);
        ntt_done = ms_since(t0);
      });
      same = msm().to_affine() == expected_msm && same;
      t_msm_in.push_back(ms_since(t0));
      second.join();
      t_both.push_back(ms_since(t0));
      t_ntt_in.push_back(ntt_done);
    }
    const auto out = ntt_output();
    same = std::memcmp(out.data(), expected_ntt.data(), out.size() * sizeof(Fr)) == 0 && same;
    const double b = median(t_both);
    std::printf("| both, %s | %.1f (msm done at %.1f, ntts at %.1f) | %+.1f %% |\n",
                urgent ? "ntts more urgent" : "equal priority", b, median(t_msm_in), median(t_ntt_in),
                100.0 * (b / (m + k) - 1.0));
    std::fflush(stdout);
  }
  if (!same) {
    std::printf("RESULTS DIFFER when run together\n");
    return 1;
  }
  return 0;
}

}  // namespace

int run_overlap_probe(int argc, char** argv) {
  return run_probe("overlap", [&] { return measure_overlap(argc, argv); });
}

}  // namespace cuzk::bench
