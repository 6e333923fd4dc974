// SnapDeals vanilla proofs as Curio sends them (SubmitProofRequest.vanilla_proofs, one per partition, with
// comm_r_old, comm_r_new and comm_d_new beside them): storage-proofs-update's PartitionProof, serialized by
// bincode 1 (bincode.hpp):
//
//   comm_c [32] | apex_leafs: u64 count, [32] each | challenge_proofs: u64 count, each
//     proof_r_old MerkleProof (tree R's shape) | proof_d_new MerkleProof (binary SHA-256, single) |
//     proof_r_new MerkleProof (tree R's shape)
//
// 562 KB per partition at 32 GiB (86 challenges). Partition k's challenges follow from comm_r_new
// (challenges.rs): digest j = PoseidonGen(comm_r_new, k·digests + j), each digest's little-endian bits cut
// into random_bits-bit pieces, k's bits above them.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "filecoin/bincode.hpp"
#include "filecoin/update_circuit.hpp"

namespace cuzk::filecoin {

// A malformed or inconsistent vanilla proof: the message names what and where.
struct UpdateVanillaError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct UpdateVanillaChallenge {
  bincode::MerkleProofValues r_old, d_new, r_new;
};

struct UpdateVanillaProof {
  Fr comm_c;
  std::vector<Fr> apex_leafs;
  std::vector<UpdateVanillaChallenge> challenges;
};

// The chain's view of a sector update (the request's fields).
struct UpdateCommitments {
  Fr comm_r_old, comm_d_new, comm_r_new;
};

// Structure only: counts, tree shapes, canonical elements, no trailing bytes. Throws UpdateVanillaError.
UpdateVanillaProof decode_update_vanilla_proof(std::span<const std::uint8_t> bytes,
                                               const UpdateParams& params, const std::string& what);
std::vector<std::uint8_t> encode_update_vanilla_proof(const UpdateVanillaProof& proof,
                                                      const UpdateParams& params);

// Partition k's challenged nodes (challenges.rs Challenges::new).
std::vector<std::uint64_t> update_challenges(const UpdateParams& params, const Fr& comm_r_new,
                                             std::uint64_t k);

// phi = PoseidonGen(comm_d_new, comm_r_old); rho = PoseidonGen(phi, high) (vanilla.rs phi, rho).
Fr update_phi(const Fr& comm_d_new, const Fr& comm_r_old);
Fr update_rho(const Fr& phi, std::uint64_t high);

// Checks partition k of a sector update as EmptySectorUpdate::verify does and as the circuit will
// (comm_r_old = Poseidon2(comm_c, root_r_old) and the same for new; each challenge's three paths at its
// challenged node, to their roots; leaf_r_new = leaf_r_old + leaf_d_new · rho; the apex leaves under the
// partition's root, each tree D path through the apex leaf its bits select), then gives the circuit's
// inputs. Throws UpdateVanillaError naming `what`, the challenge and the check.
UpdatePartitionProof update_circuit_proof(const UpdateParams& params, std::uint64_t k, unsigned h,
                                          const UpdateCommitments& commitments,
                                          const UpdateVanillaProof& proof, const std::string& what);

// The partition circuit's public inputs without ONE (circuit.rs PublicInputs::to_vec): k_and_h_select,
// comm_r_old, comm_d_new, comm_r_new.
std::vector<Fr> update_public_inputs(const UpdateParams& params, std::uint64_t k, unsigned h,
                                     const UpdateCommitments& commitments);

}  // namespace cuzk::filecoin
