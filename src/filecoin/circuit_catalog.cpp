#include "filecoin/circuit_catalog.hpp"

#include <cstdlib>
#include <stdexcept>
#include <vector>

#include "filecoin/registered_proof.hpp"

namespace cuzk::filecoin {

namespace {

// "2KiB" → "2k", "512MiB" → "512m", "32GiB" → "32g": the original daemon's suffixes.
std::string short_size(const PorepParams& p) {
  std::string s;
  for (char ch : p.name) {
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
    for (const PorepParams& p : production_porep_params())
      out.push_back({"porep-" + short_size(p), &p, porep_parameter_file_stem(p) + ".params"});
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
    if (c.porep->sector_bytes == params.sector_bytes) return c;
  throw std::invalid_argument("no PoRep circuit for a sector of " + std::to_string(params.sector_bytes) +
                              " bytes");
}

std::filesystem::path default_parameter_cache() {
  if (const char* env = std::getenv("FIL_PROOFS_PARAMETER_CACHE"); env && *env) return env;
  return "/var/tmp/filecoin-proof-parameters";
}

}  // namespace cuzk::filecoin
