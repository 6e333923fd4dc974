#include "filecoin/post_test_data.hpp"

#include <array>
#include <random>

#include "ff/encoding.hpp"
#include "filecoin/porep_vanilla_verify.hpp"
#include "filecoin/poseidon.hpp"
#include "filecoin/sparse_merkle.hpp"

namespace cuzk::filecoin {

namespace {

// A deterministic element for (seed, sector, tag, a, b).
Fr element(std::uint64_t seed, unsigned sector, std::uint64_t tag, std::uint64_t a, std::uint64_t b = 0) {
  std::seed_seq seq{seed, std::uint64_t{sector}, tag, a, b};
  std::mt19937_64 rng(seq);
  return ff::random_element<Fr>(rng);
}

}  // namespace

std::vector<std::uint64_t> test_post_challenges(const PostParams& params, unsigned sector,
                                                std::uint64_t seed) {
  std::seed_seq seq{seed, std::uint64_t{sector}, std::uint64_t{0xc4a1}};
  std::mt19937_64 rng(seq);
  std::vector<std::uint64_t> out(params.challenges);
  for (auto& c : out) c = rng() % params.nodes;
  return out;
}

namespace {

// Sector `s`'s proof at the given challenged leaves.
PostSectorProof make_sector(const PostParams& params, std::uint64_t seed, unsigned s,
                            const std::vector<std::uint64_t>& challenges) {
  PostSectorProof p;
  SparseMerkleTree tree(
      tree_arities(params.tree), tree_poseidon_hash,
      [seed, s](unsigned level, std::uint64_t position) { return element(seed, s, 1, level, position); });
  for (std::uint64_t c : challenges) tree.set_leaf(c, element(seed, s, 2, c));
  tree.build();
  for (std::uint64_t c : challenges) {
    p.leafs.push_back(element(seed, s, 2, c));
    p.paths.push_back(tree.path(c));
  }
  p.comm_r_last = tree.root();
  p.comm_c = element(seed, s, 3, 0);
  const std::array<Fr, 2> preimage{p.comm_c, p.comm_r_last};
  p.comm_r = poseidon_hash(preimage);
  return p;
}

}  // namespace

std::vector<PostSectorProof> make_test_post_sectors(const PostParams& params, std::uint64_t seed) {
  std::vector<PostSectorProof> sectors;
  for (unsigned s = 0; s < params.sectors; ++s)
    sectors.push_back(make_sector(params, seed, s, test_post_challenges(params, s, seed)));
  return sectors;
}

PostVanillaProof make_test_post_vanilla_proof(const PostParams& params,
                                              const std::array<std::uint8_t, 32>& randomness,
                                              std::uint64_t sector_id, std::uint64_t seed,
                                              std::uint64_t first_challenge) {
  PostVanillaProof v;
  v.sector_id = sector_id;
  const auto challenges =
      post_challenges(randomness, sector_id, params.nodes, params.challenges, first_challenge);
  v.sectors.push_back(make_sector(params, seed, static_cast<unsigned>(sector_id), challenges));
  v.comm_r = v.sectors[0].comm_r;
  v.challenged_leaves.push_back(challenges);
  return v;
}

}  // namespace cuzk::filecoin
