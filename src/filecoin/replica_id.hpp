// The replica id that SDR labels are keyed by (storage-proofs-porep stacked/vanilla/params.rs
// generate_replica_id).
#pragma once

#include <array>
#include <cstdint>

#include "filecoin/sdr_graph.hpp"
#include "filecoin/sdr_labels.hpp"

namespace cuzk::filecoin {

// trim_to_fr32(SHA-256(prover_id || sector_id as u64 BE || ticket || comm_d || porep_id)). comm_d is
// the 32 bytes of the data commitment as stored (the tree root's LE field bytes).
ReplicaId generate_replica_id(const std::array<std::uint8_t, 32>& prover_id, std::uint64_t sector_id,
                              const std::array<std::uint8_t, 32>& ticket,
                              const std::array<std::uint8_t, 32>& comm_d, const PorepId& porep_id);

}  // namespace cuzk::filecoin
