// The test-only PoRep vanilla generator and the CPU verifier: generated partitions pass at every production
// size (the sparse trees at 32 and 64 GiB included), every kind of tampering is caught and named, the public
// inputs follow generate_public_inputs, and the verifier accepts a whole 2 KiB sector labelled and
// committed densely (so it checks the real recipe, not just the generator's).
#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "filecoin/porep_test_data.hpp"
#include "filecoin/porep_vanilla_verify.hpp"
#include "filecoin/sdr_labels.hpp"
#include "filecoin/sparse_merkle.hpp"
#include "sanitizer_skip.hpp"

namespace cuzk::filecoin {
namespace {

const Fr kOne = Fr::one();

void expect_rejected(const PorepParams& params, const PorepTestPartition& data,
                     const std::function<void(PorepPartitionProof&)>& tamper, const std::string& needle) {
  PorepPartitionProof proof = data.proof;
  tamper(proof);
  try {
    verify_porep_vanilla(params, porep_graph(params, data.porep_id), proof);
    ADD_FAILURE() << params.name << ": tampering accepted (expected '" << needle << "')";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos)
        << params.name << ": message '" << e.what() << "' lacks '" << needle << "'";
  }
}

TEST(PorepTestData, EveryProductionSizePassesTheVerifier) {
  for (const PorepParams& params : production_porep_params()) {
    const PorepTestPartition data = make_test_porep_partition(params, 7);
    ASSERT_EQ(data.proof.challenges.size(), params.challenges_per_partition) << params.name;
    EXPECT_EQ(data.porep_id, porep_id_for(registered_seal_proof_v1_1(params)));
    for (const ChallengeProof& ch : data.proof.challenges) {
      EXPECT_EQ(ch.comm_d_path.levels.size(), params.tree_d_levels);
      EXPECT_EQ(ch.comm_c_path.levels.size(), params.tree.levels());
      EXPECT_EQ(ch.drg_parents[0].rows.size(), params.layers);
    }
    EXPECT_NO_THROW(
        verify_porep_vanilla(params, porep_graph(params, data.porep_id), data.proof, data.challenges))
        << params.name;
  }
}

TEST(PorepTestData, LastPartitionOfA32GiBSector) {
  const PorepParams& params = porep_params_for("32GiB");
  const PorepTestPartition data = make_test_porep_partition(params, 11, 9);
  EXPECT_EQ(data.partition, 9u);
  const SdrGraph graph = porep_graph(params, data.porep_id);
  EXPECT_EQ(data.challenges,
            interactive_challenges(params.nodes, fr_to_repr(data.proof.replica_id), data.interactive_seed,
                                   params.challenges_per_partition, 9));
  EXPECT_NO_THROW(verify_porep_vanilla(params, graph, data.proof, data.challenges));
  EXPECT_THROW(make_test_porep_partition(params, 11, 10), std::invalid_argument);
}

TEST(PorepTestData, PublicInputs) {
  for (const char* size : {"2KiB", "64GiB"}) {
    const PorepParams& params = porep_params_for(size);
    const PorepTestPartition data = make_test_porep_partition(params, 3);
    const SdrGraph graph = porep_graph(params, data.porep_id);
    const std::vector<Fr>& in = data.public_inputs;
    ASSERT_EQ(in.size(), params.public_inputs());
    ASSERT_EQ(in.size(), 3 + 18 * params.challenges_per_partition);
    EXPECT_EQ(in, porep_public_inputs(graph, data.proof));
    EXPECT_EQ(in[0], data.proof.replica_id);
    EXPECT_EQ(in[1], data.proof.comm_d);
    EXPECT_EQ(in[2], data.proof.comm_r);
    for (std::size_t i = 0; i < data.challenges.size(); ++i) {
      const std::uint64_t c = data.challenges[i];
      const Fr* row = &in[3 + 18 * i];
      const auto drg = graph.base_parents(c);
      const auto exp = graph.expander_parents(c);
      EXPECT_EQ(row[0], Fr::from_u64(c));
      for (unsigned j = 0; j < 6; ++j) EXPECT_EQ(row[1 + j], Fr::from_u64(drg[j]));
      for (unsigned j = 0; j < 8; ++j) EXPECT_EQ(row[7 + j], Fr::from_u64(exp[j]));
      EXPECT_EQ(row[15], Fr::from_u64(c));
      EXPECT_EQ(row[16], Fr::from_u64(c));
      EXPECT_EQ(row[17], Fr::from_u64(c));
    }
  }
}

TEST(PorepTestData, DeterministicForASeed) {
  const PorepParams& params = porep_params_for("8MiB");
  const PorepTestPartition a = make_test_porep_partition(params, 5), b = make_test_porep_partition(params, 5);
  const PorepTestPartition c = make_test_porep_partition(params, 6);
  EXPECT_EQ(a.public_inputs, b.public_inputs);
  EXPECT_EQ(a.proof.comm_c, b.proof.comm_c);
  EXPECT_EQ(a.proof.challenges[1].exp_parents[3].rows, b.proof.challenges[1].exp_parents[3].rows);
  EXPECT_EQ(a.proof.challenges[0].comm_c_path.levels[2].siblings,
            b.proof.challenges[0].comm_c_path.levels[2].siblings);
  EXPECT_NE(a.proof.comm_r, c.proof.comm_r);
  EXPECT_NE(a.proof.replica_id, c.proof.replica_id);
}

TEST(PorepTestData, LabelsOfChallengedNodesFollowFromTheirParents) {
  // The generator's own column of a challenge is what the verifier recomputes from the parents' columns,
  // and a parent that is itself challenged has the column of its computed labels.
  const PorepParams& params = porep_params_for("2KiB");  // 64 nodes: challenges often parent each other
  unsigned shared = 0;
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    const PorepTestPartition data = make_test_porep_partition(params, seed);
    const SdrGraph graph = porep_graph(params, data.porep_id);
    ASSERT_NO_THROW(verify_porep_vanilla(params, graph, data.proof)) << seed;
    const auto& chs = data.proof.challenges;
    for (const ChallengeProof& a : chs)
      for (const ChallengeProof& b : chs) {
        const auto parents = graph.parents(b.challenge);
        for (unsigned p = 0; p < 14; ++p)
          if (parents[p] == a.challenge && a.challenge != b.challenge) {
            const ColumnProof& column = p < 6 ? b.drg_parents[p] : b.exp_parents[p - 6];
            EXPECT_EQ(column.rows, recompute_challenge_labels(params, data.proof.replica_id, a));
            ++shared;
          }
      }
  }
  EXPECT_GT(shared, 0u);
}

