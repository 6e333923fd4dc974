// A Merkle tree of which only a few leaves are known, for test data at production sector sizes (2^30 and
// more leaves): only the paths of the known leaves are materialised. Every node that no known leaf lies
// under takes a value from a deterministic filler (in the PoRep test data, random: such a subtree stands
// for data nobody looks at). Where two known leaves' paths meet they share the nodes, so every path leads
// to the same root.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <vector>

#include "filecoin/porep_vanilla.hpp"

namespace cuzk::filecoin {

class SparseMerkleTree {
 public:
  // Hash of one node's children, in child order (as many as that level's arity).
  using HashFn = std::function<Fr(std::span<const Fr> children)>;
  // The value of a node no known leaf lies under: level 0 = leaves, position = index within the level.
  // It must be a function of (level, position) only.
  using FillerFn = std::function<Fr(unsigned level, std::uint64_t position)>;

  // arities: per level, leaf side first (each ≥ 2); the tree has their product of leaves.
  SparseMerkleTree(std::vector<unsigned> arities, HashFn hash, FillerFn filler);

  std::uint64_t leaves() const { return leaves_; }

  // Before build(). Setting the same leaf again is allowed only with the same value (a node can be a
  // parent of several challenges); throws std::invalid_argument otherwise or when out of range.
  void set_leaf(std::uint64_t index, const Fr& value);
  // Hashes up from the known leaves (at least one). Throws std::logic_error when called twice or with no
  // leaf set.
  void build();

  const Fr& root() const;
  // The path of a known leaf, leaf side first: per level its position among the children and the other
  // children in order. Throws std::invalid_argument for a leaf that was not set.
  MerklePath path(std::uint64_t index) const;
  // Hashes computed by build() (for cost checks).
  std::uint64_t hashes() const { return hashes_; }

 private:
  const Fr& node(unsigned level, std::uint64_t position) const;

  std::vector<unsigned> arities_;
  HashFn hash_;
  FillerFn filler_;
  std::uint64_t leaves_ = 1;
  // levels_[l]: the materialised nodes of level l (known, on a known path, or a filled sibling of one).
  std::vector<std::map<std::uint64_t, Fr>> levels_;
  std::map<std::uint64_t, Fr> known_leaves_;
  bool built_ = false;
  std::uint64_t hashes_ = 0;
};

}  // namespace cuzk::filecoin
