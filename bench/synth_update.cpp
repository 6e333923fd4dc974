// cuzk-bench synth update --sector-size S [--partitions N] [--reps R] [--seed X]
//
// The SnapDeals circuit's synthesis as a daemon worker runs it (filecoin/update_assignment.hpp: evaluation
// mode, the top part then every challenge in parallel, every row checked), one partition after another, from
// a generated sector update (filecoin/update_test_data.hpp, made before the clock starts). Prints the time
// per partition and the rows per second.
#include "synth_update.hpp"

#include <chrono>
#include <cstdio>
#include <thread>

#include "filecoin/update_assignment.hpp"
#include "filecoin/update_synthesis.hpp"
#include "filecoin/update_test_data.hpp"
#include "reused_buffers.hpp"

namespace cuzk::bench {

void add_synth_update_command(CLI::App& app, SynthUpdateArgs& a) {
  auto* sc = app.add_subcommand("update", "the SnapDeals (empty sector update) partition circuit");
  sc->add_option("--sector-size", a.sector_size, "2KiB … 64GiB, or a test size (1KiB … 32KiB, 16MiB)");
  sc->add_option("--partitions", a.partitions, "partitions to synthesize, one after another")
      ->check(CLI::PositiveNumber);
  sc->add_option("--reps", a.reps, "times over")->check(CLI::PositiveNumber);
  sc->add_option("--seed", a.seed, "seed of the generated sector update");
  a.command = sc;
}

int run_synth_update(const SynthUpdateArgs& a) {
  using Clock = std::chrono::steady_clock;
  const filecoin::UpdateParams& params = filecoin::update_params_for(a.sector_size);
  const unsigned partitions = std::min(a.partitions, params.partitions);
  std::vector<std::uint64_t> ks;
  for (unsigned k = 0; k < partitions; ++k) ks.push_back(k);
  const auto g0 = Clock::now();
  const filecoin::UpdateTestSector sector = filecoin::make_test_update_sector(params, a.seed, ks);
  std::vector<filecoin::UpdatePartitionProof> proofs;
  for (unsigned k = 0; k < partitions; ++k)
    proofs.push_back(filecoin::update_circuit_proof(params, k, sector.h, sector.commitments,
                                                    sector.partitions[k], "partition " + std::to_string(k)));
  const double gen_s = std::chrono::duration<double>(Clock::now() - g0).count();
  const filecoin::UpdateLayout& layout = filecoin::update_layout(params);
  filecoin::update_densities(params);  // made once per process, as a daemon's preload does
  std::printf("SnapDeals %s: %u challenges, %llu rows per partition (top %llu), %u threads; data in %.2f s\n",
              params.name.c_str(), params.challenges, static_cast<unsigned long long>(layout.prover_rows()),
              static_cast<unsigned long long>(layout.top_rows), std::thread::hardware_concurrency(), gen_s);
  ReusedBuffers buffers;  // every partition after the first writes into the first one's memory
  const auto lend = buffers.lend();
  for (unsigned r = 0; r < a.reps; ++r)
    for (unsigned k = 0; k < partitions; ++k) {
      const auto t0 = Clock::now();
      const auto w = filecoin::checked_update_prover_assignment(params, proofs[k], "partition", lend);
      const double s = std::chrono::duration<double>(Clock::now() - t0).count();
      std::printf("partition %u: %.3f s (%.1f M rows/s), %zu aux%s\n", k, s,
                  static_cast<double>(layout.prover_rows()) / s / 1e6, w.aux.size(),
                  r == 0 && k == 0 ? ", into fresh buffers" : "");
    }
  return 0;
}

}  // namespace cuzk::bench
