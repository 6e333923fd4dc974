// TEST-ONLY PoSt sector proofs that satisfy the fallback PoSt circuit (post_circuit.hpp): per sector a sparse
// tree R holding its challenged leaves (random values, random filler elsewhere: sparse_merkle.hpp),
// comm_r_last its root, comm_c random and comm_r = Poseidon2(comm_c, comm_r_last). The challenged leaves are
// drawn from the seed, not derived from randomness as Filecoin's are (the vanilla-proof reader checks those).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "filecoin/post_circuit.hpp"
#include "filecoin/post_vanilla.hpp"

namespace cuzk::filecoin {

// The challenged leaf indices of sector `sector` (params.challenges of them, below params.nodes).
std::vector<std::uint64_t> test_post_challenges(const PostParams& params, unsigned sector,
                                                std::uint64_t seed);

// params.sectors sector proofs.
std::vector<PostSectorProof> make_test_post_sectors(const PostParams& params, std::uint64_t seed);

// One sector's vanilla proof as Curio sends it, challenged where `randomness` says (post_challenges), with
// params.challenges challenges numbered from `first_challenge` (post_challenge_index).
PostVanillaProof make_test_post_vanilla_proof(const PostParams& params,
                                              const std::array<std::uint8_t, 32>& randomness,
                                              std::uint64_t sector_id, std::uint64_t seed,
                                              std::uint64_t first_challenge = 0);

}  // namespace cuzk::filecoin
