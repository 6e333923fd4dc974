// PoRep challenge derivation (storage-proofs-porep stacked/vanilla/challenges.rs): the challenged node
// indices of partition k, in the three forms the proof configurations select (interactive for plain
// PoRep, synthetic for the SyntheticPoRep feature, non-interactive for NonInteractivePoRep).
// Every challenge is 1 + (a 256-bit little-endian integer mod (sector_nodes - 1)): node 0 is never
// challenged.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "filecoin/sdr_labels.hpp"

namespace cuzk::filecoin {

using Bytes32 = std::array<std::uint8_t, 32>;

// 1 + (le as an unsigned little-endian integer) mod (sector_nodes - 1). Throws for sector_nodes < 2.
std::uint64_t challenge_from_le_bytes(std::span<const std::uint8_t> le, std::uint64_t sector_nodes);

// Interactive: challenge i of partition k hashes SHA-256(replica_id || seed || j as u32 LE) with
// j = challenges_per_partition * k + i (seed: the interactive randomness from the chain).
std::vector<std::uint64_t> interactive_challenges(std::uint64_t sector_nodes, const ReplicaId& replica_id,
                                                  const Bytes32& seed, std::size_t challenges_per_partition,
                                                  std::uint8_t k);

// Non-interactive: SHA-256("filecoin.io|PoRep|1|NonInteractive|1" || replica_id || comm_r || j as u32 LE),
// j as above.
std::vector<std::uint64_t> non_interactive_challenges(std::uint64_t sector_nodes, const ReplicaId& replica_id,
                                                      const Bytes32& comm_r,
                                                      std::size_t challenges_per_partition, std::uint8_t k);

// Synthetic PoRep: a fixed set of min(sector_nodes, 2^18) synthetic challenges drawn from a ChaCha20
// keystream (32 bytes each), of which the porep challenges of partition k are a selection.
class SynthChallenges {
 public:
  static constexpr std::size_t kDefaultCount = std::size_t(1) << 18;

  // num_synth_challenges = 0 picks the default min(sector_nodes, 2^18).
  SynthChallenges(std::uint64_t sector_nodes, const ReplicaId& replica_id, const Bytes32& comm_r,
                  std::size_t num_synth_challenges = 0);

  std::size_t count() const { return count_; }
  // Synthetic challenge i: keystream bytes [32 i, 32 i + 32) of ChaCha20(key = BLAKE2b-256 keyed with
  // "filecoin.io|PoRep|1|Synthetic|1|Generation" over replica_id || comm_r, nonce "synth-porep\0").
  std::uint64_t challenge(std::size_t i) const;
  std::vector<std::uint64_t> all() const;

  // Which synthetic challenges partition k proves: index c = k * challenges_per_partition + i reads
  // keystream bytes [4 c, 4 c + 4) of ChaCha20(key = BLAKE2b-256 keyed with
  // "filecoin.io|PoRep|1|Synthetic|1|Selection" over replica_id || rand, same nonce), as u32 LE,
  // mod count(). rand is the interactive randomness.
  std::vector<std::size_t> partition_indexes(std::size_t challenges_per_partition, const Bytes32& rand,
                                             std::size_t k) const;
  // challenge(index) for each of partition_indexes.
  std::vector<std::uint64_t> partition_challenges(std::size_t challenges_per_partition, const Bytes32& rand,
                                                  std::size_t k) const;

 private:
  std::uint64_t sector_nodes_;
  ReplicaId replica_id_;
  Bytes32 generation_key_;
  std::size_t count_;
};

}  // namespace cuzk::filecoin
