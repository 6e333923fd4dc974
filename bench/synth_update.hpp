// `cuzk-bench synth update` (synth_update.cpp): the SnapDeals circuit's synthesis, timed.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

namespace cuzk::bench {

struct SynthUpdateArgs {
  std::string sector_size = "32GiB";
  unsigned partitions = 1, reps = 1;
  std::uint64_t seed = 1;
  void* command = nullptr;  // the CLI11 subcommand, to test parsed()
};
void add_synth_update_command(CLI::App& app, SynthUpdateArgs& args);
int run_synth_update(const SynthUpdateArgs& args);

}  // namespace cuzk::bench