TEST(PorepTestData, TamperingIsRejected) {
  for (const char* size : {"2KiB", "32GiB", "64GiB"}) {
    const PorepParams& params = porep_params_for(size);
    const PorepTestPartition data = make_test_porep_partition(params, 9);
    const unsigned last = params.tree.levels() - 1;
    expect_rejected(
        params, data, [](auto& p) { p.comm_r += kOne; }, "comm_r is not Poseidon-2");
    expect_rejected(
        params, data, [](auto& p) { p.comm_c += kOne; }, "comm_r is not Poseidon-2");
    expect_rejected(
        params, data, [](auto& p) { p.challenges.pop_back(); }, "challenges, the partition has");
    expect_rejected(
        params, data, [](auto& p) { p.challenges[1].data_leaf += kOne; },
        "challenge 1 (node " + std::to_string(data.challenges[1]) + "): the data leaf's tree D path");
    expect_rejected(
        params, data, [](auto& p) { p.challenges[0].comm_d_path.levels[3].siblings[0] += kOne; },
        "challenge 0 (node " + std::to_string(data.challenges[0]) + "): the data leaf's tree D path");
    expect_rejected(
        params, data, [](auto& p) { p.challenges[0].comm_d_path.levels[0].index ^= 1; },
        "tree D: level 0 (arity 2) index");
    expect_rejected(
        params, data, [](auto& p) { p.challenges[0].comm_d_path.levels.pop_back(); }, "tree D: the path has");
    expect_rejected(
        params, data, [](auto& p) { p.challenges[1].drg_parents[2].path.levels[1].siblings[5] += kOne; },
        "DRG parent 2 (node");
    expect_rejected(
        params, data, [=](auto& p) { p.challenges[1].exp_parents[7].path.levels[last].siblings[0] += kOne; },
        "expander parent 7 (node");
    expect_rejected(
        params, data, [](auto& p) { p.challenges[0].exp_parents[0].rows.back() += kOne; },
        "expander parent 0 (node");
    expect_rejected(
        params, data, [](auto& p) { p.challenges[0].drg_parents[4].rows[0] += kOne; }, "DRG parent 4 (node");
    expect_rejected(
        params, data, [](auto& p) { p.challenges[0].drg_parents[4].rows.pop_back(); }, "rows, not");
    {  // two parents' columns exchanged (DRG parents can repeat a node: pick two different ones)
      const auto parents = porep_graph(params, data.porep_id).parents(data.challenges[1]);
      unsigned other = 1;
      while (parents[other] == parents[0]) ++other;
      expect_rejected(
          params, data,
          [=](auto& p) {
            auto& ch = p.challenges[1];
            std::swap(ch.drg_parents[0], other < 6 ? ch.drg_parents[other] : ch.exp_parents[other - 6]);
          },
          "is not node " + std::to_string(parents[0]) + "'s digit");
    }
    expect_rejected(
        params, data, [=](auto& p) { p.challenges[0].exp_parents[3].path.levels[last].index ^= 1; },
        "expander parent 3");
    expect_rejected(
        params, data, [](auto& p) { p.challenges[1].comm_c_path.levels[0].siblings[6] += kOne; },
        "the column of the labels recomputed from the parents does not lead to comm_c");
    expect_rejected(
        params, data, [](auto& p) { p.challenges[1].comm_c_path.levels[1].siblings.pop_back(); },
        "own column tree C: level 1 (arity 8) has 6 siblings, not 7");
    expect_rejected(
        params, data, [=](auto& p) { p.challenges[0].comm_r_last_path.levels[last].siblings[0] += kOne; },
        "encoded (last label + data leaf) does not lead to comm_r_last");
    expect_rejected(
        params, data, [](auto& p) { p.challenges[0].comm_r_last_path.levels[0].index = 8; },
        "tree R_last: level 0 (arity 8) index 8 is out of range");
    expect_rejected(
        params, data, [](auto& p) { p.challenges[0].comm_r_last_path.levels.push_back({}); },
        "tree R_last: the path has");
    expect_rejected(
        params, data, [](auto& p) { p.challenges[1].challenge ^= 1; }, "challenge 1 (node");
    expect_rejected(
        params, data, [](auto& p) { p.challenges[1].challenge = 0; }, "out of range");
    expect_rejected(
        params, data, [](auto& p) { p.replica_id += kOne; }, "recomputed from the parents");
    // The top binary level of 64 GiB (the sub level at 32 GiB).
    expect_rejected(
        params, data, [=](auto& p) { p.challenges[1].comm_c_path.levels[last].index ^= 1; },
        "own column tree C: level " + std::to_string(last));
  }
  // Challenges other than the partition's.
  const PorepParams& params = porep_params_for("2KiB");
  const PorepTestPartition data = make_test_porep_partition(params, 9);
  std::vector<std::uint64_t> other = data.challenges;
  other[0] = other[0] % 63 + 1;
  EXPECT_THROW(verify_porep_vanilla(params, porep_graph(params, data.porep_id), data.proof, other),
               std::runtime_error);
}

