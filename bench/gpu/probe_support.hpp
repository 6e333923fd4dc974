// What the GPU probes of cuzk-bench (interference, overlap, pcie, sticky-probe) share: their entry points'
// error handling, wall-clock timing, and the inputs of a dense BLS12-381 G1 MSM on the device.
#pragma once

#include <cuda_runtime_api.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <random>
#include <vector>

#include "cuda/device_buffer.hpp"
#include "cuda/error.hpp"
#include "ec/bls12_381.hpp"
#include "ec/fixed_base.hpp"
#include "ff/encoding.hpp"

namespace cuzk::bench {

using Clock = std::chrono::steady_clock;

inline double ms_since(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

// The median of `v` (the upper one of an even count).
inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Runs `probe()`; an exception becomes "cuzk-bench NAME: what" on stderr and exit status 1.
template <class Probe>
int run_probe(const char* name, Probe&& probe) {
  try {
    return probe();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cuzk-bench %s: %s\n", name, e.what());
    return 1;
  }
}

// A BLS12-381 G1 MSM of n = 2^log_n points resident on the device: distinct random multiples of the
// generator (at most 2^20 of them, tiled) and dense random scalars, never zero. Uploaded on `stream`, which
// is synchronised before it returns.
struct DenseG1Msm {
  using Cfg = Bls12_381::G1Cfg;
  std::size_t n;
  cuda::DeviceBuffer<ec::Affine<Cfg>> points;
  cuda::DeviceBuffer<ff::BigInt<4>> scalars;
};

inline DenseG1Msm dense_g1_msm(int log_n, cudaStream_t stream) {
  using Cfg = DenseG1Msm::Cfg;
  const std::size_t n = std::size_t(1) << log_n, distinct = std::min<std::size_t>(n, 1 << 20);
  const ec::FixedBaseTable<Cfg> table(Cfg::generator());
  std::vector<Cfg::Scalar> ks(distinct);
  std::mt19937_64 rng(7);
  for (auto& k : ks) k = ff::random_element<Cfg::Scalar>(rng);
  const auto base = table.mul_all(ks);
  DenseG1Msm m{n, cuda::DeviceBuffer<ec::Affine<Cfg>>(n), cuda::DeviceBuffer<ff::BigInt<4>>(n)};
  for (std::size_t off = 0; off < n; off += distinct) m.points.upload(base.data(), distinct, stream, off);
  std::vector<ff::BigInt<4>> scalars(n);
  tbb::parallel_for(std::size_t(0), n, [&](std::size_t i) {
    std::mt19937_64 r(i * 0x9E3779B97F4A7C15ull + 11);
    scalars[i] = ff::random_element<Cfg::Scalar>(r).to_int();
  });
  m.scalars.upload(scalars.data(), n, stream);
  CUZK_CUDA_CHECK(cudaStreamSynchronize(stream));
  return m;
}

}  // namespace cuzk::bench
