#include "filecoin/porep_test_data.hpp"

#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include "filecoin/c1_output.hpp"
#include "filecoin/porep_vanilla_verify.hpp"
#include "filecoin/poseidon.hpp"
#include "filecoin/sdr_labels.hpp"
#include "filecoin/sha256.hpp"
#include "filecoin/sparse_merkle.hpp"

namespace cuzk::filecoin {

namespace {

// Every random value is SHA-256(seed ‖ tag ‖ a ‖ b) (u64s little-endian): a pure function of what it is
// for, so the sparse trees' fillers need no memory and the data is the same however it is walked.
class SeededBytes {
 public:
  explicit SeededBytes(std::uint64_t seed) : seed_(seed) {}

  Bytes32 bytes(std::string_view tag, std::uint64_t a = 0, std::uint64_t b = 0) const {
    Sha256 h;
    put(h, seed_);
    h.update(std::span(reinterpret_cast<const std::uint8_t*>(tag.data()), tag.size()));
    put(h, a);
    put(h, b);
    return h.finish();
  }
  // 254 random bits: always a canonical Fr, like a trimmed label or a Fr32-padded data node.
  Bytes32 trimmed(std::string_view tag, std::uint64_t a = 0, std::uint64_t b = 0) const {
    Bytes32 x = bytes(tag, a, b);
    trim_to_fr32(x);
    return x;
  }
  Fr fr(std::string_view tag, std::uint64_t a = 0, std::uint64_t b = 0) const {
    return fr_from_repr(trimmed(tag, a, b));
  }

 private:
  static void put(Sha256& h, std::uint64_t v) {
    std::uint8_t le[8];
    for (int i = 0; i < 8; ++i) le[i] = std::uint8_t(v >> (8 * i));
    h.update(le);
  }
  std::uint64_t seed_;
};

class Generator {
 public:
  Generator(const PorepParams& params, const SdrGraph& graph, const SeededBytes& random,
            const ReplicaId& replica_id, const std::vector<std::uint64_t>& challenges)
      : params_(params),
        graph_(graph),
        random_(random),
        replica_id_(replica_id),
        challenged_(challenges.begin(), challenges.end()) {}

  // Memoized: a challenged node's label from its parents (recursing into challenged parents: DRG parents are
  // earlier nodes and expander parents the previous layer, so this ends), any other node's random.
  const Label& label(unsigned layer, std::uint64_t node) {
    const auto key = std::make_pair(layer, node);
    if (auto it = labels_.find(key); it != labels_.end()) return it->second;
    Label value;
    if (node == 0 && challenged_.count(node)) {  // node 0 has no parents (the graph lists itself)
      value = label_from_parents(replica_id_, layer, node, {});
    } else if (challenged_.count(node)) {
      const auto& parents = parents_of(node);
      std::vector<Label> parent_labels;
      for (unsigned i = 0; i < kDrgParents; ++i) parent_labels.push_back(label(layer, parents[i]));
      if (layer > 1)
        for (unsigned i = kDrgParents; i < kDrgParents + kExpanderParents; ++i)
          parent_labels.push_back(label(layer - 1, parents[i]));
      value = label_from_parents(replica_id_, layer, node, parent_labels);
    } else {
      value = random_.trimmed("label", layer, node);
    }
    return labels_.emplace(key, value).first->second;
  }

  std::vector<Fr> column(std::uint64_t node) {
    std::vector<Fr> rows;
    for (unsigned layer = 1; layer <= params_.layers; ++layer)
      rows.push_back(fr_from_repr(label(layer, node)));
    return rows;
  }

  Fr data_leaf(std::uint64_t node) const { return random_.fr("data", node); }

  const std::array<std::uint32_t, kDegree>& parents_of(std::uint64_t node) {
    auto it = parents_.find(node);
    if (it == parents_.end()) it = parents_.emplace(node, graph_.parents(node)).first;
    return it->second;
  }

