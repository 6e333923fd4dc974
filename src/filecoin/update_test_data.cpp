#include "filecoin/update_test_data.hpp"

#include <array>
#include <random>

#include "ff/encoding.hpp"
#include "filecoin/block_merkle.hpp"
#include "filecoin/porep_vanilla_verify.hpp"
#include "filecoin/poseidon.hpp"

namespace cuzk::filecoin {

namespace {

// A deterministic element for (seed, tag, a).
Fr element(std::uint64_t seed, std::uint64_t tag, std::uint64_t a) {
  std::seed_seq seq{seed, tag, a};
  std::mt19937_64 rng(seq);
  return ff::random_element<Fr>(rng);
}

// Data nodes are Fr32: 254 bits.
Fr data_element(std::uint64_t seed, std::uint64_t a) {
  std::array<std::uint8_t, 32> bytes = fr_to_repr(element(seed, 2, a));
  bytes[31] &= 0x3f;
  return fr_from_repr(bytes);
}

constexpr unsigned kFullRandomBits = 19;  // 16 MiB: every leaf its own

}  // namespace

UpdateTestSector make_test_update_sector(const UpdateParams& params, std::uint64_t seed,
                                         std::vector<std::uint64_t> partitions, unsigned h) {
  UpdateTestSector out;
  out.h = h ? h : params.h_default;
  update_h_select(params, out.h);  // throws for an h the size does not allow
  if (partitions.empty())
    for (std::uint64_t k = 0; k < params.partitions; ++k) partitions.push_back(k);
  const unsigned high_shift = params.challenge_bits - out.h;
  const unsigned block_bits = params.challenge_bits <= kFullRandomBits ? 0 : high_shift;

  const std::vector<unsigned> tree_r = tree_arities(params.tree);
  const std::vector<unsigned> tree_d(params.challenge_bits, 2);
  const BlockMerkleTree old_replica(tree_r, tree_poseidon_hash, block_bits,
                                    [&](std::uint64_t b) { return element(seed, 1, b); });
  const BlockMerkleTree data(tree_d, tree_d_hash, block_bits,
                             [&](std::uint64_t b) { return data_element(seed, b); });
  const Fr comm_c = element(seed, 3, 0);
  const std::array<Fr, 2> old_preimage{comm_c, old_replica.root()};
  out.commitments.comm_r_old = poseidon_hash(old_preimage);
  out.commitments.comm_d_new = data.root();
  const Fr phi = update_phi(out.commitments.comm_d_new, out.commitments.comm_r_old);
  // Every leaf of a block shares its high bits, so its rho: the new replica is constant over blocks too.
  const BlockMerkleTree new_replica(tree_r, tree_poseidon_hash, block_bits, [&](std::uint64_t b) {
    const std::uint64_t node = b << block_bits;
    return old_replica.node(0, node) + data.node(0, node) * update_rho(phi, node >> high_shift);
  });
  const std::array<Fr, 2> new_preimage{comm_c, new_replica.root()};
  out.commitments.comm_r_new = poseidon_hash(new_preimage);

  const unsigned apex_level = params.challenge_bits - params.partition_bits - params.apex_bits;
  for (std::uint64_t k : partitions) {
    UpdateVanillaProof p;
    p.comm_c = comm_c;
    for (unsigned i = 0; i < params.apex_leaves; ++i)
      p.apex_leafs.push_back(data.node(apex_level, k * params.apex_leaves + i));
    for (std::uint64_t node : update_challenges(params, out.commitments.comm_r_new, k)) {
      UpdateVanillaChallenge c;
      c.r_old = {old_replica.root(), old_replica.node(0, node), old_replica.path(node)};
      c.d_new = {data.root(), data.node(0, node), data.path(node)};
      c.r_new = {new_replica.root(), new_replica.node(0, node), new_replica.path(node)};
      p.challenges.push_back(std::move(c));
    }
    out.partitions.push_back(std::move(p));
  }
  return out;
}

}  // namespace cuzk::filecoin
