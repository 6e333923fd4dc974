// The Filecoin circuits cuzk synthesizes itself, by the ids the daemon serves them under (the original
// daemon's: porep-2k … porep-64g), each with the parameter file Filecoin publishes its Groth16 key as, so
// that an operator points the daemon at the parameter cache their node already has
// (FIL_PROOFS_PARAMETER_CACHE, default /var/tmp/filecoin-proof-parameters: storage-proofs-core
// parameter_cache.rs).
#pragma once

#include <filesystem>
#include <span>
#include <string>
#include <string_view>

#include "filecoin/porep_params.hpp"

namespace cuzk::filecoin {

struct FilecoinCircuit {
  std::string id;              // "porep-32g"
  const PorepParams* porep;    // the StackedDRG partition circuit of that sector size
  std::string parameter_file;  // "v28-stacked-proof-of-replication-…-sha256_hasher-<hash>.params"
};

// Every one, smallest sector first.
std::span<const FilecoinCircuit> filecoin_circuits();
// nullptr when `id` is none of them.
const FilecoinCircuit* find_filecoin_circuit(std::string_view id);
// The PoRep circuit of a sector size.
const FilecoinCircuit& porep_circuit(const PorepParams& params);

// $FIL_PROOFS_PARAMETER_CACHE if set and not empty, else /var/tmp/filecoin-proof-parameters.
std::filesystem::path default_parameter_cache();

}  // namespace cuzk::filecoin
