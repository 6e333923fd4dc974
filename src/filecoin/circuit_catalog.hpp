// The Filecoin circuits cuzk synthesizes itself, by the ids the daemon serves them under (the original
// daemon's: porep-2k … porep-64g, wpost-2k … wpost-64g, winning-2k … winning-64g, snap-2k … snap-64g), each
// with the parameter file Filecoin publishes its Groth16 key as, so that an operator points the daemon at the
// parameter cache their node already has (FIL_PROOFS_PARAMETER_CACHE, default
// /var/tmp/filecoin-proof-parameters: storage-proofs-core parameter_cache.rs).
#pragma once

#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "filecoin/porep_params.hpp"
#include "filecoin/post_params.hpp"
#include "filecoin/update_params.hpp"

namespace cuzk::filecoin {

enum class CircuitKind { kPorep, kWindowPost, kWinningPost, kSnapDeals };
// "porep", "window_post", "winning_post", "snap_deals": metric labels
const char* to_string(CircuitKind kind);

struct FilecoinCircuit {
  std::string id;  // "porep-32g"
  CircuitKind kind = CircuitKind::kPorep;
  std::string sector_size;  // "32GiB"
  std::string description;  // "the 32GiB PoRep circuit"
  unsigned partitions =
      1;  // proofs per job (PoRep, SnapDeals: the sector's partitions; PoSt: one per request)
  const PorepParams* porep = nullptr;    // the StackedDRG partition circuit, for kPorep
  std::optional<PostParams> post;        // the fallback PoSt circuit, for kWindowPost and kWinningPost
  const UpdateParams* update = nullptr;  // the empty sector update circuit, for kSnapDeals
  std::string parameter_file;            // "v28-stacked-proof-of-replication-…-sha256_hasher-<hash>.params"
};

// Every one: PoRep, WindowPoSt, WinningPoSt, SnapDeals, each smallest sector first.
std::span<const FilecoinCircuit> filecoin_circuits();
// nullptr when `id` is none of them.
const FilecoinCircuit* find_filecoin_circuit(std::string_view id);
// The PoRep circuit of a sector size.
const FilecoinCircuit& porep_circuit(const PorepParams& params);
// The PoSt circuit of a kind and sector size.
const FilecoinCircuit& post_circuit(PostKind kind, std::uint64_t sector_bytes);
// The SnapDeals circuit of a production sector size (throws std::invalid_argument for a test size).
const FilecoinCircuit& update_circuit(std::uint64_t sector_bytes);

// $FIL_PROOFS_PARAMETER_CACHE if set and not empty, else /var/tmp/filecoin-proof-parameters.
std::filesystem::path default_parameter_cache();

}  // namespace cuzk::filecoin
