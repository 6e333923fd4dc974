#include "filecoin/update_circuit.hpp"

namespace cuzk::filecoin {

void check_update_proof_shape(const UpdateParams& params, const UpdatePartitionProof& proof) {
  using gadgets::SynthesisError;
  const std::string at = "SnapDeals " + params.name + " partition " + std::to_string(proof.k);
  try {
    update_k_and_h_select(params, proof.k, proof.h);
  } catch (const std::invalid_argument& e) {
    throw SynthesisError(e.what());
  }
  if (proof.apex_leafs.size() != params.apex_leaves)
    throw SynthesisError(at + ": " + std::to_string(proof.apex_leafs.size()) +
                         " apex leaves, the circuit has " + std::to_string(params.apex_leaves));
  if (proof.challenges.size() != params.challenges)
    throw SynthesisError(at + ": " + std::to_string(proof.challenges.size()) +
                         " challenge proofs, the circuit has " + std::to_string(params.challenges));
  const TreeLevels tree_r = poseidon_tree_levels(params.tree);
  const TreeLevels tree_d = tree_d_levels(params.challenge_bits);
  for (std::size_t i = 0; i < proof.challenges.size(); ++i) {
    const UpdateChallengeProof& c = proof.challenges[i];
    const std::string where = at + ", challenge " + std::to_string(i);
    check_path_shape(tree_r, c.path_r_old, where + ", tree R old");
    check_path_shape(tree_d, c.path_d_new, where + ", tree D new");
    check_path_shape(tree_r, c.path_r_new, where + ", tree R new");
    for (unsigned l = params.challenge_bits - params.partition_bits; l < params.challenge_bits; ++l)
      if (c.path_d_new.levels[l].siblings != proof.challenges[0].path_d_new.levels[l].siblings)
        throw SynthesisError(where + ": its tree D path leaves the partition's (level " + std::to_string(l) +
                             ")");
  }
}

}  // namespace cuzk::filecoin
