#include "filecoin/sdr_labels.hpp"

#include <stdexcept>
#include <string>

#include "filecoin/sha256.hpp"

namespace cuzk::filecoin {
namespace {

std::array<std::uint8_t, kLabelPrefixBytes> label_prefix(const ReplicaId& replica_id, std::uint32_t layer,
                                                         std::uint64_t node) {
  std::array<std::uint8_t, kLabelPrefixBytes> prefix{};
  std::copy(replica_id.begin(), replica_id.end(), prefix.begin());
  for (int i = 0; i < 4; ++i) prefix[32 + i] = std::uint8_t(layer >> (24 - 8 * i));
  for (int i = 0; i < 8; ++i) prefix[36 + i] = std::uint8_t(node >> (56 - 8 * i));
  return prefix;  // bytes 44..63 stay zero
}

void check_parent_count(std::uint32_t layer, std::uint64_t node, std::size_t given) {
  const std::size_t expected = label_parent_count(layer, node);
  if (given != expected) {
    throw std::invalid_argument("SDR label of layer " + std::to_string(layer) + " node " +
                                std::to_string(node) + " takes " + std::to_string(expected) +
                                " parent labels, got " + std::to_string(given));
  }
}

// Hashes the prefix and the scheduled parents: the streaming form of label_preimage.
Label hash_label(const ReplicaId& replica_id, std::uint32_t layer, std::uint64_t node,
                 std::span<const Label* const> parent_labels) {
  Sha256 hasher;
  hasher.update(label_prefix(replica_id, layer, node));
  if (node != 0) {
    for (std::uint8_t position : label_parent_schedule(layer)) hasher.update(*parent_labels[position]);
  }
  Label label = hasher.finish();
  trim_to_fr32(label);
  return label;
}

}  // namespace

void trim_to_fr32(std::array<std::uint8_t, 32>& bytes) {
  bytes[31] &= 0x3f;
}

std::array<std::uint8_t, kLabelParentRepeats> label_parent_schedule(std::uint32_t layer) {
  if (layer == 0) throw std::invalid_argument("SDR layers are numbered from 1");
  const std::size_t degree = layer == 1 ? kBaseDegree : kDegree;
  std::array<std::uint8_t, kLabelParentRepeats> schedule;
  for (std::size_t i = 0; i < schedule.size(); ++i) schedule[i] = std::uint8_t(i % degree);
  return schedule;
}

std::size_t label_parent_count(std::uint32_t layer, std::uint64_t node) {
  if (layer == 0) throw std::invalid_argument("SDR layers are numbered from 1");
  if (node == 0) return 0;
  return layer == 1 ? kBaseDegree : kDegree;
}

std::vector<std::uint8_t> label_preimage(const ReplicaId& replica_id, std::uint32_t layer, std::uint64_t node,
                                         std::span<const Label> parent_labels) {
  check_parent_count(layer, node, parent_labels.size());
  const auto prefix = label_prefix(replica_id, layer, node);
  std::vector<std::uint8_t> message(prefix.begin(), prefix.end());
  if (node != 0) {
    for (std::uint8_t position : label_parent_schedule(layer)) {
      message.insert(message.end(), parent_labels[position].begin(), parent_labels[position].end());
    }
  }
  return message;
}

Label label_from_parents(const ReplicaId& replica_id, std::uint32_t layer, std::uint64_t node,
                         std::span<const Label> parent_labels) {
  check_parent_count(layer, node, parent_labels.size());
  std::array<const Label*, kDegree> pointers{};
  for (std::size_t i = 0; i < parent_labels.size(); ++i) pointers[i] = &parent_labels[i];
  return hash_label(replica_id, layer, node, std::span(pointers.data(), parent_labels.size()));
}

std::vector<std::vector<Label>> generate_labels(const SdrGraph& graph, const ReplicaId& replica_id,
                                                std::uint32_t layers) {
  if (layers == 0) throw std::invalid_argument("generate_labels: at least one layer");
  const std::uint64_t nodes = graph.nodes();
  std::vector<std::vector<Label>> result(layers, std::vector<Label>(nodes));
  // Parents do not depend on the layer: compute them once.
  std::vector<std::array<std::uint32_t, kDegree>> parents(nodes);
  for (std::uint64_t node = 0; node < nodes; ++node) parents[node] = graph.parents(node);

  for (std::uint32_t layer = 1; layer <= layers; ++layer) {
    std::vector<Label>& current = result[layer - 1];
    const std::vector<Label>* previous = layer > 1 ? &result[layer - 2] : nullptr;
    for (std::uint64_t node = 0; node < nodes; ++node) {
      std::array<const Label*, kDegree> parent_labels{};
      for (std::size_t i = 0; i < kBaseDegree; ++i) parent_labels[i] = &current[parents[node][i]];
      if (previous != nullptr) {
        for (std::size_t i = kBaseDegree; i < kDegree; ++i) parent_labels[i] = &(*previous)[parents[node][i]];
      }
      current[node] = hash_label(replica_id, layer, node, parent_labels);
    }
  }
  return result;
}

}  // namespace cuzk::filecoin
