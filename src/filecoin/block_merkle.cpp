#include "filecoin/block_merkle.hpp"

#include <bit>
#include <stdexcept>

namespace cuzk::filecoin {

BlockMerkleTree::BlockMerkleTree(std::vector<unsigned> arities, HashFn hash, unsigned block_bits,
                                 const std::function<Fr(std::uint64_t block)>& block_leaf)
    : arities_(std::move(arities)), block_bits_(block_bits) {
  std::uint64_t bits = 0;
  span_bits_.push_back(0);
  for (unsigned a : arities_) {
    if (a < 2 || !std::has_single_bit(a))
      throw std::invalid_argument("block tree: arities are powers of two");
    bits += static_cast<std::uint64_t>(std::countr_zero(a));
    span_bits_.push_back(bits);
  }
  if (bits > 40 || block_bits > bits)
    throw std::invalid_argument("block tree: too many leaves or too large a block");
  leaves_ = std::uint64_t{1} << bits;
  const std::uint64_t blocks = leaves_ >> block_bits_;
  values_.resize(arities_.size() + 1);
  values_[0].resize(blocks);
  for (std::uint64_t b = 0; b < blocks; ++b) values_[0][b] = block_leaf(b);
  std::vector<Fr> children;
  for (unsigned level = 1; level <= arities_.size(); ++level) {
    const unsigned arity = arities_[level - 1];
    const bool per_block = span_bits_[level] <= block_bits_;
    const std::uint64_t count = per_block ? blocks : leaves_ >> span_bits_[level];
    values_[level].resize(count);
    for (std::uint64_t i = 0; i < count; ++i) {
      children.clear();
      for (unsigned c = 0; c < arity; ++c)
        children.push_back(per_block ? values_[level - 1][i] : node(level - 1, i * arity + c));
      values_[level][i] = hash(children);
    }
  }
}

const Fr& BlockMerkleTree::node(unsigned level, std::uint64_t position) const {
  if (level > arities_.size() || position >= (leaves_ >> span_bits_[level]))
    throw std::out_of_range("block tree: no such node");
  if (span_bits_[level] <= block_bits_) return values_[level][position >> (block_bits_ - span_bits_[level])];
  return values_[level][position];
}

MerklePath BlockMerkleTree::path(std::uint64_t leaf) const {
  if (leaf >= leaves_) throw std::out_of_range("block tree: no such leaf");
  return merkle_path_of(arities_, leaf, [this](unsigned level, std::uint64_t at) { return node(level, at); });
}

}  // namespace cuzk::filecoin
