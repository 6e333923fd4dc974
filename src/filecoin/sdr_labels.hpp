// SDR labelling (storage-proofs-porep stacked/vanilla/create_label): every node of every layer is
//   label = trim(SHA-256(replica_id || layer as u32 BE || node as u64 BE || 20 zero bytes || 37 parent
//   labels))
// where trim clears the top two bits of byte 31, so the label is a 254-bit field element in LE bytes.
// Node 0 hashes the 64-byte prefix alone. Layer 1 hashes its 6 DRG parents (same layer) six times and
// parent 0 once more; later layers hash the 14 parents (6 DRG from the same layer, then 8 expander from
// the previous layer) twice and parents 0..8 once more.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "filecoin/sdr_graph.hpp"

namespace cuzk::filecoin {

using Label = std::array<std::uint8_t, 32>;
using ReplicaId = std::array<std::uint8_t, 32>;

inline constexpr std::size_t kLabelParentRepeats = 37;  // parent labels per hash
inline constexpr std::size_t kLabelPrefixBytes = 64;    // replica id, layer, node, zero padding

// Clears the top two bits of byte 31 (fr32's bytes_into_fr_repr_safe, Sha256Domain::trim_to_fr32).
void trim_to_fr32(std::array<std::uint8_t, 32>& bytes);

// The parents a label hashes, as positions in the node's parent list (base_parents for layer 1,
// parents() for layer > 1), in hashing order. Throws std::invalid_argument for layer 0.
std::array<std::uint8_t, kLabelParentRepeats> label_parent_schedule(std::uint32_t layer);

// Number of parent labels one node's label takes: 0 for node 0, 6 in layer 1, 14 after.
std::size_t label_parent_count(std::uint32_t layer, std::uint64_t node);

// The SHA-256 message of one label: 64 bytes for node 0, 64 + 37 * 32 = 1248 bytes otherwise.
// parent_labels holds label_parent_count(layer, node) labels in parent-list order (layer > 1: the 6
// DRG parents' labels from this layer, then the 8 expander parents' from the previous layer).
// Throws std::invalid_argument on a wrong count or layer 0.
std::vector<std::uint8_t> label_preimage(const ReplicaId& replica_id, std::uint32_t layer, std::uint64_t node,
                                         std::span<const Label> parent_labels);

// One node's label from its parents' labels (same contract as label_preimage).
Label label_from_parents(const ReplicaId& replica_id, std::uint32_t layer, std::uint64_t node,
                         std::span<const Label> parent_labels);

// All labels of a (small, in-memory) sector: result[l][n] is node n of layer l + 1. Throws
// std::invalid_argument for layers == 0.
std::vector<std::vector<Label>> generate_labels(const SdrGraph& graph, const ReplicaId& replica_id,
                                                std::uint32_t layers);

}  // namespace cuzk::filecoin