 private:
  const PorepParams& params_;
  const SdrGraph& graph_;
  const SeededBytes& random_;
  const ReplicaId& replica_id_;
  std::set<std::uint64_t> challenged_;
  std::map<std::pair<unsigned, std::uint64_t>, Label> labels_;
  std::map<std::uint64_t, std::array<std::uint32_t, kDegree>> parents_;
};

SparseMerkleTree::FillerFn random_filler(const SeededBytes& random, std::string tag) {
  return [&random, tag = std::move(tag)](unsigned level, std::uint64_t position) {
    return random.fr(tag, level, position);
  };
}

// The sector's data for the given partitions of `proof`: one set of trees holding every listed partition's
// challenged leaves (so the partitions share comm_c, comm_r_last and comm_r), each partition's proof taken
// from them. With one interactive partition this is make_test_porep_partition's data, value for value.
// Challenges that follow from comm_r (synthetic, non-interactive) are known only once the trees are: then
// every node is generated, as a densely sealed sector, and the challenges are drawn after the trees.
// `params` are the proof's, or (tests) interactive ones with another partition count.
PorepTestSector make_sector(const PorepParams& params, const RegisteredSealProof& proof, std::uint64_t seed,
                            std::span<const unsigned> ks) {
  const SeededBytes random(seed);
  PorepTestSector out;
  out.proof = &proof;
  out.porep_id = proof.porep_id;
  out.interactive_seed = random.bytes("interactive seed");
  out.ticket = random.bytes("ticket");
  out.replica_id = random.trimmed("replica id");
  const bool dense = proof.feature != PorepFeature::kNone;
  if (dense && params.nodes > kMaxDenseTestNodes)
    throw std::invalid_argument(
        "PoRep test data: " + std::string(proof.name) +
        " draws its challenges from comm_r, so every node of the sector is generated: "
        "test sectors of at most " +
        std::to_string(kMaxDenseTestNodes) + " nodes (8 MiB), not " + std::to_string(params.nodes));
  if (dense && (params.nodes != proof.params().nodes ||
                params.challenges_per_partition != proof.params().challenges_per_partition))
    throw std::invalid_argument("PoRep test data: " + std::string(proof.name) + " with other parameters");
  const unsigned partitions = dense ? proof.partitions : params.partitions;
  std::vector<std::vector<std::uint64_t>> challenges;
  std::vector<std::uint64_t> all;
  for (unsigned k : ks)
    if (k >= partitions)
      throw std::invalid_argument("PoRep test data: partition " + std::to_string(k) + " of a " +
                                  std::string(proof.name) + " sector (" + std::to_string(partitions) +
                                  " partitions)");
  if (dense) {
    all.resize(params.nodes);
    for (std::uint64_t n = 0; n < params.nodes; ++n) all[n] = n;
  } else {
    for (unsigned k : ks) {
      challenges.push_back(interactive_challenges(params.nodes, out.replica_id, out.interactive_seed,
                                                  params.challenges_per_partition,
                                                  static_cast<std::uint8_t>(k)));
      all.insert(all.end(), challenges.back().begin(), challenges.back().end());
    }
  }
  const SdrGraph graph(params.nodes, proof.porep_id, proof.api_version);
  Generator gen(params, graph, random, out.replica_id, all);
  if (dense)  // in sealing order, so that no label recurses deeper than one parent
    for (unsigned layer = 1; layer <= params.layers; ++layer)
      for (std::uint64_t n = 0; n < params.nodes; ++n) gen.label(layer, n);

  SparseMerkleTree tree_d(tree_d_arities(params), tree_d_hash, random_filler(random, "tree D"));
  SparseMerkleTree tree_c(tree_arities(params.tree), tree_poseidon_hash, random_filler(random, "tree C"));
  SparseMerkleTree tree_r(tree_arities(params.tree), tree_poseidon_hash,
                          random_filler(random, "tree R_last"));
  std::map<std::uint64_t, Fr> column_hashes;  // a node's column is hashed once however often it appears
  auto put_column = [&](std::uint64_t node) {
    if (column_hashes.count(node)) return;
    const Fr h = column_hash(gen.column(node));
    column_hashes.emplace(node, h);
    tree_c.set_leaf(node, h);
  };
  for (std::uint64_t c : all) {
    const Fr data = gen.data_leaf(c);
    tree_d.set_leaf(c, data);
    tree_r.set_leaf(c, fr_from_repr(gen.label(params.layers, c)) + data);
    put_column(c);
    for (std::uint32_t parent : gen.parents_of(c)) put_column(parent);
  }
  tree_d.build();
  tree_c.build();
  tree_r.build();

  PorepPartitionProof common;
  common.replica_id = fr_from_repr(out.replica_id);
  common.comm_d = tree_d.root();
  common.comm_c = tree_c.root();
  common.comm_r_last = tree_r.root();
  const Fr pair[2] = {common.comm_c, common.comm_r_last};
  common.comm_r = poseidon_hash(pair);
  if (dense)
    for (unsigned k : ks)
      challenges.push_back(
          c1_partition_challenges(proof, out.replica_id, out.interactive_seed, fr_to_repr(common.comm_r), k));
  for (std::size_t p = 0; p < ks.size(); ++p) {
    PorepTestPartition& part = out.partitions.emplace_back();
    part.porep_id = out.porep_id;
    part.interactive_seed = out.interactive_seed;
    part.partition = ks[p];
    part.challenges = challenges[p];
    part.proof = common;
    for (std::uint64_t c : part.challenges) {
      ChallengeProof ch;
      ch.challenge = c;
      ch.data_leaf = gen.data_leaf(c);
      ch.comm_d_path = tree_d.path(c);
      const auto& parents = gen.parents_of(c);
      for (unsigned i = 0; i < kDrgParents + kExpanderParents; ++i) {
        ColumnProof& column = i < kDrgParents ? ch.drg_parents[i] : ch.exp_parents[i - kDrgParents];
        column.rows = gen.column(parents[i]);
        column.path = tree_c.path(parents[i]);
      }
      ch.comm_r_last_path = tree_r.path(c);
      ch.comm_c_path = tree_c.path(c);
      part.proof.challenges.push_back(std::move(ch));
    }
    part.public_inputs = porep_public_inputs(graph, part.proof);
  }
  return out;
}

}  // namespace

PorepTestPartition make_test_porep_partition(const PorepParams& params, std::uint64_t seed,
                                             unsigned partition_k) {
  const unsigned k[1] = {partition_k};
  return std::move(
      make_sector(params, registered_seal_proof_by_id(registered_seal_proof_v1_1(params)), seed, k)
          .partitions.front());
}

PorepTestSector make_test_porep_sector(const PorepParams& params, std::uint64_t seed) {
  std::vector<unsigned> ks(params.partitions);
  for (unsigned k = 0; k < params.partitions; ++k) ks[k] = k;
  return make_sector(params, registered_seal_proof_by_id(registered_seal_proof_v1_1(params)), seed, ks);
}

PorepTestSector make_test_porep_sector(const RegisteredSealProof& proof, std::uint64_t seed) {
  std::vector<unsigned> ks(proof.partitions);
  for (unsigned k = 0; k < proof.partitions; ++k) ks[k] = k;
  return make_sector(proof.params(), proof, seed, ks);
}

}  // namespace cuzk::filecoin
