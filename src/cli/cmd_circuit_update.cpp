// cuzk circuit update: Filecoin's SnapDeals (empty sector update) circuit of one partition at a sector size,
// from a shape-mode synthesis: counts and densities.
#include <chrono>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/circuit_format.hpp"
#include "cli/commands.hpp"
#include "filecoin/update_synthesis.hpp"

namespace cuzk::cli {

int run_circuit_update(const CircuitUpdateArgs& args) {
  const filecoin::UpdateParams& p =
      filecoin::update_params_for(args.sector_size);  // throws for unknown sizes
  std::cerr << "synthesizing the " << p.name << " SnapDeals circuit (shape mode)…\n";
  const auto t0 = std::chrono::steady_clock::now();
  const gadgets::Shape s = filecoin::update_shape(p);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::string hs;
  for (unsigned h : p.hs) hs += (hs.empty() ? "" : ", ") + std::to_string(h);
  if (args.json) {
    nlohmann::ordered_json j{
        {"circuit", "empty-sector-update"},
        {"sector_size", p.name},
        {"sector_bytes", p.sector_bytes},
        {"nodes", p.nodes},
        {"production", p.production},
        {"partitions", p.partitions},
        {"challenges_per_partition", p.challenges},
        {"apex_leaves", p.apex_leaves},
        {"hs", p.hs},
        {"h_default", p.h_default},
        {"tree_r", tree_json(p.tree)},
    };
    add_shape_json(j, s);
    j["mode"] = "shape";
    j["seconds"] = seconds;
    std::cout << j.dump(2) << "\n";
    return kOk;
  }
  std::vector<std::pair<std::string, std::string>> rows{
      {"sector size",
       p.name + " (" + grouped(p.sector_bytes) + " bytes)" + (p.production ? "" : ", a test size")},
      {"partitions", std::to_string(p.partitions)},
      {"challenges per partition", std::to_string(p.challenges)},
      {"apex leaves", std::to_string(p.apex_leaves) + " per partition"},
      {"h", hs + " (default " + std::to_string(p.h_default) + ")"},
      {"trees R old / new", tree_text(p.tree)},
      {"tree D new", "binary SHA-256, " + std::to_string(p.challenge_bits) + " levels"},
  };
  for (auto& row : shape_rows(s)) rows.push_back(std::move(row));
  rows.push_back({"shape mode", fixed(seconds, 2) + " s"});
  print_rows("Filecoin SnapDeals (empty sector update) circuit", rows);
  return kOk;
}

}  // namespace cuzk::cli
