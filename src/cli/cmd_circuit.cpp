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

#include "cli/commands.hpp"
#include "filecoin/porep_params.hpp"
#include "filecoin/porep_synthesis.hpp"
#include "io/precompiled_circuit.hpp"

namespace cuzk::cli {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// 130278869 → "130,278,869"
std::string grouped(std::uint64_t v) {
  std::string digits = std::to_string(v), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string fixed(double x, int decimals) {
  std::ostringstream o;
  o << std::fixed << std::setprecision(decimals) << x;
  return o.str();
}

// rust-fil-proofs' LCTree<Poseidon, U8, U8, U0> reads "8-8-0".
std::string tree_name(const filecoin::TreeShape& t) {
  return std::to_string(t.base) + "-" + std::to_string(t.sub) + "-" + std::to_string(t.top);
}

nlohmann::ordered_json tree_json(const filecoin::TreeShape& t) {
  return {{"base_arity", t.base},         {"sub_arity", t.sub},   {"top_arity", t.top},
          {"base_levels", t.base_levels}, {"levels", t.levels()}, {"path_bits", t.path_bits()}};
}

struct Result {
  gadgets::Shape shape;
  const char* mode;
  double seconds;
  std::string file;  // record mode only
  std::uint64_t file_bytes = 0;
  double write_seconds = 0;
};

nlohmann::ordered_json density_json(const gadgets::Bitmap& b) {
  return {{"popcount", b.popcount()}, {"bits", b.size()}};
}

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
      {"constraints_synthesized", s.constraints},
      {"constraints_prover", s.prover_constraints()},  // + one `input · 1 = 0` row per input
      {"inputs", s.inputs},                            // ONE included
      {"aux", s.aux},
      {"nnz_a_synthesized", s.nnz_a},
      {"nnz_a_prover", s.prover_nnz_a()},  // + one term per input row
      {"nnz_b", s.nnz_b},
      {"nnz_c", s.nnz_c},
      {"density",
       {{"a_aux", density_json(s.a_aux)},
        {"b_input", density_json(s.b_input)},
        {"b_aux", density_json(s.b_aux)}}},
      {"mode", r.mode},
      {"seconds", r.seconds},
  };
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
      {"trees C, R_last", "Poseidon " + tree_name(p.tree) + ": " + std::to_string(p.tree.base_levels) +
                              " levels of arity " + std::to_string(p.tree.base) +
                              (p.tree.sub ? ", one of " + std::to_string(p.tree.sub) : "") +
                              (p.tree.top ? ", one of " + std::to_string(p.tree.top) : "") + " (" +
                              std::to_string(p.tree.path_bits()) + " path bits)"},
      {"tree D", "SHA-256, binary, " + std::to_string(p.tree_d_levels) + " levels"},
      {"constraints", grouped(s.constraints) + " synthesized, " + grouped(s.prover_constraints()) +
                          " as the prover counts them (+ one `input · 1 = 0` row per input)"},
      {"inputs", grouped(s.inputs) + " (ONE included)"},
      {"aux", grouped(s.aux)},
      {"non-zeros A", grouped(s.prover_nnz_a()) + " as the prover counts them (" + grouped(s.nnz_a) +
                          " synthesized + one per input row)"},
      {"non-zeros B", grouped(s.nnz_b)},
      {"non-zeros C", grouped(s.nnz_c)},
      {"density a_aux", grouped(s.a_aux.popcount()) + " of " + grouped(s.a_aux.size()) + " aux"},
      {"density b_input", grouped(s.b_input.popcount()) + " of " + grouped(s.b_input.size()) + " inputs"},
      {"density b_aux", grouped(s.b_aux.popcount()) + " of " + grouped(s.b_aux.size()) + " aux"},
      {std::string(r.mode) + " mode", fixed(r.seconds, 2) + " s"},
  };
  if (!r.file.empty())
    rows.push_back(
        {"wrote", r.file + " (" + grouped(r.file_bytes) + " bytes, " + fixed(r.write_seconds, 2) + " s)"});
  std::size_t width = 0;
  for (const auto& [k, v] : rows) width = std::max(width, k.size());
  std::cout << "Filecoin PoRep (StackedDRG) partition circuit\n";
  for (const auto& [k, v] : rows)
    std::cout << "  " << std::left << std::setw(static_cast<int>(width) + 2) << k << v << "\n";
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
