// A SnapDeals proof as Curio asks for it (filecoin-proofs generate_empty_sector_update_proof_with_vanilla):
// the sector's partition proofs (one bincode PartitionProof per partition, in order), comm_r_old, comm_r_new
// and comm_d_new, and the proof type (RegisteredUpdateProof 0 … 4: StackedDrg2KiBV1, 8MiB, 512MiB, 32GiB,
// 64GiB) or the sector size. Read and checked at submit: every partition proof decoded and checked against
// the commitments and its challenges (update_vanilla.hpp); h is the size's default (filecoin-proofs'
// SectorUpdateConfig). The proof is the partitions' 192-byte Groth16 proofs, concatenated in order.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "filecoin/vanilla_job.hpp"

namespace cuzk::filecoin {

// RegisteredUpdateProof's name for an id ("StackedDrg32GiBV1"), or nullptr; its sector size.
const char* registered_update_proof_name(std::uint64_t id);
std::uint64_t registered_update_proof_sector_bytes(std::uint64_t id);

// Throws VanillaRequestError (or UpdateVanillaError for a malformed proof) saying what is wrong.
std::shared_ptr<const VanillaJob> read_update_job(const VanillaRequest& request);

}  // namespace cuzk::filecoin
