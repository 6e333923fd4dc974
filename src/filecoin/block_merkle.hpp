// A whole Merkle tree whose leaves are constant over aligned blocks of 2^block_bits leaves (block b's value
// for every leaf in it), computed without visiting every leaf: a node whose leaves all lie in one block is
// a function of its level and block alone, so each level below the block size costs one hash per block,
// and only the levels above it are stored node by node. With block_bits = 0 it is an ordinary tree.
//
// TEST-ONLY data (update_test_data.hpp): SnapDeals' challenges depend on the new replica's root, so a
// consistent vanilla proof needs the trees whole — at 32 GiB, 2^30 leaves, that is affordable only in this
// form (1,024 blocks: ~10^4 hashes per tree).
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "filecoin/porep_vanilla.hpp"

namespace cuzk::filecoin {

class BlockMerkleTree {
 public:
  using HashFn = std::function<Fr(std::span<const Fr> children)>;
  // arities: per level, leaf side first, powers of two; block_bits ≤ log2 of the leaf count.
  BlockMerkleTree(std::vector<unsigned> arities, HashFn hash, unsigned block_bits,
                  const std::function<Fr(std::uint64_t block)>& block_leaf);

  std::uint64_t leaves() const { return leaves_; }
  const Fr& root() const { return node(static_cast<unsigned>(arities_.size()), 0); }
  // level 0 = leaves.
  const Fr& node(unsigned level, std::uint64_t position) const;
  // Leaf side first: per level the position among the children and the other children in order.
  MerklePath path(std::uint64_t leaf) const;

 private:
  std::vector<unsigned> arities_;
  unsigned block_bits_;
  std::uint64_t leaves_ = 1;
  std::vector<std::uint64_t> span_bits_;  // per level: log2 of the leaves under one node
  // Per level: per block (levels whose nodes lie in one block) or per node (the levels above).
  std::vector<std::vector<Fr>> values_;
};

}  // namespace cuzk::filecoin
