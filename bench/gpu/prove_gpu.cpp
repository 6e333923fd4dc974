// `cuzk-bench kernels … prove`: whole GPU proofs with the key resident (uploaded once, as the daemon
// keeps it), on synthetic mulchain circuits of 2^k − 2^k/128 constraints (dense random witness: the
// split MSMs get no ones to batch-add). Median per stage over `reps` proofs; the last proof is verified.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda/vram.hpp"
#include "ec/bls12_381.hpp"
#include "ec/bn254.hpp"
#include "ec/fixed_base_gpu.hpp"
#include "ff/random.hpp"
#include "groth16/gpu_prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "plan_env.hpp"
#include "r1cs/porep_like.hpp"
#include "r1cs/synthetic.hpp"

namespace cuzk::bench {

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

template <class Curve>
void bench_prove(int log_n, int reps, cudaStream_t stream) {
  using Fr = typename Curve::Fr;
  const std::size_t n = (std::size_t(1) << log_n) - (std::size_t(1) << log_n) / 128;
  auto circ = r1cs::mulchain<Curve>(n);
  const auto pk = groth16::setup(circ.cs, groth16::random_toxic_waste<Curve>());
  const groth16::gpu::ResidentKey<Curve> key(pk, stream);
  std::map<std::string, std::vector<double>> stages;
  std::vector<double> totals;
  groth16::Proof<Curve> proof{};
  for (int i = 0; i <= reps; ++i) {  // the first proof warms up
    groth16::StageTimings t;
    proof = groth16::gpu::prove(pk, key, circ.witness, Fr::from_u64(3), Fr::from_u64(5), stream, &t);
    if (i == 0) continue;
    for (const auto& [name, ms] : t.stages_ms) stages[name].push_back(ms);
    totals.push_back(t.total_ms());
  }
  const std::vector<Fr> pub(circ.witness.begin() + 1, circ.witness.begin() + 1 + pk.n_public);
  const bool ok = groth16::verify(pk.verifying_key(), pub, proof).valid;
  std::printf("| prove %-10s | 2^%-2d | %10.2f | %s |", Curve::display_name, log_n, median(totals),
              ok ? "verified" : "INVALID");
  for (const auto& name :
       {"abc", "h", "classify", "msm_a", "msm_b1", "msm_b2", "msm_c", "msm_tails", "msm_h", "assemble"})
    std::printf(" %s=%.1f", name, median(stages[name]));
  std::printf("\n");
  std::fflush(stdout);
}

// How a witness splits for the A/B/C MSMs: zeros (skipped), ones (batch-added), and the tail's scalars by
// size (a small one has a single non-zero window; r − small ones would have all of them).
template <class Fr>
void print_witness_classes(const std::vector<Fr>& w) {
  std::size_t zero = 0, one = 0, small = 0, neg_small = 0;
  for (const Fr& x : w) {
    if (x.is_zero())
      ++zero;
    else if (x.is_one())
      ++one;
    else if (x.to_int().num_bits() <= 16)
      ++small;
    else if ((-x).to_int().num_bits() <= 16)
      ++neg_small;
  }
  std::printf(
      "witness: %zu values: %.1f%% zero, %.1f%% one, %.1f%% < 2^16, %.1f%% > r - 2^16, %.1f%% other\n",
      w.size(), 100.0 * zero / w.size(), 100.0 * one / w.size(), 100.0 * small / w.size(),
      100.0 * neg_small / w.size(), 100.0 * (w.size() - zero - one - small - neg_small) / w.size());
}

}  // namespace

// `cuzk-bench kernels K reps porep`: one PoRep-shaped partition at domain 2^K in this process (generator,
// GPU setup, key resident or streamed as it fits), `reps` proofs after a warm-up; median per stage and the
// split MSMs' halves. Needs no disk: the way to measure K = 27 where a key file would not fit.
void bench_gpu_porep(int log_domain, int reps, cudaStream_t stream) {
  using Curve = Bls12_381;
  using Fr = Curve::Fr;
  const auto t0 = std::chrono::steady_clock::now();
  auto secs = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  auto g = r1cs::porep_like<Fr>(static_cast<unsigned>(log_domain), 1, 1);
  std::printf("porep-like K=%d: %zu constraints, generated at %.1f s\n", log_domain, g.system.a.rows(),
              secs());
  print_witness_classes(g.witnesses[0]);
  const groth16::FixedBaseMul<Curve> on_gpu{
      [](const auto& t, const auto& k) { return ec::gpu::fixed_base_mul_all(t, k); },
      [](const auto& t, const auto& k) { return ec::gpu::fixed_base_mul_all(t, k); }};
  const auto pk = groth16::setup<Curve>(g.system, groth16::random_toxic_waste<Curve>(), on_gpu);
  g.system = {};  // the key has the A and B coefficients; C is not needed to prove
  std::printf("setup done at %.1f s\n", secs());
  apply_vram_limit_from_env();
  for (const auto& run : plans_from_env(
           {groth16::gpu::Plan::kResident, groth16::gpu::Plan::kStreamed, groth16::gpu::Plan::kLean})) {
    const ScopedPlanCap cap(run);
    const cuda::ThreadVramPeak peak;  // this plan's own: the key and the proofs allocate on this thread
    const groth16::gpu::ResidentKey<Curve> key(pk, stream, run.plan);
    std::printf("key on the GPU (plan %s) at %.1f s\n", groth16::gpu::to_string(key.plan()), secs());
    std::map<std::string, std::vector<double>> stages;
    std::vector<double> totals;
    groth16::Proof<Curve> proof{};
    for (int i = 0; i <= reps; ++i) {
      groth16::StageTimings t;
      proof = groth16::gpu::prove(pk, key, g.witnesses[0], ff::random_nonzero_os<Fr>(),
                                  ff::random_nonzero_os<Fr>(), stream, &t);
      if (i == 0) continue;
      for (const auto& [name, ms] : t.stages_ms) stages[name].push_back(ms);
      for (const auto& [name, ms] : t.details_ms) stages[name].push_back(ms);
      totals.push_back(t.total_ms());
    }
    const std::vector<Fr> pub(g.witnesses[0].begin() + 1, g.witnesses[0].begin() + 1 + pk.n_public);
    const bool ok = groth16::verify(pk.verifying_key(), pub, proof).valid;
    std::printf("| porep partition (%s) | 2^%d | %.1f ms | %s |", groth16::gpu::to_string(key.plan()),
                log_domain, median(totals), ok ? "verified" : "INVALID");
    for (const auto& [name, v] : stages) std::printf(" %s=%.1f", name.c_str(), median(v));
    std::printf(" vram_peak_mib=%zu\n", peak.bytes() >> 20);
    std::fflush(stdout);
  }
}

void bench_gpu_prove(int max_log, int reps, cudaStream_t stream) {
  std::printf(
      "| proof (key resident) | N | median ms | check | stages (median ms) |\n|---|---|---|---|---|\n");
  for (int lg = 16; lg <= std::min(max_log, 20); lg += 2) bench_prove<Bn254>(lg, reps, stream);
  for (int lg = 16; lg <= std::min(max_log, 20); lg += 2) bench_prove<Bls12_381>(lg, reps, stream);
}

}  // namespace cuzk::bench