// Every partition of a sector from one set of trees: shared roots, each partition's own challenges, each
// passing the verifier.
void expect_consistent_sector(const PorepParams& params, const PorepTestSector& sector) {
  ASSERT_EQ(sector.partitions.size(), params.partitions);
  EXPECT_EQ(sector.porep_id, porep_id_for(registered_seal_proof_v1_1(params)));
  const SdrGraph graph = porep_graph(params, sector.porep_id);
  const PorepPartitionProof& first = sector.partitions[0].proof;
  EXPECT_EQ(first.replica_id, fr_from_repr(sector.replica_id));
  for (unsigned k = 0; k < params.partitions; ++k) {
    const PorepTestPartition& part = sector.partitions[k];
    SCOPED_TRACE("partition " + std::to_string(k));
    EXPECT_EQ(part.partition, k);
    EXPECT_EQ(part.porep_id, sector.porep_id);
    EXPECT_EQ(part.interactive_seed, sector.interactive_seed);
    EXPECT_EQ(part.proof.replica_id, first.replica_id);
    EXPECT_EQ(part.proof.comm_d, first.comm_d);
    EXPECT_EQ(part.proof.comm_c, first.comm_c);
    EXPECT_EQ(part.proof.comm_r_last, first.comm_r_last);
    EXPECT_EQ(part.proof.comm_r, first.comm_r);
    const auto expected =
        interactive_challenges(params.nodes, sector.replica_id, sector.interactive_seed,
                               params.challenges_per_partition, static_cast<std::uint8_t>(k));
    EXPECT_EQ(part.challenges, expected);
    EXPECT_NO_THROW(verify_porep_vanilla(params, graph, part.proof, expected));
    EXPECT_EQ(part.public_inputs, porep_public_inputs(graph, part.proof));
  }
}

