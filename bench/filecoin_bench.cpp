// Filecoin helpers every synthesising process or test pays for once: the Poseidon round constants of the
// arities Filecoin's trees use (generated from their recipe at start; the brief: well under 100 ms for the
// three), and the test-only PoRep vanilla data of one partition at each production size (what the daemon
// and circuit tests generate); and the native Poseidon hash of those arities, which checks every vanilla
// proof's Merkle paths at submit and builds the test trees. `cuzk-bench --benchmark_filter='^filecoin/'`.
#include <benchmark/benchmark.h>

#include <cstddef>
#include <random>
#include <vector>

#include "filecoin/porep_params.hpp"
#include "filecoin/porep_test_data.hpp"
#include "filecoin/poseidon.hpp"
#include "gadgets/poseidon_constants.hpp"

namespace {

using namespace cuzk;

void BM_PoseidonConstants(benchmark::State& state) {
  const auto arity = static_cast<std::size_t>(state.range(0));
  for (auto _ : state) {
    auto constants = gadgets::generate_poseidon_constants(arity);
    benchmark::DoNotOptimize(constants);
  }
}
BENCHMARK(BM_PoseidonConstants)
    ->Name("filecoin/poseidon_constants")
    ->Arg(2)
    ->Arg(8)
    ->Arg(11)
    ->Unit(benchmark::kMillisecond);

void BM_PoseidonHash(benchmark::State& state) {
  const auto arity = static_cast<std::size_t>(state.range(0));
  std::mt19937_64 rng(11);
  std::vector<filecoin::Fr> preimage(arity);
  for (auto& x : preimage) x = filecoin::Fr::from_u64(rng());
  for (auto _ : state) {
    preimage[0] = filecoin::poseidon_hash(preimage);  // each hash feeds the next
    benchmark::DoNotOptimize(preimage[0]);
  }
}
BENCHMARK(BM_PoseidonHash)
    ->Name("filecoin/poseidon_hash")
    ->Arg(2)
    ->Arg(8)
    ->Arg(11)
    ->Unit(benchmark::kMicrosecond);

void BM_PorepTestPartition(benchmark::State& state) {
  const filecoin::PorepParams params =
      filecoin::production_porep_params()[static_cast<std::size_t>(state.range(0))];
  state.SetLabel(params.name);
  for (auto _ : state) {
    auto data = filecoin::make_test_porep_partition(params, 7);
    benchmark::DoNotOptimize(data);
  }
}
BENCHMARK(BM_PorepTestPartition)
    ->Name("filecoin/porep_test_partition")
    ->DenseRange(0, 4)
    ->Unit(benchmark::kMillisecond);

}  // namespace
