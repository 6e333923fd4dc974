// `cuzk-bench kernels`: GPU MSM (G1, G2) and NTT timings for both curves on random non-zero inputs,
// inputs already in device memory, CUDA-event timing of the whole call, median of `reps` runs.
// Points: 2^20 distinct random multiples of the generator, tiled up to N (as the sppark reference
// figures were measured); scalars: uniformly random, dense.
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "cuda/device.hpp"
#include "cuda/device_buffer.hpp"
#include "cuda/event.hpp"
#include "cuda/stream.hpp"
#include "ec/bls12_381.hpp"
#include "ec/bn254.hpp"
#include "ec/fixed_base.hpp"
#include "ff/encoding.hpp"
#include "msm/gpu.hpp"
#include "ntt/gpu.hpp"

namespace cuzk::bench {

namespace {

template <class F>
std::vector<F> random_vector(std::size_t n, std::uint64_t seed) {
  std::vector<F> v(n);
  tbb::parallel_for(std::size_t(0), (n + 65535) / 65536, [&](std::size_t b) {
    std::mt19937_64 rng(seed * 1000003 + b);
    for (std::size_t i = b * 65536; i < std::min(n, (b + 1) * 65536); ++i) v[i] = ff::random_element<F>(rng);
  });
  return v;
}

template <class Fn>
double median_ms(int reps, cudaStream_t stream, Fn&& fn) {
  std::vector<float> t;
  fn();  // warm-up
  for (int i = 0; i < reps; ++i) {
    cuda::Event a, b;
    a.record(stream);
    fn();
    b.record(stream);
    b.synchronize();
    t.push_back(cuda::Event::elapsed_ms(a, b));
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

// Tuning experiments without a rebuild: CUZK_BENCH_MSM_WINDOW=c, CUZK_BENCH_MSM_CHUNK_LOG=k.
msm::gpu::Options msm_options() {
  msm::gpu::Options o;
  if (const char* c = std::getenv("CUZK_BENCH_MSM_WINDOW")) o.window_bits = std::stoul(c);
  if (const char* k = std::getenv("CUZK_BENCH_MSM_CHUNK_LOG")) o.max_chunk = std::size_t(1) << std::stoul(k);
  return o;
}

// The non-empty items of a comma-separated list in environment variable `name` (none when it is unset).
std::vector<std::string> env_list(const char* name) {
  std::vector<std::string> items;
  if (const char* list = std::getenv(name)) {
    std::stringstream in(list);
    for (std::string item; std::getline(in, item, ',');)
      if (!item.empty()) items.push_back(item);
  }
  return items;
}

// Window sweeps in one run: CUZK_BENCH_MSM_WINDOWS=18,20,22 gives a row per window and size (0, or unset:
// the window the MSM chooses), and CUZK_BENCH_MSM_MIN_LOG=k leaves out sizes below 2^k, so a sweep at 2^27
// costs one set of generated points.
std::vector<std::size_t> msm_windows() {
  std::vector<std::size_t> windows;
  for (const std::string& c : env_list("CUZK_BENCH_MSM_WINDOWS")) windows.push_back(std::stoul(c));
  if (windows.empty()) windows.push_back(msm_options().window_bits);
  return windows;
}

// The BLS12-381 accumulation's arithmetic forms to compare in one run (msm/gpu_lazy_add.cuh):
// CUZK_BENCH_MSM_ADDS=lazy,field,fp64-lazy,int,int-lazy gives a row per form (each set as CUZK_MSM_ADD for
// G1's rows, CUZK_MSM_ADD_G2 for G2's); unset, the one the variable names (or the default) alone.
std::vector<std::string> msm_add_forms() {
  return env_list("CUZK_BENCH_MSM_ADDS");
}

std::vector<int> msm_sizes(std::vector<int> logs) {
  if (const char* k = std::getenv("CUZK_BENCH_MSM_MIN_LOG"))
    std::erase_if(logs, [&](int lg) { return lg < std::stoi(k); });
  return logs;
}

template <class Cfg>
void bench_msm(const char* name, std::vector<int> logs, int reps, cudaStream_t stream) {
  logs = msm_sizes(std::move(logs));
  if (logs.empty()) return;
  using A = ec::Affine<Cfg>;
  const std::size_t max_n = std::size_t(1) << logs.back(), distinct = std::min<std::size_t>(max_n, 1 << 20);
  const ec::FixedBaseTable<Cfg> table(Cfg::generator());
  std::vector<A> base = table.mul_all(random_vector<typename Cfg::Scalar>(distinct, 1));
  cuda::DeviceBuffer<A> d_points(max_n);
  for (std::size_t off = 0; off < max_n; off += distinct) d_points.upload(base.data(), distinct, stream, off);
  auto ks = random_vector<typename Cfg::Scalar>(max_n, 2);
  std::vector<ff::BigInt<4>> plain(max_n);
  tbb::parallel_for(std::size_t(0), max_n, [&](std::size_t i) { plain[i] = ks[i].to_int(); });
  cuda::DeviceBuffer<ff::BigInt<4>> d_scalars(max_n);
  d_scalars.upload(plain.data(), max_n, stream);
  for (int lg : logs) {
    const std::size_t n = std::size_t(1) << lg;
    std::vector<std::string> forms;
    constexpr bool g2 = std::is_same_v<Cfg, Bls12_381::G2Cfg>;
    if constexpr (g2 || std::is_same_v<Cfg, Bls12_381::G1Cfg>) forms = msm_add_forms();
    if (forms.empty()) forms.push_back("");  // as the environment has it
    const char* variable = g2 ? "CUZK_MSM_ADD_G2" : "CUZK_MSM_ADD";
    const char* before = std::getenv(variable);
    const std::string saved = before ? before : "";
    for (const std::string& form : forms) {
      if (!form.empty()) setenv(variable, form.c_str(), 1);
      for (const std::size_t c : msm_windows()) {
        msm::gpu::Options o = msm_options();
        o.window_bits = c;
        const double ms = median_ms(reps, stream, [&] {
          msm::gpu::pippenger<Cfg>(d_points.data(), d_scalars.data(), n, stream, nullptr, o);
        });
        const std::string window = c ? " c = " + std::to_string(c) : "";
        const std::string add = form.empty() ? "" : " add = " + form;
        std::printf("| MSM %-16s | 2^%-2d | %10.2f |%s%s\n", name, lg, ms, window.c_str(), add.c_str());
        std::fflush(stdout);
      }
    }
    if (saved.empty())
      unsetenv(variable);
    else
      setenv(variable, saved.c_str(), 1);
  }
}

template <class Fr>
void bench_ntt(const char* name, const std::vector<int>& logs, int reps, cudaStream_t stream) {
  for (int lg : logs) {
    const std::size_t n = std::size_t(1) << lg;
    auto v = random_vector<Fr>(n, 3);
    cuda::DeviceBuffer<Fr> d(n);
    d.upload(v.data(), n, stream);
    for (const auto layout : {ntt::TableLayout::kFull, ntt::TableLayout::kCompact}) {
      ntt::gpu::Tables<Fr> tables(lg, stream, layout);
      double f = median_ms(reps, stream, [&] { ntt::gpu::forward(d.data(), tables, stream); });
      double c = median_ms(reps, stream, [&] { ntt::gpu::to_odd_coset(d.data(), 1, tables, stream); });
      std::printf("| NTT %-16s | 2^%-2d | %10.2f | odd-coset (iNTT+scale+NTT) %8.2f ms%s\n", name, lg, f, c,
                  layout == ntt::TableLayout::kCompact ? ", compact tables" : "");
      std::fflush(stdout);
    }
  }
}

std::vector<int> range(int lo, int hi, int step) {
  std::vector<int> v;
  for (int i = lo; i <= hi; i += step) v.push_back(i);
  return v;
}

}  // namespace

void bench_field_rates(cudaStream_t stream);                                     // field_rate.cu
void bench_gpu_prove(int max_log, int reps, cudaStream_t stream);                // prove_gpu.cpp
void bench_gpu_porep(int log_domain, int reps, cudaStream_t stream);             // prove_gpu.cpp
void bench_gpu_porep_bellperson(int log_domain, int reps, cudaStream_t stream);  // porep_bellperson.cpp

int run_kernels(int argc, char** argv) {
  if (cuda::device_count() == 0) {
    std::fprintf(stderr, "cuzk-bench kernels: no CUDA device\n");
    return 1;
  }
  int max_log = argc > 0 ? std::stoi(argv[0]) : 24;
  int reps = argc > 1 ? std::stoi(argv[1]) : 5;
  std::string only = argc > 2 ? argv[2] : "";
  auto info = cuda::device_info(0);
  std::printf("device: %s, %d SMs; median of %d runs, inputs resident\n", info.name.c_str(), info.sm_count,
              reps);
  std::printf("| kernel               | N    |    time ms |\n|---|---|---|\n");
  cuda::Stream s;
  auto ntt_logs = range(16, std::min(max_log, 27), 2);
  if (max_log >= 27) ntt_logs.push_back(27);  // the Filecoin PoRep domain
  auto want = [&](const char* k) { return only.empty() || only.find(k) != std::string::npos; };
  if (want("field")) bench_field_rates(s.get());
  if (want("ntt")) bench_ntt<Bls12_381::Fr>("BLS12-381 Fr", ntt_logs, reps, s.get());
  if (want("ntt")) bench_ntt<Bn254::Fr>("BN254 Fr", ntt_logs, reps, s.get());
  auto msm_logs = range(16, max_log, 2);
  if (max_log % 2) msm_logs.push_back(max_log);  // e.g. 2^27, the Filecoin H MSM
  if (want("g1")) bench_msm<Bls12_381::G1Cfg>("BLS12-381 G1", msm_logs, reps, s.get());
  if (want("g1")) bench_msm<Bn254::G1Cfg>("BN254 G1", msm_logs, reps, s.get());
  if (want("g2")) bench_msm<Bls12_381::G2Cfg>("BLS12-381 G2", msm_logs, reps, s.get());
  if (want("g2")) bench_msm<Bn254::G2Cfg>("BN254 G2", msm_logs, reps, s.get());
  if (!only.empty() && want("prove")) bench_gpu_prove(max_log, reps, s.get());
  if (!only.empty() && want("porep")) bench_gpu_porep(max_log, reps, s.get());
  if (!only.empty() && want("bellperson")) bench_gpu_porep_bellperson(max_log, reps, s.get());
  return 0;
}

}  // namespace cuzk::bench
