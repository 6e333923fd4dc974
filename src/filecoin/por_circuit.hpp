// Merkle inclusion as storage-proofs-core's PoRCircuit synthesizes it for the PoRep circuit (gadgets/por.rs,
// with `private` set and the leaf and root already allocated: porep params.rs enforce_inclusion). Per level,
// leaf side first: the index bits (least significant first), the siblings, the insertion, the level's hash;
// then all index bits packed into one public input (their value is the leaf's node index), and the computed
// root equal to the given one.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "filecoin/hash_circuits.hpp"
#include "filecoin/porep_vanilla.hpp"
#include "gadgets/insertion.hpp"

namespace cuzk::filecoin {

// The arity of each level of a tree, leaf side first, and its hash.
struct TreeLevels {
  enum class Hash { kSha256, kPoseidon } hash = Hash::kPoseidon;
  std::vector<unsigned> arities;
};

inline TreeLevels tree_d_levels(unsigned levels) {
  return {TreeLevels::Hash::kSha256, std::vector<unsigned>(levels, 2)};
}
inline TreeLevels poseidon_tree_levels(const TreeShape& s) {
  TreeLevels t{TreeLevels::Hash::kPoseidon, std::vector<unsigned>(s.base_levels, s.base)};
  if (s.sub) t.arities.push_back(s.sub);
  if (s.top) t.arities.push_back(s.top);
  return t;
}

// `path` is read only when CS::kWitness (pass nullptr otherwise).
template <class CS>
void enforce_inclusion(CS& cs, const TreeLevels& tree, const MerklePath* path, const AllocatedNum& leaf,
                       const AllocatedNum& root) {
  AllocatedNum cur = leaf;
  std::vector<Boolean> path_bits;
  std::vector<AllocatedNum> siblings;
  for (std::size_t level = 0; level < tree.arities.size(); ++level) {
    const unsigned arity = tree.arities[level];
    const unsigned bits = static_cast<unsigned>(std::countr_zero(arity));
    const MerklePath::Level* values = nullptr;
    if constexpr (CS::kWitness) values = &path->levels[level];
    const std::size_t first_bit = path_bits.size();
    for (unsigned i = 0; i < bits; ++i) {
      bool bit = false;
      if constexpr (CS::kWitness) bit = (values->index >> i) & 1;
      path_bits.push_back(gadgets::AllocatedBit::alloc(cs, bit));
    }
    siblings.clear();
    for (unsigned i = 0; i + 1 < arity; ++i)
      siblings.push_back(AllocatedNum::alloc(cs, [&]() -> const Fr& { return values->siblings[i]; }));
    const std::vector<AllocatedNum> preimage =
        gadgets::insert(cs, cur, std::span<const Boolean>(path_bits).subspan(first_bit),
                        std::span<const AllocatedNum>(siblings));
    if (tree.hash == TreeLevels::Hash::kSha256) {
      if (arity != 2) throw gadgets::SynthesisError("SHA-256 trees are binary");
      cur = sha256_tree_node_circuit(cs, preimage[0], preimage[1]);
    } else {
      cur = poseidon_circuit(cs, std::span<const AllocatedNum>(preimage));
    }
  }
  gadgets::pack_into_inputs(cs, std::span<const Boolean>(path_bits));
  enforce_equal(cs, cur, root);
}

// Throws SynthesisError unless `path` has the tree's levels, indices and sibling counts.
inline void check_path_shape(const TreeLevels& tree, const MerklePath& path, const std::string& what) {
  if (path.levels.size() != tree.arities.size())
    throw gadgets::SynthesisError(what + ": " + std::to_string(path.levels.size()) +
                                  " levels, the tree has " + std::to_string(tree.arities.size()));
  for (std::size_t l = 0; l < path.levels.size(); ++l)
    if (path.levels[l].siblings.size() + 1 != tree.arities[l] || path.levels[l].index >= tree.arities[l])
      throw gadgets::SynthesisError(what + ": level " + std::to_string(l) + " does not fit arity " +
                                    std::to_string(tree.arities[l]));
}

}  // namespace cuzk::filecoin
