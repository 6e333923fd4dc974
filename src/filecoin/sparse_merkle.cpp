#include "filecoin/sparse_merkle.hpp"

#include <set>
#include <stdexcept>
#include <string>

namespace cuzk::filecoin {

SparseMerkleTree::SparseMerkleTree(std::vector<unsigned> arities, HashFn hash, FillerFn filler)
    : arities_(std::move(arities)), hash_(std::move(hash)), filler_(std::move(filler)) {
  if (arities_.empty()) throw std::invalid_argument("sparse Merkle tree: no levels");
  for (unsigned a : arities_) {
    if (a < 2) throw std::invalid_argument("sparse Merkle tree: every arity must be at least 2");
    if (leaves_ > (std::uint64_t{1} << 40) / a)
      throw std::invalid_argument("sparse Merkle tree: too many leaves");
    leaves_ *= a;
  }
}

void SparseMerkleTree::set_leaf(std::uint64_t index, const Fr& value) {
  if (built_) throw std::logic_error("sparse Merkle tree: set_leaf after build");
  if (index >= leaves_)
    throw std::invalid_argument("sparse Merkle tree: leaf " + std::to_string(index) + " out of range (" +
                                std::to_string(leaves_) + " leaves)");
  auto [it, inserted] = known_leaves_.emplace(index, value);
  if (!inserted && !(it->second == value))
    throw std::invalid_argument("sparse Merkle tree: leaf " + std::to_string(index) + " set to two values");
}

void SparseMerkleTree::build() {
  if (built_) throw std::logic_error("sparse Merkle tree: built twice");
  if (known_leaves_.empty()) throw std::logic_error("sparse Merkle tree: no leaf set");
  levels_.assign(arities_.size() + 1, {});
  levels_[0] = known_leaves_;
  std::vector<Fr> children;
  for (unsigned level = 0; level < arities_.size(); ++level) {
    const unsigned arity = arities_[level];
    std::set<std::uint64_t> parents;
    for (const auto& [position, value] : levels_[level]) parents.insert(position / arity);
    for (std::uint64_t parent : parents) {
      children.clear();
      for (unsigned j = 0; j < arity; ++j) {
        const std::uint64_t child = parent * arity + j;
        auto it = levels_[level].find(child);
        if (it == levels_[level].end()) it = levels_[level].emplace(child, filler_(level, child)).first;
        children.push_back(it->second);
      }
      levels_[level + 1].emplace(parent, hash_(children));
      ++hashes_;
    }
  }
  built_ = true;
}

const Fr& SparseMerkleTree::node(unsigned level, std::uint64_t position) const {
  return levels_.at(level).at(position);  // every sibling on a known path was materialised by build()
}

const Fr& SparseMerkleTree::root() const {
  if (!built_) throw std::logic_error("sparse Merkle tree: root before build");
  return node(static_cast<unsigned>(arities_.size()), 0);
}

MerklePath SparseMerkleTree::path(std::uint64_t index) const {
  if (!built_) throw std::logic_error("sparse Merkle tree: path before build");
  if (!known_leaves_.count(index))
    throw std::invalid_argument("sparse Merkle tree: leaf " + std::to_string(index) + " is not a known leaf");
  return merkle_path_of(arities_, index,
                        [this](unsigned level, std::uint64_t at) { return node(level, at); });
}

}  // namespace cuzk::filecoin
