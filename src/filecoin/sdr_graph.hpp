// The SDR (StackedDRG) parent graph exactly as rust-fil-proofs defines it: BucketGraph's 6 DRG parents
// (storage-proofs-core drgraph.rs) and StackedGraph's 8 Feistel expander parents
// (storage-proofs-porep stacked/vanilla/graph.rs), seeded from the porep_id.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

#include "filecoin/feistel.hpp"

namespace cuzk::filecoin {

inline constexpr std::size_t kBaseDegree = 6;  // DRG parents, from the same layer
inline constexpr std::size_t kExpDegree = 8;   // expander parents, from the previous layer
inline constexpr std::size_t kDegree = kBaseDegree + kExpDegree;

// V1_0_0 is the legacy graph (registered proofs 0..4); V1_1_0 and V1_2_0 give the same graph.
enum class ApiVersion { V1_0_0, V1_1_0, V1_2_0 };

using PorepId = std::array<std::uint8_t, 32>;

// filecoin-proofs-api's porep_id: the registered seal proof id as u64 LE in bytes 0..7, the nonce (0 for
// every proof so far) as u64 LE in bytes 8..15, zeros after.
PorepId porep_id_for(std::uint64_t registered_proof_id, std::uint64_t nonce = 0);

inline constexpr std::string_view kDrsampleDst = "Filecoin_DRSample";
inline constexpr std::string_view kFeistelDst = "Filecoin_Feistel";

// SHA-256(dst's ASCII bytes || porep_id).
std::array<std::uint8_t, 32> derive_porep_domain_seed(std::string_view dst, const PorepId& porep_id);
// The first 28 bytes of the DRSample domain seed.
std::array<std::uint8_t, 28> derive_drg_seed(const PorepId& porep_id);
// The Feistel domain seed read as four u64 LE (bytes 0..7, 8..15, 16..23, 24..31).
FeistelKeys derive_feistel_keys(const PorepId& porep_id);

class SdrGraph {
 public:
  // nodes = sector bytes / 32, at most 2^32 - 1. Throws std::invalid_argument.
  SdrGraph(std::uint64_t nodes, const PorepId& porep_id, ApiVersion api_version);

  std::uint64_t nodes() const { return nodes_; }
  ApiVersion api_version() const { return api_version_; }
  const std::array<std::uint8_t, 28>& drg_seed() const { return drg_seed_; }
  const FeistelKeys& feistel_keys() const { return feistel_keys_; }

  // The 6 DRG parents. Nodes 0 and 1: all 0. Otherwise (V1_1_0 / V1_2_0) parent 0 is node - 1 and
  // parents 1..5 are bucket-sampled; V1_0_0 samples parents 0..4 and puts node - 1 last.
  std::array<std::uint32_t, kBaseDegree> base_parents(std::uint64_t node) const;
  // The 8 expander parents: parent i = feistel_permute(8 * nodes, 8 * node + i) / 8 (every node,
  // node 0 included).
  std::array<std::uint32_t, kExpDegree> expander_parents(std::uint64_t node) const;
  // base_parents then expander_parents: the order labels hash them in.
  std::array<std::uint32_t, kDegree> parents(std::uint64_t node) const;

 private:
  void check_node(std::uint64_t node) const;

  std::uint64_t nodes_;
  ApiVersion api_version_;
  std::array<std::uint8_t, 28> drg_seed_;
  FeistelKeys feistel_keys_;
  FeistelParams feistel_params_;
};

}  // namespace cuzk::filecoin
