// `cuzk-bench synth post` (synth_post.cpp): the fallback PoSt circuit's synthesis (WindowPoSt, WinningPoSt),
// timed.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

namespace cuzk::bench {

struct SynthPostArgs {
  std::string kind = "window", sector_size = "32GiB";
  unsigned reps = 3;
  std::uint64_t seed = 1;
  void* command = nullptr;  // the CLI11 subcommand, to test parsed()
};
void add_synth_post_command(CLI::App& app, SynthPostArgs& args);
int run_synth_post(const SynthPostArgs& args);

}  // namespace cuzk::bench
