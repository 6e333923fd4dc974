#include "filecoin/post_vanilla.hpp"

#include <cstring>

#include "filecoin/bincode.hpp"
#include "filecoin/porep_vanilla_verify.hpp"
#include "filecoin/poseidon.hpp"
#include "filecoin/registered_post_proof.hpp"
#include "filecoin/sha256.hpp"

namespace cuzk::filecoin {

namespace {

using Reader = bincode::Reader<PostVanillaError>;
using bincode::Writer;

// Root of a path from its leaf (the circuit's computation, outside it).
Fr root_of(const Fr& leaf, const MerklePath& path) {
  Fr cur = leaf;
  for (std::size_t l = 0; l < path.levels.size(); ++l) {
    std::vector<Fr> children(path.levels[l].siblings);
    children.insert(children.begin() + path.levels[l].index, cur);
    cur = tree_poseidon_hash(children);
  }
  return cur;
}

}  // namespace

PostVanillaProof decode_post_vanilla_proof(std::span<const std::uint8_t> bytes, const PostParams& params,
                                           const std::string& what) {
  Reader r(bytes, what);
  PostVanillaProof out;
  out.sector_id = r.u64("sector_id");
  out.comm_r = r.domain("comm_r");
  const TreeShape& t = params.tree;
  const std::uint64_t sectors = r.count("sectors", 8 + 64, 1u << 16);
  if (sectors == 0) r.fail("no sector proofs", r.pos());
  for (std::uint64_t s = 0; s < sectors; ++s) {
    PostSectorProof sp;
    std::vector<std::uint64_t> leaves;
    const std::uint64_t proofs = r.count("inclusion_proofs", 4 + 64, 1u << 20);
    std::vector<Fr> roots;
    const auto arities = tree_arities(t);
    for (std::uint64_t i = 0; i < proofs; ++i) {
      bincode::MerkleProofValues p = bincode::read_merkle_proof(r, t, "a " + params.name + " sector's tree");
      roots.push_back(p.root);
      sp.leafs.push_back(p.leaf);
      leaves.push_back(bincode::path_leaf_index(arities, p.path));
      sp.paths.push_back(std::move(p.path));
    }
    sp.comm_c = r.domain("comm_c");
    sp.comm_r_last = r.domain("comm_r_last");
    sp.comm_r = out.comm_r;
    for (std::size_t i = 0; i < roots.size(); ++i) {
      if (roots[i] != sp.comm_r_last)
        throw PostVanillaError(what + ": sector proof " + std::to_string(s) + ", inclusion proof " +
                               std::to_string(i) + ": its root is not comm_r_last");
      if (root_of(sp.leafs[i], sp.paths[i]) != sp.comm_r_last)
        throw PostVanillaError(what + ": sector proof " + std::to_string(s) + ", inclusion proof " +
                               std::to_string(i) + ": the path does not lead from its leaf to comm_r_last");
    }
    const std::array<Fr, 2> preimage{sp.comm_c, sp.comm_r_last};
    if (poseidon_hash(preimage) != sp.comm_r)
      throw PostVanillaError(what + ": sector proof " + std::to_string(s) +
                             ": comm_r is not Poseidon(comm_c, comm_r_last)");
    out.sectors.push_back(std::move(sp));
    out.challenged_leaves.push_back(std::move(leaves));
  }
  r.end();
  return out;
}

std::vector<std::uint8_t> encode_post_vanilla_proof(const PostVanillaProof& proof, const PostParams& params) {
  const TreeShape& t = params.tree;
  Writer w;
  w.u64(proof.sector_id);
  w.domain(proof.comm_r);
  w.u64(proof.sectors.size());
  for (const PostSectorProof& s : proof.sectors) {
    w.u64(s.paths.size());
    for (std::size_t i = 0; i < s.paths.size(); ++i)
      bincode::write_merkle_proof(w, t, s.comm_r_last, s.leafs[i], s.paths[i]);
    w.domain(s.comm_c);
    w.domain(s.comm_r_last);
  }
  return std::move(w.out);
}

std::vector<PostSectorProof> post_circuit_sectors(const PostParams& params,
                                                  std::span<const PostVanillaProof> proofs,
                                                  const std::array<std::uint8_t, 32>& randomness,
                                                  ApiVersion version, std::uint64_t partition) {
  const char* kind = params.kind == PostKind::kWindow ? "WindowPoSt" : "WinningPoSt";
  if (proofs.empty()) throw PostVanillaError(std::string(kind) + ": no vanilla proofs");
  // Per sector, its challenges as the chain's randomness gives them.
  const unsigned per_sector = params.kind == PostKind::kWindow ? params.challenges : params.sectors;
  std::uint64_t sector_in_partition = 0;
  for (std::size_t i = 0; i < proofs.size(); ++i)
    for (std::size_t s = 0; s < proofs[i].sectors.size(); ++s, ++sector_in_partition) {
      const auto expected =
          post_challenges(randomness, proofs[i].sector_id, params.nodes, per_sector,
                          post_challenge_index(version, params, partition, sector_in_partition, 0));
      if (proofs[i].challenged_leaves[s] != expected)
        throw PostVanillaError(std::string(kind) + ": vanilla proof " + std::to_string(i) + " (sector " +
                               std::to_string(proofs[i].sector_id) +
                               "): its leaves are not the ones the randomness challenges (" +
                               std::to_string(proofs[i].challenged_leaves[s].size()) + " of " +
                               std::to_string(per_sector) + " expected)");
    }
  std::vector<PostSectorProof> out;
  if (params.kind == PostKind::kWinning) {
    if (proofs.size() != 1 || proofs[0].sectors.size() != 1)
      throw PostVanillaError("WinningPoSt: one vanilla proof of one sector, not " +
                             std::to_string(proofs.size()));
    const PostSectorProof& one = proofs[0].sectors[0];
    for (std::size_t c = 0; c < one.leafs.size(); ++c)
      out.push_back({one.comm_r, one.comm_c, one.comm_r_last, {one.leafs[c]}, {one.paths[c]}});
    return out;
  }
  for (const PostVanillaProof& p : proofs) out.insert(out.end(), p.sectors.begin(), p.sectors.end());
  if (out.size() > params.sectors)
    throw PostVanillaError("WindowPoSt: " + std::to_string(out.size()) + " sector proofs, a " + params.name +
                           " partition holds " + std::to_string(params.sectors));
  while (out.size() < params.sectors) out.push_back(out.back());
  return out;
}

std::vector<Fr> post_public_inputs(const PostParams& params, std::span<const PostVanillaProof> proofs,
                                   const std::array<std::uint8_t, 32>& randomness, ApiVersion version,
                                   std::uint64_t partition) {
  std::vector<Fr> inputs;
  if (params.kind == PostKind::kWinning) {
    for (const PostVanillaProof& p : proofs)
      for (std::uint64_t c : post_challenges(randomness, p.sector_id, params.nodes, params.sectors)) {
        inputs.push_back(p.comm_r);
        inputs.push_back(Fr::from_u64(c));
      }
    return inputs;
  }
  const std::size_t per_sector = 1 + params.challenges;
  std::uint64_t sector = 0;
  for (const PostVanillaProof& p : proofs)
    for (std::size_t s = 0; s < p.sectors.size(); ++s, ++sector) {
      inputs.push_back(p.comm_r);
      for (std::uint64_t c : post_challenges(randomness, p.sector_id, params.nodes, params.challenges,
                                             post_challenge_index(version, params, partition, sector, 0)))
        inputs.push_back(Fr::from_u64(c));
    }
  while (!inputs.empty() && inputs.size() < params.sectors * per_sector)
    inputs.insert(inputs.end(), inputs.end() - static_cast<std::ptrdiff_t>(per_sector), inputs.end());
  return inputs;
}

std::vector<std::uint64_t> post_challenges(const std::array<std::uint8_t, 32>& randomness,
                                           std::uint64_t sector_id, std::uint64_t sector_nodes,
                                           unsigned count, std::uint64_t first) {
  std::vector<std::uint64_t> out;
  for (std::uint64_t i = first; i < first + count; ++i) {
    std::array<std::uint8_t, 48> message{};
    std::memcpy(message.data(), randomness.data(), 32);
    for (unsigned b = 0; b < 8; ++b) {
      message[32 + b] = static_cast<std::uint8_t>(sector_id >> (8 * b));
      message[40 + b] = static_cast<std::uint8_t>(i >> (8 * b));
    }
    const Sha256Digest h = Sha256::hash(message);
    std::uint64_t v = 0;
    for (unsigned b = 0; b < 8; ++b) v |= std::uint64_t{h[b]} << (8 * b);
    out.push_back(v % sector_nodes);
  }
  return out;
}

}  // namespace cuzk::filecoin
