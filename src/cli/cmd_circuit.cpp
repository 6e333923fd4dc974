// cuzk circuit porep: the Filecoin PoRep partition circuit's size at a sector size, from a shape-mode
// synthesis (counts and densities only), or from a record-mode one that also saves the pre-compiled circuit
// (.cpce, docs/formats-precompiled.md).
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli/circuit_format.hpp"
#include "cli/commands.hpp"
#include "filecoin/porep_params.hpp"
#include "filecoin/porep_synthesis.hpp"
#include "io/precompiled_circuit.hpp"

namespace cuzk::cli {

namespace {

using Clock = std::chrono::steady_clock;

struct Result {
  gadgets::Shape shape;
  const char* mode;
  double seconds;
  std::string file;  // record mode only
  std::uint64_t file_bytes = 0;
  double write_seconds = 0;
};

void print_json(const filecoin::PorepParams& p, const Result& r) {
  const gadgets::Shape& s = r.shape;
  nlohmann::ordered_json j{
      {"circuit", "porep"},
      {"sector_size", p.name},
      {"sector_bytes", p.sector_bytes},
      {"nodes", p.nodes},
      {"layers", p.layers},
      {"partitions", p.partitions},
      {"challenges_per_partition", p.challenges_per_partition},
      {"tree_c_r_last", tree_json(p.tree)},
      {"tree_d_levels", p.tree_d_levels},
  };
  add_shape_json(j, s);
  j["mode"] = r.mode;
  j["seconds"] = r.seconds;
  if (!r.file.empty()) {
    j["record_file"] = r.file;
    j["record_bytes"] = r.file_bytes;
    j["write_seconds"] = r.write_seconds;
  }
  std::cout << j.dump(2) << "\n";
}

void print_text(const filecoin::PorepParams& p, const Result& r) {
  const gadgets::Shape& s = r.shape;
  std::vector<std::pair<std::string, std::string>> rows{
      {"sector size", p.name + " (" + grouped(p.sector_bytes) + " bytes)"},
      {"nodes", grouped(p.nodes)},
      {"layers", std::to_string(p.layers)},
      {"partitions", std::to_string(p.partitions) + " (this is one partition's circuit)"},
      {"challenges per partition", std::to_string(p.challenges_per_partition)},
      {"trees C, R_last", tree_text(p.tree)},
      {"tree D", "SHA-256, binary, " + std::to_string(p.tree_d_levels) + " levels"},
  };
  for (auto& row : shape_rows(s)) rows.push_back(std::move(row));
  rows.push_back({std::string(r.mode) + " mode", fixed(r.seconds, 2) + " s"});
  if (!r.file.empty())
    rows.push_back(
        {"wrote", r.file + " (" + grouped(r.file_bytes) + " bytes, " + fixed(r.write_seconds, 2) + " s)"});
  print_rows("Filecoin PoRep (StackedDRG) partition circuit", rows);
}

}  // namespace

int run_circuit_porep(const CircuitPorepArgs& args) {
  const filecoin::PorepParams& p = filecoin::porep_params_for(args.sector_size);  // throws for unknown sizes
  Result r;
  if (!args.record_dir) {
    std::cerr << "synthesizing the " << p.name << " PoRep partition circuit (shape mode)…\n";
    const auto t0 = Clock::now();
    r.shape = filecoin::porep_shape(p);
    r.seconds = seconds_since(t0);
    r.mode = "shape";
  } else {
    std::cerr << "synthesizing the " << p.name
              << " PoRep partition circuit (record mode: the matrices are kept in memory)…\n";
    const auto t0 = Clock::now();
    gadgets::PrecompiledCircuit pc = filecoin::porep_record(p);
    r.seconds = seconds_since(t0);
    r.mode = "record";
    std::filesystem::create_directories(*args.record_dir);
    r.file = (std::filesystem::path(*args.record_dir) / ("porep-" + p.name + ".cpce")).string();
    const auto t1 = Clock::now();
    io::write_precompiled_circuit(r.file, pc, "filecoin-porep-" + p.name);
    r.write_seconds = seconds_since(t1);
    r.file_bytes = std::filesystem::file_size(r.file);
    r.shape = std::move(pc.shape);
  }
  if (args.json)
    print_json(p, r);
  else
    print_text(p, r);
  return kOk;
}

}  // namespace cuzk::cli