TEST(PorepTestSector, OnePartitionIsTheSingleTestPartition) {
  for (const char* size : {"2KiB", "8MiB"}) {
    const PorepParams& params = porep_params_for(size);
    const PorepTestSector sector = make_test_porep_sector(params, 21);
    expect_consistent_sector(params, sector);
    // With one partition the sector's trees are the single partition's: the same data, value for value.
    const PorepTestPartition single = make_test_porep_partition(params, 21, 0);
    EXPECT_EQ(sector.partitions[0].public_inputs, single.public_inputs);
    EXPECT_EQ(sector.partitions[0].proof.comm_c, single.proof.comm_c);
    EXPECT_EQ(sector.partitions[0].proof.challenges[1].comm_r_last_path.levels[0].siblings,
              single.proof.challenges[1].comm_r_last_path.levels[0].siblings);
    EXPECT_NE(sector.ticket, make_test_porep_sector(params, 22).ticket);
    EXPECT_NE(sector.ticket, sector.interactive_seed);
  }
}

TEST(PorepTestSector, SeveralPartitionsShareTheTrees) {
  // A 2 KiB sector proved in 3 partitions (a shape no proof type has, but cheap: the sparse trees then
  // hold 6 challenges of 64 nodes, most of them each other's parents).
  PorepParams params = porep_params_for("2KiB");
  params.partitions = 3;
  for (std::uint64_t seed : {1, 2, 3}) {
    const PorepTestSector sector = make_test_porep_sector(params, seed);
    expect_consistent_sector(params, sector);
    // The single-partition generator's trees differ (they hold one partition's challenges).
    EXPECT_NE(make_test_porep_partition(params, seed, 1).proof.comm_r, sector.partitions[1].proof.comm_r);
  }
}

TEST(PorepTestSector, A32GiBSectorOfTenPartitions) {
  CUZK_SKIP_UNDER_SANITIZER("10 x 18 challenges at 32 GiB");
  const PorepParams& params = porep_params_for("32GiB");
  const auto start = std::chrono::steady_clock::now();
  const PorepTestSector sector = make_test_porep_sector(params, 5);
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  std::printf("32GiB sector (10 partitions): generated in %.1f ms\n", ms);
  expect_consistent_sector(params, sector);
  EXPECT_NE(sector.partitions[3].challenges, sector.partitions[4].challenges);
}

// A Merkle tree held whole, for the small sector.
struct DenseTree {
  std::vector<unsigned> arities;
  std::vector<std::vector<Fr>> levels;  // levels[0] = leaves

  DenseTree(std::vector<unsigned> a, std::vector<Fr> leaves,
            const std::function<Fr(std::span<const Fr>)>& hash)
      : arities(std::move(a)) {
    levels.push_back(std::move(leaves));
    for (unsigned arity : arities) {
      const std::vector<Fr>& below = levels.back();
      std::vector<Fr> above;
      for (std::size_t i = 0; i < below.size(); i += arity)
        above.push_back(hash(std::span(below).subspan(i, arity)));
      levels.push_back(std::move(above));
    }
  }
  const Fr& root() const { return levels.back().at(0); }
  MerklePath path(std::uint64_t index) const {
    MerklePath p;
    for (std::size_t l = 0; l < arities.size(); ++l) {
      MerklePath::Level step;
      step.index = std::uint32_t(index % arities[l]);
      for (unsigned j = 0; j < arities[l]; ++j)
        if (j != step.index) step.siblings.push_back(levels[l][index - step.index + j]);
      p.levels.push_back(step);
      index /= arities[l];
    }
    return p;
  }
};

