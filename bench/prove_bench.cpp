// Whole-proof and per-stage CPU timings on synthetic mulchain circuits (the same shape as the
// snarkjs/rapidsnark comparison circuits): `cuzk-bench --benchmark_filter=Prove`.
#include <benchmark/benchmark.h>

#include <map>
#include <memory>

#include "ec/bls12_381.hpp"
#include "ec/bn254.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "r1cs/synthetic.hpp"

namespace {

using namespace cuzk;

template <class Curve>
struct Fixture {
  groth16::ProvingKey<Curve> pk;
  std::vector<typename Curve::Fr> witness;
};

// Keys are expensive to make: build each size once per process.
template <class Curve>
const Fixture<Curve>& fixture(int log_domain) {
  static std::map<int, std::unique_ptr<Fixture<Curve>>> cache;
  auto& slot = cache[log_domain];
  if (!slot) {
    const std::size_t n = (std::size_t(1) << log_domain) - (std::size_t(1) << log_domain) / 128;
    auto circ = r1cs::mulchain<Curve>(n);
    slot = std::make_unique<Fixture<Curve>>();
    slot->pk = groth16::setup(circ.cs, groth16::random_toxic_waste<Curve>());
    slot->witness = std::move(circ.witness);
  }
  return *slot;
}

template <class Curve>
void BM_Prove(benchmark::State& state) {
  const auto& f = fixture<Curve>(static_cast<int>(state.range(0)));
  using Fr = typename Curve::Fr;
  groth16::StageTimings last;
  for (auto _ : state) {
    groth16::StageTimings t;
    auto proof = groth16::prove(f.pk, f.witness, Fr::from_u64(3), Fr::from_u64(5), &t);
    benchmark::DoNotOptimize(proof);
    last = t;
  }
  for (const auto& [name, ms] : last.stages_ms) state.counters[name + "_ms"] = ms;
  state.counters["constraints"] = static_cast<double>(f.pk.domain_size);
}

BENCHMARK(BM_Prove<Bn254>)
    ->Name("Prove/BN254")
    ->DenseRange(10, 20, 2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(1);
BENCHMARK(BM_Prove<Bls12_381>)
    ->Name("Prove/BLS12-381")
    ->DenseRange(10, 20, 2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(1);

}  // namespace
