// PoSt vanilla proofs as Curio sends them (SubmitProofRequest.vanilla_proofs, one per sector):
// filecoin-proofs' FallbackPoStSectorProof, serialized by bincode 1's `serialize` (fixed-width integers,
// little-endian):
//
//   sector_id u64 | comm_r [32] | sectors: u64 count, each SectorProof:
//     inclusion_proofs: u64 count, each MerkleProof: u32 variant (0 single, 1 sub, 2 top) then
//       single: root, leaf, path | sub: base path, sub path, root, leaf | top: base, sub, top paths, root,
//       leaf (a path: u64 count of elements, each a u64 count of hashes [32] each and a u64 index)
//     comm_c [32] | comm_r_last [32]
//
// Domain values are canonical little-endian field elements. The layout is pinned by the size of the one real
// proof known (Curio lib/proof/testgolden/post.vproof, a 32 GiB sector with 10 challenges: 24,960 bytes,
// which this layout gives exactly). The challenged leaves follow from the randomness (fallback vanilla.rs
// generate_leaf_challenge): SHA-256(randomness ‖ sector_id LE ‖ challenge index LE), its first 8 bytes as a
// little-endian u64, modulo the sector's nodes.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "filecoin/post_circuit.hpp"
#include "filecoin/sdr_graph.hpp"

namespace cuzk::filecoin {

// A malformed vanilla proof: the message names what and where.
struct PostVanillaError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct PostVanillaProof {
  std::uint64_t sector_id = 0;
  Fr comm_r;
  // Usually one (a proof per sector); each with its challenges' leaves and paths, comm_c and comm_r_last.
  std::vector<PostSectorProof> sectors;
  // Per sector, per challenge: the leaf index its path gives.
  std::vector<std::vector<std::uint64_t>> challenged_leaves;
};

// Throws PostVanillaError for anything malformed: truncated or trailing bytes, an unknown variant, a
// non-canonical element, a path that does not fit the sector's tree (params.tree), a root other than
// comm_r_last or a path that does not lead there from its leaf, comm_r ≠ Poseidon2(comm_c, comm_r_last).
// `what` names the proof in messages.
PostVanillaProof decode_post_vanilla_proof(std::span<const std::uint8_t> bytes, const PostParams& params,
                                           const std::string& what);
// The same bytes back (for test data and the daemon's tests).
std::vector<std::uint8_t> encode_post_vanilla_proof(const PostVanillaProof& proof, const PostParams& params);

// The circuit's sectors (params.sectors of them) from a partition's vanilla proofs, as filecoin-proofs lays
// them out: WindowPoSt takes every proof's sector proofs in order and, when there are fewer than the
// partition holds, repeats the last one (window_post.rs / fallback vanilla.rs pad partitions so, and the
// public inputs with them); WinningPoSt's one proof of one sector with 66 challenges becomes 66 one-challenge
// sectors. Each proof's challenged leaves must be the ones `randomness` gives its sector, numbered as the
// proof type's API version numbers them in partition `partition` (registered_post_proof.hpp). Throws
// PostVanillaError.
std::vector<PostSectorProof> post_circuit_sectors(const PostParams& params,
                                                  std::span<const PostVanillaProof> proofs,
                                                  const std::array<std::uint8_t, 32>& randomness,
                                                  ApiVersion version = ApiVersion::V1_2_0,
                                                  std::uint64_t partition = 0);

// The partition circuit's public inputs without ONE, as FallbackPoStCompound::generate_public_inputs computes
// them from the chain's view alone (no path is read): per sector its comm_r, then each challenge's leaf index
// from the randomness, the last sector's repeated to fill the partition (WinningPoSt: per challenge, comm_r
// and that challenge's leaf).
std::vector<Fr> post_public_inputs(const PostParams& params, std::span<const PostVanillaProof> proofs,
                                   const std::array<std::uint8_t, 32>& randomness,
                                   ApiVersion version = ApiVersion::V1_2_0, std::uint64_t partition = 0);

// The `count` leaves a sector is challenged at: generate_leaf_challenge of challenge numbers first,
// first + 1, … (post_challenge_index gives a sector's first).
std::vector<std::uint64_t> post_challenges(const std::array<std::uint8_t, 32>& randomness,
                                           std::uint64_t sector_id, std::uint64_t sector_nodes,
                                           unsigned count, std::uint64_t first = 0);

}  // namespace cuzk::filecoin