TEST(PorepVanillaVerify, AcceptsAWholeDenselySealed2KiBSector) {
  const PorepParams& params = porep_params_for("2KiB");
  const SdrGraph graph = porep_graph(params, porep_id_for(5));
  ReplicaId replica_id{};
  for (unsigned i = 0; i < 32; ++i) replica_id[i] = std::uint8_t(17 * i + 3);
  trim_to_fr32(replica_id);
  const auto labels = generate_labels(graph, replica_id, params.layers);
  std::vector<Fr> data, columns, encoded;
  for (std::uint64_t n = 0; n < params.nodes; ++n) {
    Bytes32 d{};
    for (unsigned i = 0; i < 32; ++i) d[i] = std::uint8_t(n * 31 + i * 7);
    trim_to_fr32(d);
    data.push_back(fr_from_repr(d));
    std::vector<Fr> rows;
    for (const auto& layer : labels) rows.push_back(fr_from_repr(layer[n]));
    columns.push_back(column_hash(rows));
    encoded.push_back(rows.back() + data.back());
  }
  const DenseTree tree_d(tree_d_arities(params), data, tree_d_hash);
  const DenseTree tree_c(tree_arities(params.tree), columns, tree_poseidon_hash);
  const DenseTree tree_r(tree_arities(params.tree), encoded, tree_poseidon_hash);

  PorepPartitionProof proof;
  proof.replica_id = fr_from_repr(replica_id);
  proof.comm_d = tree_d.root();
  proof.comm_c = tree_c.root();
  proof.comm_r_last = tree_r.root();
  const Fr pair[2] = {proof.comm_c, proof.comm_r_last};
  proof.comm_r = tree_poseidon_hash(pair);
  Bytes32 seed{};
  seed[0] = 42;
  for (std::uint64_t c :
       interactive_challenges(params.nodes, replica_id, seed, params.challenges_per_partition, 0)) {
    ChallengeProof ch;
    ch.challenge = c;
    ch.data_leaf = data[c];
    ch.comm_d_path = tree_d.path(c);
    const auto parents = graph.parents(c);
    for (unsigned i = 0; i < 14; ++i) {
      ColumnProof& col = i < 6 ? ch.drg_parents[i] : ch.exp_parents[i - 6];
      for (const auto& layer : labels) col.rows.push_back(fr_from_repr(layer[parents[i]]));
      col.path = tree_c.path(parents[i]);
    }
    ch.comm_r_last_path = tree_r.path(c);
    ch.comm_c_path = tree_c.path(c);
    EXPECT_EQ(recompute_challenge_labels(params, proof.replica_id, ch).back(),
              fr_from_repr(labels.back()[c]));
    proof.challenges.push_back(ch);
  }
  EXPECT_NO_THROW(verify_porep_vanilla(params, graph, proof));

  // The sparse tree, filled with the dense tree's values, is the dense tree.
  SparseMerkleTree sparse(tree_arities(params.tree), tree_poseidon_hash,
                          [&](unsigned level, std::uint64_t pos) { return tree_c.levels[level][pos]; });
  sparse.set_leaf(5, columns[5]);
  sparse.set_leaf(6, columns[6]);
  sparse.set_leaf(63, columns[63]);
  sparse.set_leaf(63, columns[63]);  // again, same value: allowed
  EXPECT_THROW(sparse.set_leaf(63, columns[62] + kOne), std::invalid_argument);
  EXPECT_THROW(sparse.set_leaf(64, columns[0]), std::invalid_argument);
  sparse.build();
  EXPECT_EQ(sparse.root(), tree_c.root());
  EXPECT_EQ(sparse.hashes(), 3u);  // the two bottom parents over 5, 6 and 63, then the root
  for (std::uint64_t leaf : {5, 6, 63}) {
    const MerklePath a = sparse.path(leaf), b = tree_c.path(leaf);
    ASSERT_EQ(a.levels.size(), b.levels.size());
    for (std::size_t l = 0; l < a.levels.size(); ++l) {
      EXPECT_EQ(a.levels[l].index, b.levels[l].index);
      EXPECT_EQ(a.levels[l].siblings, b.levels[l].siblings);
    }
  }
  EXPECT_THROW(sparse.path(7), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::filecoin
