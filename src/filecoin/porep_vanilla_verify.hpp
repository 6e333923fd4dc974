// The CPU check of one PoRep partition's vanilla data (porep_vanilla.hpp): everything the StackedDRG circuit
// enforces, so data that passes here satisfies the circuit synthesized from it, and a failure names the
// challenge and the check. Also the partition's public inputs, and the tree hashes both sides agree on.
//
// Trees (rust-fil-proofs: BinaryMerkleTree<Sha256Hasher> for D, the sector-shape LCTree<Poseidon> for C and
// R_last):
//   - tree D: binary; a node is trim_to_fr32(SHA-256(left ‖ right)) over the children's 32-byte LE reprs;
//     the leaves are the data nodes themselves.
//   - trees C and R_last: `base_levels` levels of arity 8, then the sub level (8) and the top level (2)
//     when the shape has them; a node is Poseidon (arity 8 or 2) of its children.
//   - tree C's leaf is hash_single_column(the node's labels, layer 1 first): Poseidon-2 for 2 layers,
//     Poseidon-11 for 11; tree R_last's leaf is encoded = label of the last layer + data leaf (in Fr).
//   - comm_r = Poseidon-2(comm_c, comm_r_last).
// A path's per-level index is the node's mixed-radix digit (leaf side first), so packing the index bits
// LSB first gives back the node index: the path's public input.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "filecoin/porep_params.hpp"
#include "filecoin/porep_vanilla.hpp"
#include "filecoin/sdr_graph.hpp"

namespace cuzk::filecoin {

// An element's 32-byte canonical little-endian repr (Filecoin's domain bytes) and back; the reverse throws
// std::invalid_argument for an integer ≥ r.
std::array<std::uint8_t, 32> fr_to_repr(const Fr& x);
Fr fr_from_repr(const std::array<std::uint8_t, 32>& bytes);

// Tree D's node hash: exactly two children.
Fr tree_d_hash(std::span<const Fr> children);
// Trees C and R_last: Poseidon of the children (arity 8 or 2).
Fr tree_poseidon_hash(std::span<const Fr> children);
// hash_single_column: Poseidon-2 of 2 rows or Poseidon-11 of 11 (the only column heights the circuit
// has); throws std::invalid_argument otherwise.
Fr column_hash(std::span<const Fr> rows);

// Per-level arities, leaf side first: tree D (tree_d_levels × 2) and the Poseidon trees' shape.
std::vector<unsigned> tree_d_arities(const PorepParams& params);
std::vector<unsigned> tree_arities(const TreeShape& shape);

// The graph a production sector of this size is sealed with: SdrGraph(nodes, porep_id, V1_1_0) (V1_2_0
// gives the same graph).
SdrGraph porep_graph(const PorepParams& params, const PorepId& porep_id);

// The root `path` leads to from `leaf`, after checking its shape (one level per arity, arity − 1
// siblings, index < arity) and that its indices are `node`'s digits. Throws std::runtime_error starting
// with `what` on any mismatch.
Fr merkle_path_root(const Fr& leaf, const MerklePath& path, std::span<const unsigned> arities,
                    const std::function<Fr(std::span<const Fr>)>& hash, std::uint64_t node,
                    const std::string& what);

// The challenged node's labels, layer 1 first, recomputed from its parents' columns as the circuit does
// (layer 1: the 6 DRG parents' row 0; layer l > 1: the DRG parents' row l − 1 and the expander parents'
// row l − 2). The columns must have params.layers rows (throws std::runtime_error otherwise).
std::vector<Fr> recompute_challenge_labels(const PorepParams& params, const Fr& replica_id,
                                           const ChallengeProof& challenge);

// Throws std::runtime_error naming the challenge (its position and node) and what fails:
//   comm_r = Poseidon-2(comm_c, comm_r_last); challenges_per_partition challenges, each < nodes (and equal
//   to expected_challenges when that is not empty); data_leaf's tree D path → comm_d at the challenge;
//   14 parent columns of `layers` rows whose tree C paths → comm_c at the graph's parents (6 DRG, 8
//   expander, in the graph's order); the challenge's own column (labels recomputed from the parents'
//   columns) → comm_c, and encoded = last label + data_leaf → comm_r_last, both at the challenge.
void verify_porep_vanilla(const PorepParams& params, const SdrGraph& graph, const PorepPartitionProof& proof,
                          std::span<const std::uint64_t> expected_challenges = {});

// The partition circuit's public inputs without ONE, in StackedCompound::generate_public_inputs order:
// replica_id, comm_d, comm_r, then per challenge c: c (tree D path), its 6 DRG parents, its 8 expander
// parents (graph order), c (the UInt64 input), c (tree R_last path), c (tree C path). 3 + 18·challenges.
std::vector<Fr> porep_public_inputs(const SdrGraph& graph, const PorepPartitionProof& proof);

}  // namespace cuzk::filecoin
