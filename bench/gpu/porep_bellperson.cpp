// `cuzk-bench kernels K REPS bellperson`: one PoRep-shaped partition through Filecoin's flow on the GPU, in
// process: the porep-like circuit at 2^K, a bellperson key from the test-only setup (fixed-base products
// on the GPU), the assignment bellperson's synthesis would hand over (a, b, c, inputs, aux, densities),
// then the key prepared on the GPU once and REPS proofs after a warm-up, median per stage. No key file:
// at K = 27 the points alone are ~47 GB, and this measures the GPU, not the disk. The last proof is
// verified.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda/error.hpp"
#include "cuda/vram.hpp"
#include "ec/fixed_base_gpu.hpp"
#include "ff/random.hpp"
#include "groth16/bellperson.hpp"
#include "groth16/gpu_bellperson.hpp"
#include "plan_env.hpp"
#include "r1cs/porep_like.hpp"

namespace cuzk::bench {

namespace {

namespace bp = groth16::bellperson;

// The key prepared with `plan` (chosen from the device's free memory when none), one warm-up and `reps`
// proofs: one table row, median per stage.
void prove_with_plan(const io::bellperson::Params& params, const bp::Assignment& w,
                     const std::vector<bp::Fr>& pub, std::optional<groth16::gpu::Plan> plan, int log_domain,
                     int reps, cudaStream_t stream) {
  const cuda::ThreadVramPeak peak;  // this plan's own: the key and the proofs allocate on this thread
  const auto tk = std::chrono::steady_clock::now();
  const bp::gpu::ResidentKey key(params, stream, plan);
  const double key_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - tk).count();
  std::printf("key on the GPU (plan %s) in %.1f s\n", groth16::gpu::to_string(key.plan()), key_s);
  std::map<std::string, std::vector<double>> stages;
  std::vector<double> totals;
  groth16::Proof<bp::Curve> proof{};
  for (int i = 0; i <= reps; ++i) {  // the first proof warms up
    groth16::StageTimings t;
    proof = bp::gpu::prove(params, key, w, ff::random_nonzero_os<bp::Fr>(), ff::random_nonzero_os<bp::Fr>(),
                           stream, &t);
    if (i == 0) continue;
    std::map<std::string, double> per_proof;  // a stage may run in parts (abc and h: one per vector)
    for (const auto& [name, ms] : t.stages_ms) per_proof[name] += ms;
    for (const auto& [name, ms] : t.details_ms) per_proof["detail:" + name] += ms;
    for (const auto& [name, ms] : per_proof) stages[name].push_back(ms);
    totals.push_back(t.total_ms());
  }
  std::sort(totals.begin(), totals.end());
  const bool ok = bp::verify(params.vk, pub, proof).valid;
  std::printf("| bellperson partition (%s) | 2^%d | %.1f ms | %s |", groth16::gpu::to_string(key.plan()),
              log_domain, totals.empty() ? 0.0 : totals[totals.size() / 2], ok ? "verified" : "INVALID");
  for (auto& [name, v] : stages) {
    std::sort(v.begin(), v.end());
    std::printf(" %s=%.1f", name.c_str(), v[v.size() / 2]);
  }
  std::printf(" vram_peak_mib=%zu\n", peak.bytes() >> 20);
  std::fflush(stdout);
}

}  // namespace

void bench_gpu_porep_bellperson(int log_domain, int reps, cudaStream_t stream) {
  const auto t0 = std::chrono::steady_clock::now();
  auto secs = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  auto g = r1cs::porep_like<bp::Fr>(static_cast<unsigned>(log_domain), 1, 1);
  std::printf("porep-like K=%d: %zu constraints, generated at %.1f s\n", log_domain, g.system.a.rows(),
              secs());
  const groth16::FixedBaseMul<bp::Curve> on_gpu{
      [](const auto& t, const auto& k) { return ec::gpu::fixed_base_mul_all(t, k); },
      [](const auto& t, const auto& k) { return ec::gpu::fixed_base_mul_all(t, k); }};
  const auto params = bp::setup(g.system, groth16::random_toxic_waste<bp::Curve>(), on_gpu);
  std::printf("bellperson setup done at %.1f s (h %zu, l %zu, a %zu, b %zu points)\n", secs(),
              params.h.size(), params.l.size(), params.a.size(), params.b_g1.size());
  const auto w = bp::synthesize(g.system, g.witnesses[0]);
  g = {};  // the matrices and the witness: the assignment is all a proof needs
  std::printf("assignment synthesized at %.1f s\n", secs());
  apply_vram_limit_from_env();
  const std::vector<bp::Fr> pub(w.inputs.begin() + 1, w.inputs.end());
  for (const auto& variant : variants_from_env()) {
    apply_variant(variant);
    for (const auto& run : plans_from_env(
             {groth16::gpu::Plan::kResident, groth16::gpu::Plan::kStreamed, groth16::gpu::Plan::kLean})) {
      const auto& plan = run.plan;
      const ScopedPlanCap cap(run);
      try {
        prove_with_plan(params, w, pub, plan, log_domain, reps, stream);
      } catch (const cuda::CudaError& e) {  // e.g. resident under CUZK_VRAM_LIMIT_GIB: the next plan runs
        if (e.kind() != cuda::CudaError::Kind::out_of_memory) throw;
        std::printf("| bellperson partition (%s) | 2^%d | out of device memory: %s |\n",
                    plan ? groth16::gpu::to_string(*plan) : "chosen", log_domain, e.what());
        std::fflush(stdout);
      }
    }
  }
}

}  // namespace cuzk::bench
