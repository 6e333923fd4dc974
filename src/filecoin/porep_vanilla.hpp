// What the StackedDRG circuit of one partition is synthesized from: the values of a PoRep vanilla proof
// (storage-proofs-porep stacked/vanilla Proof, as the circuit's params.rs Proof takes it), in the circuit's
// terms: field elements, node indices and Merkle paths. The C1 reader (issue 30) and the test-only generator
// (porep_test_data.hpp) both produce it.
//
// Field elements are Fr values. Filecoin's 32-byte domain values (Sha256Domain, PoseidonDomain) are their
// canonical integer in little-endian bytes; a SHA-256 node is trimmed to 254 bits, so every one is an Fr.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "filecoin/porep_params.hpp"
#include "gadgets/variable.hpp"

namespace cuzk::filecoin {

using Fr = ff::bls12_381::Fr;

// One inclusion proof, leaf side first: per level the leaf's position among its `arity` siblings (the path
// element's index) and the arity − 1 other children in order (the path element's hashes). Base levels, then
// the sub level, then the top level, as the tree shape gives them.
struct MerklePath {
  struct Level {
    std::uint32_t index = 0;
    std::vector<Fr> siblings;
  };
  std::vector<Level> levels;
};

// The path of `leaf` in a tree of these arities (leaf level first), reading each sibling through
// node_at(level, position): how every tree that hands out paths (the test-data trees) walks up.
template <class NodeAt>
MerklePath merkle_path_of(std::span<const unsigned> arities, std::uint64_t leaf, NodeAt&& node_at) {
  MerklePath path;
  std::uint64_t position = leaf;
  for (unsigned level = 0; level < arities.size(); ++level) {
    const unsigned arity = arities[level];
    MerklePath::Level step;
    step.index = static_cast<std::uint32_t>(position % arity);
    const std::uint64_t first = position - step.index;
    for (unsigned c = 0; c < arity; ++c)
      if (c != step.index) step.siblings.push_back(node_at(level, first + c));
    path.levels.push_back(std::move(step));
    position /= arity;
  }
  return path;
}

// A node's column: its label in each layer (row 0 = layer 1), and the path of the column's hash in tree C.
struct ColumnProof {
  std::vector<Fr> rows;
  MerklePath path;
};

struct ChallengeProof {
  std::uint64_t challenge = 0;  // the node
  Fr data_leaf;                 // the unsealed node (tree D leaf)
  MerklePath comm_d_path;       // tree D: binary SHA-256
  std::array<ColumnProof, kDrgParents> drg_parents;
  std::array<ColumnProof, kExpanderParents> exp_parents;
  MerklePath comm_r_last_path;  // the encoded node in tree R_last
  MerklePath comm_c_path;       // the challenged node's own column hash in tree C
};

struct PorepPartitionProof {
  Fr replica_id, comm_d, comm_r;  // public
  Fr comm_c, comm_r_last;         // private: comm_r = Poseidon2(comm_c, comm_r_last)
  std::vector<ChallengeProof> challenges;
};

}  // namespace cuzk::filecoin
