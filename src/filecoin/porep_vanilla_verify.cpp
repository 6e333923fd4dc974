#include "filecoin/porep_vanilla_verify.hpp"

#include <stdexcept>

#include "ff/encoding.hpp"
#include "filecoin/poseidon.hpp"
#include "filecoin/sdr_labels.hpp"
#include "filecoin/sha256.hpp"

namespace cuzk::filecoin {

std::array<std::uint8_t, 32> fr_to_repr(const Fr& x) {
  std::array<std::uint8_t, 32> bytes;
  ff::to_bytes_le(x, bytes.data());
  return bytes;
}

Fr fr_from_repr(const std::array<std::uint8_t, 32>& bytes) {
  auto x = ff::from_bytes_le<Fr>(bytes.data());
  if (!x) throw std::invalid_argument("32 bytes that are not a canonical BLS12-381 scalar (≥ r)");
  return *x;
}

Fr tree_d_hash(std::span<const Fr> children) {
  if (children.size() != 2) throw std::invalid_argument("tree D is binary: a node hashes two children");
  std::array<std::uint8_t, 64> message;
  const auto left = fr_to_repr(children[0]), right = fr_to_repr(children[1]);
  std::copy(left.begin(), left.end(), message.begin());
  std::copy(right.begin(), right.end(), message.begin() + 32);
  Sha256Digest digest = Sha256::hash(message);
  trim_to_fr32(digest);
  return fr_from_repr(digest);
}

Fr tree_poseidon_hash(std::span<const Fr> children) {
  return poseidon_hash(children);
}

Fr column_hash(std::span<const Fr> rows) {
  if (rows.size() != 2 && rows.size() != 11)
    throw std::invalid_argument("hash_single_column takes 2 or 11 rows, not " + std::to_string(rows.size()));
  return poseidon_hash(rows);
}

std::vector<unsigned> tree_d_arities(const PorepParams& params) {
  return std::vector<unsigned>(params.tree_d_levels, 2);
}

std::vector<unsigned> tree_arities(const TreeShape& shape) {
  std::vector<unsigned> arities(shape.base_levels, shape.base);
  if (shape.sub) arities.push_back(shape.sub);
  if (shape.top) arities.push_back(shape.top);
  return arities;
}

SdrGraph porep_graph(const PorepParams& params, const PorepId& porep_id) {
  return SdrGraph(params.nodes, porep_id, ApiVersion::V1_1_0);
}

Fr merkle_path_root(const Fr& leaf, const MerklePath& path, std::span<const unsigned> arities,
                    const std::function<Fr(std::span<const Fr>)>& hash, std::uint64_t node,
                    const std::string& what) {
  auto fail = [&](const std::string& message) { throw std::runtime_error(what + ": " + message); };
  if (path.levels.size() != arities.size())
    fail("the path has " + std::to_string(path.levels.size()) + " levels, the tree " +
         std::to_string(arities.size()));
  Fr current = leaf;
  std::uint64_t rest = node;
  std::vector<Fr> children;
  for (std::size_t level = 0; level < arities.size(); ++level) {
    const MerklePath::Level& step = path.levels[level];
    const unsigned arity = arities[level];
    const std::string at = "level " + std::to_string(level) + " (arity " + std::to_string(arity) + ")";
    if (step.siblings.size() != arity - 1)
      fail(at + " has " + std::to_string(step.siblings.size()) + " siblings, not " +
           std::to_string(arity - 1));
    if (step.index >= arity) fail(at + " index " + std::to_string(step.index) + " is out of range");
    if (step.index != rest % arity)
      fail(at + " index " + std::to_string(step.index) + " is not node " + std::to_string(node) +
           "'s digit " + std::to_string(rest % arity));
    rest /= arity;
    children.assign(step.siblings.begin(), step.siblings.end());
    children.insert(children.begin() + step.index, current);
    current = hash(children);
  }
  if (rest != 0) fail("node " + std::to_string(node) + " is outside the tree");
  return current;
}

std::vector<Fr> recompute_challenge_labels(const PorepParams& params, const Fr& replica_id,
                                           const ChallengeProof& challenge) {
  auto column_label = [&](const ColumnProof& column, unsigned row, const char* kind, unsigned i) {
    if (column.rows.size() != params.layers)
      throw std::runtime_error(std::string(kind) + " parent " + std::to_string(i) + " column has " +
                               std::to_string(column.rows.size()) + " rows, not " +
                               std::to_string(params.layers));
    return fr_to_repr(column.rows[row]);
  };
  if (challenge.challenge == 0)
    throw std::runtime_error(
        "node 0 is never challenged (its vanilla label hashes no parents, the circuit's 37)");
  const ReplicaId id = fr_to_repr(replica_id);
  std::vector<Fr> labels;
  std::vector<Label> parents;
  for (unsigned layer = 1; layer <= params.layers; ++layer) {
    parents.clear();
    for (unsigned i = 0; i < kDrgParents; ++i)
      parents.push_back(column_label(challenge.drg_parents[i], layer - 1, "DRG", i));
    if (layer > 1)
      for (unsigned i = 0; i < kExpanderParents; ++i)
        parents.push_back(column_label(challenge.exp_parents[i], layer - 2, "expander", i));
    labels.push_back(fr_from_repr(label_from_parents(id, layer, challenge.challenge, parents)));
  }
  return labels;
}

void verify_porep_vanilla(const PorepParams& params, const SdrGraph& graph, const PorepPartitionProof& proof,
                          std::span<const std::uint64_t> expected_challenges) {
  const std::string prefix = "PoRep vanilla data (" + params.name + "): ";
  if (graph.nodes() != params.nodes)
    throw std::invalid_argument(prefix + "the graph has " + std::to_string(graph.nodes()) + " nodes");
  const Fr pair[2] = {proof.comm_c, proof.comm_r_last};
  if (!(poseidon_hash(pair) == proof.comm_r))
    throw std::runtime_error(prefix + "comm_r is not Poseidon-2(comm_c, comm_r_last)");
  if (proof.challenges.size() != params.challenges_per_partition)
    throw std::runtime_error(prefix + std::to_string(proof.challenges.size()) +
                             " challenges, the partition has " +
                             std::to_string(params.challenges_per_partition));
  if (!expected_challenges.empty() && expected_challenges.size() != proof.challenges.size())
    throw std::runtime_error(prefix + "expected " + std::to_string(expected_challenges.size()) +
                             " challenges");

  const std::vector<unsigned> d_arities = tree_d_arities(params), arities = tree_arities(params.tree);
  for (std::size_t i = 0; i < proof.challenges.size(); ++i) {
    const ChallengeProof& ch = proof.challenges[i];
    const std::string who =
        prefix + "challenge " + std::to_string(i) + " (node " + std::to_string(ch.challenge) + ")";
    auto fail = [&](const std::string& message) { throw std::runtime_error(who + ": " + message); };
    if (!expected_challenges.empty() && ch.challenge != expected_challenges[i])
      fail("expected node " + std::to_string(expected_challenges[i]));
    if (ch.challenge == 0 || ch.challenge >= params.nodes)
      fail("out of range [1, " + std::to_string(params.nodes) + ")");

    if (!(merkle_path_root(ch.data_leaf, ch.comm_d_path, d_arities, tree_d_hash, ch.challenge,
                           who + ": tree D") == proof.comm_d))
      fail("the data leaf's tree D path does not lead to comm_d");

    const auto parents = graph.parents(ch.challenge);
    for (unsigned p = 0; p < kDrgParents + kExpanderParents; ++p) {
      const bool drg = p < kDrgParents;
      const unsigned j = drg ? p : p - kDrgParents;
      const ColumnProof& column = drg ? ch.drg_parents[j] : ch.exp_parents[j];
      const std::string what = std::string(drg ? "DRG" : "expander") + " parent " + std::to_string(j) +
                               " (node " + std::to_string(parents[p]) + ")";
      if (column.rows.size() != params.layers)
        fail(what + " column has " + std::to_string(column.rows.size()) + " rows, not " +
             std::to_string(params.layers));
      if (!(merkle_path_root(column_hash(column.rows), column.path, arities, tree_poseidon_hash, parents[p],
                             who + ": " + what + " tree C") == proof.comm_c))
        fail(what + " column's tree C path does not lead to comm_c");
    }

    std::vector<Fr> labels;
    try {
      labels = recompute_challenge_labels(params, proof.replica_id, ch);
    } catch (const std::runtime_error& e) {
      fail(e.what());
    }
    if (!(merkle_path_root(column_hash(labels), ch.comm_c_path, arities, tree_poseidon_hash, ch.challenge,
                           who + ": own column tree C") == proof.comm_c))
      fail("the column of the labels recomputed from the parents does not lead to comm_c");
    const Fr encoded = labels.back() + ch.data_leaf;
    if (!(merkle_path_root(encoded, ch.comm_r_last_path, arities, tree_poseidon_hash, ch.challenge,
                           who + ": tree R_last") == proof.comm_r_last))
      fail("encoded (last label + data leaf) does not lead to comm_r_last");
  }
}

std::vector<Fr> porep_public_inputs(const SdrGraph& graph, const PorepPartitionProof& proof) {
  std::vector<Fr> inputs{proof.replica_id, proof.comm_d, proof.comm_r};
  inputs.reserve(3 + 18 * proof.challenges.size());
  for (const ChallengeProof& ch : proof.challenges) {
    const Fr c = Fr::from_u64(ch.challenge);
    inputs.push_back(c);
    for (std::uint32_t parent : graph.parents(ch.challenge)) inputs.push_back(Fr::from_u64(parent));
    inputs.push_back(c);
    inputs.push_back(c);
    inputs.push_back(c);
  }
  return inputs;
}

}  // namespace cuzk::filecoin
