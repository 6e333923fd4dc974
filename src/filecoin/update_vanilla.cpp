#include "filecoin/update_vanilla.hpp"

#include <array>

#include "filecoin/porep_vanilla_verify.hpp"
#include "filecoin/poseidon.hpp"

namespace cuzk::filecoin {

namespace {

using Reader = bincode::Reader<UpdateVanillaError>;

// The node `levels` levels up from `leaf` along `path` (its first `levels` levels).
Fr walk(const Fr& leaf, const MerklePath& path, std::size_t levels, Fr (*hash)(std::span<const Fr>)) {
  Fr cur = leaf;
  for (std::size_t l = 0; l < levels; ++l) {
    std::vector<Fr> children(path.levels[l].siblings);
    children.insert(children.begin() + path.levels[l].index, cur);
    cur = hash(children);
  }
  return cur;
}

Fr poseidon2(const Fr& a, const Fr& b) {
  const std::array<Fr, 2> preimage{a, b};
  return poseidon_hash(preimage);
}

}  // namespace

UpdateVanillaProof decode_update_vanilla_proof(std::span<const std::uint8_t> bytes,
                                               const UpdateParams& params, const std::string& what) {
  Reader r(bytes, what);
  UpdateVanillaProof out;
  out.comm_c = r.domain("comm_c");
  const std::size_t apex_at = r.pos();
  const std::uint64_t apex = r.count("apex_leafs", 32, 1u << 16);
  if (apex != params.apex_leaves)
    r.fail(std::to_string(apex) + " apex leaves, a " + params.name + " partition has " +
               std::to_string(params.apex_leaves),
           apex_at);
  for (std::uint64_t i = 0; i < apex; ++i) out.apex_leafs.push_back(r.domain("apex leaf"));
  const std::size_t challenges_at = r.pos();
  const std::uint64_t challenges = r.count("challenge_proofs", 3 * (4 + 64), 1u << 16);
  if (challenges != params.challenges)
    r.fail(std::to_string(challenges) + " challenge proofs, a " + params.name + " partition has " +
               std::to_string(params.challenges),
           challenges_at);
  const TreeShape tree_d = update_tree_d_shape(params);
  for (std::uint64_t i = 0; i < challenges; ++i) {
    UpdateVanillaChallenge c;
    c.r_old = bincode::read_merkle_proof(r, params.tree, "tree R old");
    c.d_new = bincode::read_merkle_proof(r, tree_d, "tree D new");
    c.r_new = bincode::read_merkle_proof(r, params.tree, "tree R new");
    out.challenges.push_back(std::move(c));
  }
  r.end();
  return out;
}

std::vector<std::uint8_t> encode_update_vanilla_proof(const UpdateVanillaProof& proof,
                                                      const UpdateParams& params) {
  bincode::Writer w;
  w.domain(proof.comm_c);
  w.u64(proof.apex_leafs.size());
  for (const Fr& leaf : proof.apex_leafs) w.domain(leaf);
  w.u64(proof.challenges.size());
  const TreeShape tree_d = update_tree_d_shape(params);
  for (const UpdateVanillaChallenge& c : proof.challenges) {
    bincode::write_merkle_proof(w, params.tree, c.r_old.root, c.r_old.leaf, c.r_old.path);
    bincode::write_merkle_proof(w, tree_d, c.d_new.root, c.d_new.leaf, c.d_new.path);
    bincode::write_merkle_proof(w, params.tree, c.r_new.root, c.r_new.leaf, c.r_new.path);
  }
  return std::move(w.out);
}

std::vector<std::uint64_t> update_challenges(const UpdateParams& params, const Fr& comm_r_new,
                                             std::uint64_t k) {
  if (k >= params.partitions)
    throw std::invalid_argument("SnapDeals " + params.name + ": partition " + std::to_string(k) + " of " +
                                std::to_string(params.partitions));
  const unsigned bits = params.random_bits(), per_digest = params.challenges_per_digest();
  std::vector<std::uint64_t> out;
  for (unsigned j = 0; out.size() < params.challenges; ++j) {
    const std::array<Fr, 2> preimage{comm_r_new, Fr::from_u64(k * params.digests() + j)};
    const ff::BigInt<4> digest = poseidon_hash(update_randomness_constants(), preimage).to_int();
    for (unsigned i = 0; i < per_digest && out.size() < params.challenges; ++i) {
      std::uint64_t c = 0;
      for (unsigned b = 0; b < bits; ++b) {
        const unsigned at = i * bits + b;
        c |= ((digest.v[at / 64] >> (at % 64)) & 1) << b;
      }
      out.push_back(c | k << bits);
    }
  }
  return out;
}

Fr update_phi(const Fr& comm_d_new, const Fr& comm_r_old) {
  const std::array<Fr, 2> preimage{comm_d_new, comm_r_old};
  return poseidon_hash(update_randomness_constants(), preimage);
}

Fr update_rho(const Fr& phi, std::uint64_t high) {
  const std::array<Fr, 2> preimage{phi, Fr::from_u64(high)};
  return poseidon_hash(update_randomness_constants(), preimage);
}

UpdatePartitionProof update_circuit_proof(const UpdateParams& params, std::uint64_t k, unsigned h,
                                          const UpdateCommitments& commitments,
                                          const UpdateVanillaProof& proof, const std::string& what) {
  const std::string at = what + " (partition " + std::to_string(k) + ")";
  auto fail = [&](const std::string& msg) -> void { throw UpdateVanillaError(at + ": " + msg); };
  try {
    update_k_and_h_select(params, k, h);
  } catch (const std::invalid_argument& e) {
    throw UpdateVanillaError(at + ": " + e.what());
  }
  if (proof.apex_leafs.size() != params.apex_leaves || proof.challenges.size() != params.challenges)
    fail("the apex leaf or challenge count is not the circuit's");
  UpdatePartitionProof out;
  out.k = k;
  out.h = h;
  out.comm_r_old = commitments.comm_r_old;
  out.comm_d_new = commitments.comm_d_new;
  out.comm_r_new = commitments.comm_r_new;
  out.comm_c = proof.comm_c;
  out.root_r_old = proof.challenges[0].r_old.root;
  out.root_r_new = proof.challenges[0].r_new.root;
  out.apex_leafs = proof.apex_leafs;
  if (poseidon2(out.comm_c, out.root_r_old) != out.comm_r_old)
    fail(
        "comm_r_old is not Poseidon(comm_c, the old replica's root): a proof of another sector or sector "
        "key");
  if (poseidon2(out.comm_c, out.root_r_new) != out.comm_r_new)
    fail("comm_r_new is not Poseidon(comm_c, the new replica's root): a proof of another update");

  const std::vector<std::uint64_t> challenges = update_challenges(params, out.comm_r_new, k);
  const Fr phi = update_phi(out.comm_d_new, out.comm_r_old);
  const std::vector<unsigned> tree_r = tree_arities(params.tree);
  const std::vector<unsigned> tree_d(params.challenge_bits, 2);
  const unsigned to_apex = params.challenge_bits - params.partition_bits - params.apex_bits;
  const unsigned high_shift = params.challenge_bits - h;
  for (std::size_t i = 0; i < challenges.size(); ++i) {
    const UpdateVanillaChallenge& c = proof.challenges[i];
    const std::uint64_t node = challenges[i];
    const std::string where =
        at + ", challenge " + std::to_string(i) + " (node " + std::to_string(node) + ")";
    try {
      if (c.r_old.root != out.root_r_old || c.r_new.root != out.root_r_new || c.d_new.root != out.comm_d_new)
        throw UpdateVanillaError(where + ": a Merkle proof's root is not the partition's");
      if (merkle_path_root(c.r_old.leaf, c.r_old.path, tree_r, tree_poseidon_hash, node,
                           where + ", tree R old") != out.root_r_old ||
          merkle_path_root(c.r_new.leaf, c.r_new.path, tree_r, tree_poseidon_hash, node,
                           where + ", tree R new") != out.root_r_new ||
          merkle_path_root(c.d_new.leaf, c.d_new.path, tree_d, tree_d_hash, node, where + ", tree D new") !=
              out.comm_d_new)
        throw UpdateVanillaError(where + ": a path does not lead from its leaf to its root");
    } catch (const UpdateVanillaError&) {
      throw;
    } catch (const std::runtime_error& e) {
      throw UpdateVanillaError(std::string(e.what()) + " (not the node comm_r_new challenges)");
    }
    if (c.r_new.leaf != c.r_old.leaf + c.d_new.leaf * update_rho(phi, node >> high_shift))
      throw UpdateVanillaError(
          where + ": the new replica's node is not old + data · rho (h = " + std::to_string(h) + ")");
    const Fr apex = walk(c.d_new.leaf, c.d_new.path, to_apex, tree_d_hash);
    if (apex != proof.apex_leafs[(node >> to_apex) & (params.apex_leaves - 1)])
      throw UpdateVanillaError(where + ": its tree D path does not pass through the apex leaf it selects");
    for (unsigned l = params.challenge_bits - params.partition_bits; l < params.challenge_bits; ++l)
      if (c.d_new.path.levels[l].siblings != proof.challenges[0].d_new.path.levels[l].siblings)
        throw UpdateVanillaError(where + ": its tree D path leaves the partition's");
    out.challenges.push_back(
        {c.r_old.leaf, c.d_new.leaf, c.r_new.leaf, c.r_old.path, c.d_new.path, c.r_new.path});
  }
  // The apex tree's root, up the partition path, is comm_d_new.
  std::vector<Fr> row = proof.apex_leafs;
  while (row.size() > 1) {
    std::vector<Fr> next;
    for (std::size_t i = 0; i + 1 < row.size(); i += 2) {
      const std::array<Fr, 2> children{row[i], row[i + 1]};
      next.push_back(tree_d_hash(children));
    }
    row = std::move(next);
  }
  const MerklePath& first = proof.challenges[0].d_new.path;
  Fr cur = row[0];
  for (unsigned l = params.challenge_bits - params.partition_bits; l < params.challenge_bits; ++l) {
    std::vector<Fr> children(first.levels[l].siblings);
    children.insert(children.begin() + first.levels[l].index, cur);
    cur = tree_d_hash(children);
  }
  if (cur != out.comm_d_new)
    fail("the apex leaves are not partition " + std::to_string(k) + "'s nodes of tree D");
  return out;
}

std::vector<Fr> update_public_inputs(const UpdateParams& params, std::uint64_t k, unsigned h,
                                     const UpdateCommitments& commitments) {
  return {Fr::from_u64(update_k_and_h_select(params, k, h)), commitments.comm_r_old, commitments.comm_d_new,
          commitments.comm_r_new};
}

}  // namespace cuzk::filecoin
