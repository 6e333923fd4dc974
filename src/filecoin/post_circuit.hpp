// Filecoin's fallback PoSt circuit (WindowPoSt and WinningPoSt), constraint for constraint as rust-fil-proofs
// synthesizes it (storage-proofs-post fallback/circuit.rs FallbackPoStCircuit::synthesize_default and
// Sector::synthesize; storage-proofs-core gadgets/por.rs PoRCircuit with `private` set). Per sector, in
// order:
//
//   comm_r_last, comm_c, comm_r allocated (private), comm_r made an input; Poseidon2(comm_c, comm_r_last)
//   enforced equal to comm_r; then per challenge the challenged leaf allocated and its inclusion in tree R:
//   per level the index bits, the siblings, the insertion and the level's hash, the path bits packed into
//   one input (the leaf's index), the computed root equal to comm_r_last.
//
// One template for every mode: `proof` is read only when CS::kWitness (nullptr in shape and record modes).
#pragma once

#include <array>
#include <span>
#include <string>
#include <vector>

#include "filecoin/hash_circuits.hpp"
#include "filecoin/por_circuit.hpp"
#include "filecoin/post_params.hpp"

namespace cuzk::filecoin {

// One sector's part of a PoSt vanilla proof in the circuit's terms (storage-proofs-post SectorProof with its
// public sector): comm_r public, comm_c and comm_r_last private, and per challenge the leaf and its path in
// tree R.
struct PostSectorProof {
  Fr comm_r, comm_c, comm_r_last;
  std::vector<Fr> leafs;
  std::vector<MerklePath> paths;
};

// Throws SynthesisError unless `proof` has `params`' challenge count and tree shape.
inline void check_post_sector_shape(const PostParams& params, const PostSectorProof& proof,
                                    const std::string& what) {
  if (proof.leafs.size() != params.challenges || proof.paths.size() != params.challenges)
    throw gadgets::SynthesisError(what + ": " + std::to_string(proof.leafs.size()) + " leaves and " +
                                  std::to_string(proof.paths.size()) + " paths, the circuit has " +
                                  std::to_string(params.challenges) + " challenges per sector");
  const TreeLevels tree = poseidon_tree_levels(params.tree);
  for (std::size_t i = 0; i < proof.paths.size(); ++i)
    check_path_shape(tree, proof.paths[i], what + ", challenge " + std::to_string(i));
}

template <class CS>
void synthesize_post_sector(CS& cs, const PostParams& params, const PostSectorProof* proof) {
  auto field = [&](const Fr PostSectorProof::*member) {
    return AllocatedNum::alloc(cs, [&]() -> const Fr& { return proof->*member; });
  };
  const AllocatedNum comm_r_last = field(&PostSectorProof::comm_r_last);
  const AllocatedNum comm_c = field(&PostSectorProof::comm_c);
  const AllocatedNum comm_r = field(&PostSectorProof::comm_r);
  comm_r.inputize(cs);
  const std::array<AllocatedNum, 2> preimage{comm_c, comm_r_last};
  enforce_equal(cs, comm_r, poseidon_circuit(cs, std::span<const AllocatedNum>(preimage)));
  const TreeLevels tree = poseidon_tree_levels(params.tree);
  for (unsigned i = 0; i < params.challenges; ++i) {
    const AllocatedNum leaf = AllocatedNum::alloc(cs, [&]() -> const Fr& { return proof->leafs[i]; });
    enforce_inclusion(cs, tree, proof ? &proof->paths[i] : nullptr, leaf, comm_r_last);
  }
}

}  // namespace cuzk::filecoin
