// TEST-ONLY: consistent PoRep vanilla data for one partition, or every partition of one sector, at any
// production sector size, without a sector. Everything is derived from a 64-bit seed:
//   - replica_id (254 bits), the interactive randomness, and the partition's interactive challenges;
//   - labels: a challenged node's label in every layer is computed from its parents' labels with the real
//     SDR graph (sdr_labels.hpp); every other node's label is random. So the parents' columns are random
//     except where a parent is itself challenged, and then they agree with its computed labels;
//   - a challenged node's data leaf is random (254 bits);
//   - trees D, C and R_last are sparse (sparse_merkle.hpp): only the challenged paths (and in tree C the
//     parents' columns) are materialised, every untouched subtree's root is random.
// The result passes verify_porep_vanilla, so the partition circuit synthesized from it is satisfied. A few
// thousand hashes per partition (~0.2 s at 32/64 GiB in Release).
#pragma once

#include <cstdint>
#include <vector>

#include "filecoin/challenges.hpp"
#include "filecoin/porep_params.hpp"
#include "filecoin/porep_vanilla.hpp"
#include "filecoin/registered_proof.hpp"
#include "filecoin/sdr_graph.hpp"

namespace cuzk::filecoin {

struct PorepTestPartition {
  PorepPartitionProof proof;
  // porep_id_for(registered_seal_proof_v1_1(params)); the graph is porep_graph(params, porep_id).
  PorepId porep_id{};
  Bytes32 interactive_seed{};  // the randomness the challenges were drawn with
  unsigned partition = 0;
  std::vector<std::uint64_t> challenges;  // interactive_challenges(..., challenges_per_partition, partition)
  std::vector<Fr> public_inputs;          // porep_public_inputs(graph, proof): 3 + 18 · challenges
};

// Deterministic for (params, seed, partition_k). Throws std::invalid_argument for partition_k ≥
// params.partitions. The trees hold this partition's challenges only: partitions of one seed made this way
// have different comm_c, comm_r_last and comm_r (make_test_porep_sector shares them).
PorepTestPartition make_test_porep_partition(const PorepParams& params, std::uint64_t seed,
                                             unsigned partition_k = 0);

// A whole sector's C1 data: every partition of one sector, as StackedDrg<size>V1_1 proves it (interactive
// challenges, params.partitions partitions). ONE set of trees D, C and R_last holds all partitions'
// challenged leaves and their parents' columns, so every partition has the same replica_id, comm_d, comm_c,
// comm_r_last and comm_r; each partition proves its own interactive challenges of the one seed. Each
// partitions[k] passes verify_porep_vanilla (its challenges and public inputs as in PorepTestPartition).
// The parents of a challenge are porep_graph(params, porep_id).parents(challenge). About the cost of one
// make_test_porep_partition per partition (~2 s for 10 × 18 challenges at 32 GiB in Release).
struct PorepTestSector {
  const RegisteredSealProof* proof = nullptr;  // the proof type it is sealed and challenged as
  PorepId porep_id{};                          // proof->porep_id
  ReplicaId replica_id{};
  Bytes32 interactive_seed{};  // the C1 output's "seed"
  Bytes32 ticket{};            // 32 random bytes: the C1 output's "ticket" (C2 does not use it)
  std::vector<PorepTestPartition> partitions;  // partitions[k].partition == k
};

PorepTestSector make_test_porep_sector(const PorepParams& params, std::uint64_t seed);

// The same as `proof` seals and challenges a sector: its porep_id and graph, its partitions, its challenges
// (interactive from the seed; synthetic: the seed's selection of the synthetic challenges of replica_id and
// comm_r; non-interactive: from comm_r). Challenges that follow from comm_r are known only once the trees
// are, so for those every node of the sector is generated, as when a sector is sealed: sectors of at most
// kMaxDenseTestNodes nodes (2 KiB, 8 MiB), std::invalid_argument for larger ones.
inline constexpr std::uint64_t kMaxDenseTestNodes = std::uint64_t(1) << 18;
PorepTestSector make_test_porep_sector(const RegisteredSealProof& proof, std::uint64_t seed);

}  // namespace cuzk::filecoin
