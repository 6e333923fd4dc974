// TEST-ONLY SnapDeals sector updates whose vanilla proofs satisfy the circuit, built as filecoin-proofs
// builds real ones but from generated data: an old replica (the sector key, its tree R and a random comm_c
// giving comm_r_old), new data (tree D, comm_d_new), phi, the new replica node by node as old + data · rho
// (its tree R, comm_r_new), and for each partition the nodes comm_r_new challenges with their three paths
// and the partition's apex leaves.
//
// Up to 16 MiB every leaf is random. Larger sectors are generated in blocks (block_merkle.hpp): the old
// replica and the data are constant over aligned blocks of 2^(challenge_bits − h) nodes (1,024 blocks, one
// rho each), which keeps the whole trees — that the challenges depend on — cheap at 32 GiB.
#pragma once

#include <cstdint>
#include <vector>

#include "filecoin/update_vanilla.hpp"

namespace cuzk::filecoin {

struct UpdateTestSector {
  UpdateCommitments commitments;
  unsigned h = 0;
  std::vector<UpdateVanillaProof> partitions;  // the requested ones, in order
};

// The sector's vanilla proofs for `partitions` (empty: all of them, 0 … params.partitions − 1).
UpdateTestSector make_test_update_sector(const UpdateParams& params, std::uint64_t seed,
                                         std::vector<std::uint64_t> partitions = {}, unsigned h = 0);

}  // namespace cuzk::filecoin
