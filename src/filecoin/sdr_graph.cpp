#include "filecoin/sdr_graph.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <string>

#include "filecoin/chacha.hpp"
#include "filecoin/sha256.hpp"

namespace cuzk::filecoin {
namespace {

// ceil(log2(x)) for x >= 1. storage-proofs computes it in f64 ((x as f64).log2().ceil()); for the
// metagraph sizes a stacked graph allows (below 2^35) the nearest non-power-of-two is far more than an
// ulp from an integer logarithm, so the exact integer form gives the same bucket counts.
std::uint64_t ceil_log2(std::uint64_t x) {
  return std::bit_width(x - 1);
}

std::uint64_t checked_nodes(std::uint64_t nodes) {
  if (nodes < 2) throw std::invalid_argument("SdrGraph: a graph needs at least 2 nodes");
  if (nodes > 0xffffffffull) {
    throw std::invalid_argument("SdrGraph: " + std::to_string(nodes) + " nodes do not fit a u32 index");
  }
  return nodes;
}

}  // namespace

PorepId porep_id_for(std::uint64_t registered_proof_id, std::uint64_t nonce) {
  PorepId id{};
  for (int i = 0; i < 8; ++i) {
    id[i] = std::uint8_t(registered_proof_id >> (8 * i));
    id[8 + i] = std::uint8_t(nonce >> (8 * i));
  }
  return id;
}

std::array<std::uint8_t, 32> derive_porep_domain_seed(std::string_view dst, const PorepId& porep_id) {
  Sha256 hasher;
  hasher.update(std::span(reinterpret_cast<const std::uint8_t*>(dst.data()), dst.size()));
  hasher.update(porep_id);
  return hasher.finish();
}

std::array<std::uint8_t, 28> derive_drg_seed(const PorepId& porep_id) {
  const auto raw = derive_porep_domain_seed(kDrsampleDst, porep_id);
  std::array<std::uint8_t, 28> seed;
  std::copy_n(raw.begin(), seed.size(), seed.begin());
  return seed;
}

FeistelKeys derive_feistel_keys(const PorepId& porep_id) {
  const auto raw = derive_porep_domain_seed(kFeistelDst, porep_id);
  FeistelKeys keys{};
  for (int k = 0; k < 4; ++k) {
    for (int i = 7; i >= 0; --i) keys[k] = keys[k] << 8 | raw[8 * k + i];
  }
  return keys;
}

SdrGraph::SdrGraph(std::uint64_t nodes, const PorepId& porep_id, ApiVersion api_version)
    : nodes_(checked_nodes(nodes)),
      api_version_(api_version),
      drg_seed_(derive_drg_seed(porep_id)),
      feistel_keys_(derive_feistel_keys(porep_id)),
      feistel_params_(feistel_precompute(nodes_ * kExpDegree)) {}

void SdrGraph::check_node(std::uint64_t node) const {
  if (node >= nodes_) {
    throw std::out_of_range("SdrGraph: node " + std::to_string(node) + " outside a graph of " +
                            std::to_string(nodes_) + " nodes");
  }
}

std::array<std::uint32_t, kBaseDegree> SdrGraph::base_parents(std::uint64_t node) const {
  check_node(node);
  std::array<std::uint32_t, kBaseDegree> parents{};
  if (node < 2) return parents;  // node 0 references itself, node 1 only node 0

  // The RNG seed is the 28-byte DRG seed followed by the node index as u32 LE: one stream per node.
  std::array<std::uint8_t, 32> seed;
  std::copy(drg_seed_.begin(), drg_seed_.end(), seed.begin());
  for (int i = 0; i < 4; ++i) seed[28 + i] = std::uint8_t(node >> (8 * i));
  ChaCha8Rng rng(seed);

  // Bucket sampling on the metagraph of nodes * m' nodes (m' = degree - 1), mapped back by / m'.
  constexpr std::uint64_t m_prime = kBaseDegree - 1;
  const std::uint64_t metagraph_node = node * m_prime;
  const std::uint64_t n_buckets = ceil_log2(metagraph_node);
  const bool legacy = api_version_ == ApiVersion::V1_0_0;
  const std::size_t first_sampled = legacy ? 0 : 1;
  for (std::size_t k = 0; k < m_prime; ++k) {
    const std::uint64_t bucket_index = rng.next_u64() % n_buckets + 1;
    const std::uint64_t largest_distance = std::min(metagraph_node, std::uint64_t(1) << bucket_index);
    const std::uint64_t smallest_distance = std::max<std::uint64_t>(2, largest_distance >> 1);
    const std::uint64_t n_distances = largest_distance - smallest_distance + 1;  // inclusive
    const std::uint64_t distance = smallest_distance + rng.next_u64() % n_distances;
    const auto mapped = std::uint32_t((metagraph_node - distance) / m_prime);
    parents[first_sampled + k] = mapped == node ? std::uint32_t(node - 1) : mapped;
  }
  // The immediate predecessor: first from V1_1_0 on (hashing cannot begin early), last in V1_0_0.
  parents[legacy ? m_prime : 0] = std::uint32_t(node - 1);
  return parents;
}

std::array<std::uint32_t, kExpDegree> SdrGraph::expander_parents(std::uint64_t node) const {
  check_node(node);
  std::array<std::uint32_t, kExpDegree> parents;
  const std::uint64_t num_elements = nodes_ * kExpDegree;
  for (std::size_t i = 0; i < kExpDegree; ++i) {
    const std::uint64_t transformed =
        feistel_permute(num_elements, node * kExpDegree + i, feistel_keys_, feistel_params_);
    // V1_0_0 truncated the permuted index to u32 before dividing: that graph never reaches the upper
    // parts of sectors above 2^29 nodes. The fixed versions divide in 64 bits.
    parents[i] = api_version_ == ApiVersion::V1_0_0 ? std::uint32_t(transformed) / kExpDegree
                                                    : std::uint32_t(transformed / kExpDegree);
  }
  return parents;
}

std::array<std::uint32_t, kDegree> SdrGraph::parents(std::uint64_t node) const {
  std::array<std::uint32_t, kDegree> all;
  const auto base = base_parents(node);
  const auto exp = expander_parents(node);
  std::copy(base.begin(), base.end(), all.begin());
  std::copy(exp.begin(), exp.end(), all.begin() + kBaseDegree);
  return all;
}

}  // namespace cuzk::filecoin
