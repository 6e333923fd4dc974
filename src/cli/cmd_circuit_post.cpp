// cuzk circuit post | winning: Filecoin's fallback PoSt circuit (one WindowPoSt partition, or the WinningPoSt
// circuit) at a sector size, from a shape-mode synthesis: counts and densities.
#include <chrono>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/circuit_format.hpp"
#include "cli/commands.hpp"
#include "filecoin/post_synthesis.hpp"

namespace cuzk::cli {

int run_circuit_post(const CircuitPostArgs& args) {
  const auto kind = args.winning ? filecoin::PostKind::kWinning : filecoin::PostKind::kWindow;
  const filecoin::PostParams p =
      filecoin::post_params_for(kind, args.sector_size);  // throws for unknown sizes
  const char* title = args.winning ? "WinningPoSt" : "WindowPoSt";
  std::cerr << "synthesizing the " << p.name << " " << title << " circuit (shape mode)…\n";
  const auto t0 = std::chrono::steady_clock::now();
  const gadgets::Shape s = filecoin::post_shape(p);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (args.json) {
    nlohmann::ordered_json j{
        {"circuit", args.winning ? "winning-post" : "window-post"},
        {"sector_size", p.name},
        {"sector_bytes", p.sector_bytes},
        {"nodes", p.nodes},
        {"sectors", p.sectors},
        {"challenges_per_sector", p.challenges},
        {"tree_r_last", tree_json(p.tree)},
    };
    add_shape_json(j, s);
    j["mode"] = "shape";
    j["seconds"] = seconds;
    std::cout << j.dump(2) << "\n";
    return kOk;
  }
  std::vector<std::pair<std::string, std::string>> rows{
      {"sector size", p.name + " (" + grouped(p.sector_bytes) + " bytes)"},
      {"sectors",
       std::to_string(p.sectors) +
           (args.winning ? " (WinningPoSt's 66 challenges of one sector, set up as 66 sectors of one)"
                         : " per partition")},
      {"challenges per sector", std::to_string(p.challenges)},
      {"tree R_last", tree_text(p.tree)},
  };
  for (auto& row : shape_rows(s)) rows.push_back(std::move(row));
  rows.push_back({"shape mode", fixed(seconds, 2) + " s"});
  print_rows(std::string("Filecoin ") + title + " (fallback PoSt) circuit", rows);
  return kOk;
}

}  // namespace cuzk::cli
