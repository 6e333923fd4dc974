// `cuzk-bench kernels … prove`: whole GPU proofs with the key resident (uploaded once, as the daemon
// keeps it), on synthetic mulchain circuits of 2^k − 2^k/128 constraints (dense random witness: the
// split MSMs get no ones to batch-add). Median per stage over `reps` proofs; the last proof is verified.
#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "ec/bls12_381.hpp"
#include "ec/bn254.hpp"
#include "groth16/gpu_prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
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
  for (const auto& name : {"abc", "h", "classify", "msm_a", "msm_b1", "msm_b2", "msm_c", "msm_h", "assemble"})
    std::printf(" %s=%.1f", name, median(stages[name]));
  std::printf("\n");
  std::fflush(stdout);
}

}  // namespace

void bench_gpu_prove(int max_log, int reps, cudaStream_t stream) {
  std::printf(
      "| proof (key resident) | N | median ms | check | stages (median ms) |\n|---|---|---|---|---|\n");
  for (int lg = 16; lg <= std::min(max_log, 20); lg += 2) bench_prove<Bn254>(lg, reps, stream);
  for (int lg = 16; lg <= std::min(max_log, 20); lg += 2) bench_prove<Bls12_381>(lg, reps, stream);
}

}  // namespace cuzk::bench
