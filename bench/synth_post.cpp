// cuzk-bench synth post [--kind window|winning] --sector-size S [--reps R] [--seed X]
//
// One fallback PoSt partition's synthesis as a daemon worker runs it (filecoin/post_assignment.hpp:
// evaluation mode, every sector in parallel, every row checked), from generated sector proofs
// (filecoin/post_test_data.hpp, made before the clock starts): a full partition (2,349 sectors of 10
// challenges at 32 GiB WindowPoSt). On the latency path of a WindowPoSt request: its synthesis runs before
// the GPU can start. As in the daemon, where a partition's a, b, c and aux go into the pinned pool's reused
// buffers, every repetition writes into the same two buffers: the first pays the kernel's zeroing of fresh
// pages (a third of its time at 32 GiB), the others do not. Prints each repetition's time and rows per
// second.
#include "synth_post.hpp"

#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>

#include "filecoin/post_assignment.hpp"
#include "filecoin/post_params.hpp"
#include "filecoin/post_test_data.hpp"
#include "reused_buffers.hpp"

namespace cuzk::bench {

void add_synth_post_command(CLI::App& app, SynthPostArgs& a) {
  auto* sc = app.add_subcommand("post", "the fallback PoSt partition circuit (WindowPoSt, WinningPoSt)");
  sc->add_option("--kind", a.kind, "window or winning")->check(CLI::IsMember({"window", "winning"}));
  sc->add_option("--sector-size", a.sector_size, "2KiB, 8MiB, 512MiB, 32GiB or 64GiB");
  sc->add_option("--reps", a.reps, "timed repetitions")->check(CLI::PositiveNumber);
  sc->add_option("--seed", a.seed, "seed of the generated sector proofs");
  a.command = sc;
}

int run_synth_post(const SynthPostArgs& a) {
  using Clock = std::chrono::steady_clock;
  const auto kind = a.kind == "window" ? filecoin::PostKind::kWindow : filecoin::PostKind::kWinning;
  const filecoin::PostParams params = filecoin::post_params_for(kind, a.sector_size);
  const auto g0 = Clock::now();
  const std::vector<filecoin::PostSectorProof> sectors = filecoin::make_test_post_sectors(params, a.seed);
  const double gen_s = std::chrono::duration<double>(Clock::now() - g0).count();
  const filecoin::PostLayout& layout = filecoin::post_layout(params);
  filecoin::post_densities(params);  // made once per process, as a daemon's preload does
  std::printf("%s PoSt %s: %u sectors × %u challenges, %llu rows per partition, %u threads; data in %.2f s\n",
              a.kind.c_str(), a.sector_size.c_str(), params.sectors, params.challenges,
              static_cast<unsigned long long>(layout.prover_rows()), std::thread::hardware_concurrency(),
              gen_s);
  ReusedBuffers buffers;
  const auto lend = buffers.lend();
  for (unsigned r = 0; r < a.reps; ++r) {
    const auto t0 = Clock::now();
    const auto w = filecoin::checked_post_prover_assignment(params, sectors, "partition", lend);
    const double s = std::chrono::duration<double>(Clock::now() - t0).count();
    std::printf("rep %u: %.3f s (%.1f M rows/s)%s\n", r, s,
                static_cast<double>(layout.prover_rows()) / s / 1e6, r == 0 ? ", into fresh buffers" : "");
  }
  return 0;
}

}  // namespace cuzk::bench
