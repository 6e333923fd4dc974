#include "filecoin/replica_id.hpp"

#include "filecoin/sha256.hpp"

namespace cuzk::filecoin {

ReplicaId generate_replica_id(const std::array<std::uint8_t, 32>& prover_id, std::uint64_t sector_id,
                              const std::array<std::uint8_t, 32>& ticket,
                              const std::array<std::uint8_t, 32>& comm_d, const PorepId& porep_id) {
  std::array<std::uint8_t, 8> sector_be;
  for (int i = 0; i < 8; ++i) sector_be[i] = std::uint8_t(sector_id >> (56 - 8 * i));
  Sha256 hasher;
  hasher.update(prover_id).update(sector_be).update(ticket).update(comm_d).update(porep_id);
  ReplicaId id = hasher.finish();
  trim_to_fr32(id);
  return id;
}

}  // namespace cuzk::filecoin
