#include "filecoin/circuit_catalog.hpp"

#include <cstdlib>
#include <stdexcept>
#include <vector>

#include "filecoin/registered_proof.hpp"

namespace cuzk::filecoin {

const char* to_string(CircuitKind kind) {
  switch (kind) {
    case CircuitKind::kPorep:
      return "porep";
    case CircuitKind::kWindowPost:
      return "window_post";
    case CircuitKind::kWinningPost:
      return "winning_post";
    case CircuitKind::kSnapDeals:
      return "snap_deals";
  }
  return "unknown";
}

namespace {

// "2KiB" → "2k", "512MiB" → "512m", "32GiB" → "32g": the original daemon's suffixes.
std::string short_size(const std::string& name) {
  std::string s;
  for (char ch : name) {
    if (ch >= '0' && ch <= '9') {
      s += ch;
    } else {
      s += static_cast<char>(ch == 'K' ? 'k' : ch == 'M' ? 'm' : 'g');
      break;
    }
  }
  return s;
}

const std::vector<FilecoinCircuit>& catalog() {
  static const std::vector<FilecoinCircuit> all = [] {
    std::vector<FilecoinCircuit> out;
    for (const PorepParams& p : production_porep_params()) {
      FilecoinCircuit c;
      c.id = "porep-" + short_size(p.name);
      c.kind = CircuitKind::kPorep;
      c.sector_size = p.name;
      c.description = "the " + p.name + " PoRep circuit";
      c.partitions = p.partitions;
      c.porep = &p;
      c.parameter_file = porep_parameter_file_stem(p) + ".params";
      out.push_back(std::move(c));
    }
    for (PostKind kind : {PostKind::kWindow, PostKind::kWinning})
      for (const PorepParams& p : production_porep_params()) {
        FilecoinCircuit c;
        const bool window = kind == PostKind::kWindow;
        c.id = (window ? "wpost-" : "winning-") + short_size(p.name);
        c.kind = window ? CircuitKind::kWindowPost : CircuitKind::kWinningPost;
        c.sector_size = p.name;
        c.description = "the " + p.name + (window ? " WindowPoSt" : " WinningPoSt") + " circuit";
        c.post = post_params_for(kind, p.name);
        c.parameter_file = post_parameter_file_stem(*c.post) + ".params";
        out.push_back(std::move(c));
      }
    for (const UpdateParams& p : all_update_params()) {
      if (!p.production) continue;
      FilecoinCircuit c;
      c.id = "snap-" + short_size(p.name);
      c.kind = CircuitKind::kSnapDeals;
      c.sector_size = p.name;
      c.description = "the " + p.name + " SnapDeals (empty sector update) circuit";
      c.partitions = p.partitions;
      c.update = &p;
      c.parameter_file = update_parameter_file_stem(p) + ".params";
      out.push_back(std::move(c));
    }
    return out;
  }();
  return all;
}

}  // namespace

std::span<const FilecoinCircuit> filecoin_circuits() {
  return catalog();
}

const FilecoinCircuit* find_filecoin_circuit(std::string_view id) {
  for (const FilecoinCircuit& c : catalog())
    if (c.id == id) return &c;
  return nullptr;
}

const FilecoinCircuit& porep_circuit(const PorepParams& params) {
  for (const FilecoinCircuit& c : catalog())
    if (c.porep && c.porep->sector_bytes == params.sector_bytes) return c;
  throw std::invalid_argument("no PoRep circuit for a sector of " + std::to_string(params.sector_bytes) +
                              " bytes");
}

const FilecoinCircuit& post_circuit(PostKind kind, std::uint64_t sector_bytes) {
  for (const FilecoinCircuit& c : catalog())
    if (c.post && c.post->kind == kind && c.post->sector_bytes == sector_bytes) return c;
  throw std::invalid_argument("no " + std::string(to_string(kind)) + " PoSt circuit for a sector of " +
                              std::to_string(sector_bytes) + " bytes");
}

const FilecoinCircuit& update_circuit(std::uint64_t sector_bytes) {
  for (const FilecoinCircuit& c : catalog())
    if (c.update && c.update->sector_bytes == sector_bytes) return c;
  throw std::invalid_argument("no SnapDeals circuit for a sector of " + std::to_string(sector_bytes) +
                              " bytes: the production sizes are 2KiB, 8MiB, 512MiB, 32GiB and 64GiB");
}

std::filesystem::path default_parameter_cache() {
  if (const char* env = std::getenv("FIL_PROOFS_PARAMETER_CACHE"); env && *env) return env;
  return "/var/tmp/filecoin-proof-parameters";
}

}  // namespace cuzk::filecoin
