// The insertion and Merkle inclusion gadgets against rust-fil-proofs' own tests (storage-proofs-core
// gadgets/insertion.rs test_insert, tests/por_circuit.rs): their row counts, and satisfied by real paths
// through full trees, refused by a wrong one.
#include <gtest/gtest.h>

#include <random>

#include "filecoin/por_circuit.hpp"
#include "filecoin/porep_vanilla_verify.hpp"
#include "gadgets/constraint_system.hpp"
#include "gadgets/insertion.hpp"

namespace cuzk::filecoin {
namespace {

Fr random_fr(std::mt19937_64& rng) {
  return Fr::from_int({{rng(), rng(), rng(), rng() >> 2}});
}

TEST(Insertion, RowCountsAndPlacement) {
  std::mt19937_64 rng(1);
  for (unsigned log_size = 1; log_size <= 4; ++log_size) {
    const std::size_t size = std::size_t{1} << log_size;
    for (std::size_t index = 0; index < size; ++index) {
      gadgets::RecordCS<true> cs;
      std::vector<AllocatedNum> elements;
      for (std::size_t i = 0; i + 1 < size; ++i) elements.push_back(AllocatedNum::alloc(cs, random_fr(rng)));
      const AllocatedNum x = AllocatedNum::alloc(cs, random_fr(rng));
      std::vector<Boolean> bits;
      for (unsigned i = 0; i < log_size; ++i)
        bits.push_back(gadgets::AllocatedBit::alloc(cs, (index >> i) & 1));
      const std::uint64_t before = cs.num_constraints();
      const std::vector<AllocatedNum> out =
          gadgets::insert(cs, x, std::span<const Boolean>(bits), std::span<const AllocatedNum>(elements));
      // test_insert: 22 for 8 (unoptimised 56), 8 for 4 (12), size·(size − 1) otherwise.
      const std::uint64_t expected = size == 8 ? 22 : size == 4 ? 8 : size * (size - 1);
      EXPECT_EQ(cs.num_constraints() - before, expected) << "size " << size;
      EXPECT_TRUE(cs.is_satisfied());
      for (std::size_t pos = 0, e = 0; pos < size; ++pos)
        EXPECT_EQ(out[pos].value(), pos == index ? x.value() : elements[e++].value()) << size << "/" << index;
    }
  }
}

// A full Poseidon tree over random leaves with the given arities (leaf side first): its root and the path of
// one leaf.
struct FullTree {
  Fr root;
  MerklePath path;
};
FullTree full_tree(std::span<const unsigned> arities, std::uint64_t node, std::mt19937_64& rng, Fr& leaf) {
  std::uint64_t leaves = 1;
  for (unsigned a : arities) leaves *= a;
  std::vector<Fr> level(leaves);
  for (Fr& x : level) x = random_fr(rng);
  leaf = level[node];
  FullTree t;
  std::uint64_t at = node;
  for (unsigned a : arities) {
    MerklePath::Level l;
    l.index = static_cast<std::uint32_t>(at % a);
    for (unsigned i = 0; i < a; ++i)
      if (i != l.index) l.siblings.push_back(level[at - at % a + i]);
    t.path.levels.push_back(l);
    std::vector<Fr> up(level.size() / a);
    for (std::size_t i = 0; i < up.size(); ++i)
      up[i] = tree_poseidon_hash(std::span<const Fr>(level).subspan(i * a, a));
    level = std::move(up);
    at /= a;
  }
  t.root = level[0];
  return t;
}

TEST(MerkleInclusion, RustFilProofsPorCountsAndSatisfaction) {
  struct Case {
    std::vector<unsigned> arities;
    std::uint64_t rows;
  };
  // por_circuit.rs, 64 leaves per base tree: the private-root counts for base 2, 4, 8 (1,886 / 1,163 /
  // 1,062); the public-root counts less their root's inputize row for sub 8-2, sub 8-8, top 8-4-2, top 8-8-2
  // (1,377 / 1,593 / 1,764 / 1,907 − 1). The PoRep circuit's inclusions keep their roots private.
  const std::vector<Case> cases{{{2, 2, 2, 2, 2, 2}, 1'886}, {{4, 4, 4}, 1'163}, {{8, 8}, 1'062},
                                {{8, 8, 2}, 1'376},          {{8, 8, 8}, 1'592}, {{8, 8, 4, 2}, 1'763},
                                {{8, 8, 8, 2}, 1'906}};
  std::mt19937_64 rng(3);
  for (const Case& c : cases) {
    std::uint64_t leaves = 1;
    for (unsigned a : c.arities) leaves *= a;
    const std::uint64_t node = rng() % leaves;
    Fr leaf_value;
    FullTree t = full_tree(c.arities, node, rng, leaf_value);
    const TreeLevels tree{TreeLevels::Hash::kPoseidon, c.arities};
    auto synthesize = [&](const MerklePath& path, const Fr& root_value) {
      gadgets::RecordCS<true> cs;
      const AllocatedNum leaf = AllocatedNum::alloc(cs, leaf_value);
      const AllocatedNum root = AllocatedNum::alloc(cs, root_value);
      enforce_inclusion(cs, tree, &path, leaf, root);
      EXPECT_EQ(cs.num_constraints(), c.rows) << c.arities.size() << " levels";
      EXPECT_EQ(cs.num_inputs(), 2u);  // ONE and the packed path
      EXPECT_EQ(cs.input_values()[1], Fr::from_u64(node));
      return cs.is_satisfied();
    };
    EXPECT_TRUE(synthesize(t.path, t.root));
    EXPECT_FALSE(synthesize(t.path, t.root + Fr::one()));
    MerklePath wrong = t.path;
    wrong.levels.back().siblings[0] += Fr::one();
    EXPECT_FALSE(synthesize(wrong, t.root));
  }
}

TEST(MerkleInclusion, Sha256TreeD) {
  // por_circuit.rs test_por_circuit_sha256_base_2: 272,295 rows with 64 leaves (6 levels) and a public root;
  // private: 272,294.
  std::mt19937_64 rng(4);
  std::vector<Fr> level(64);
  for (Fr& x : level) x = random_fr(rng);
  const std::uint64_t node = 37;
  const Fr leaf_value = level[node];
  MerklePath path;
  std::uint64_t at = node;
  while (level.size() > 1) {
    path.levels.push_back({static_cast<std::uint32_t>(at % 2), {level[at ^ 1]}});
    std::vector<Fr> up(level.size() / 2);
    for (std::size_t i = 0; i < up.size(); ++i)
      up[i] = tree_d_hash(std::span<const Fr>(level).subspan(2 * i, 2));
    level = std::move(up);
    at /= 2;
  }
  gadgets::RecordCS<true> cs;
  const AllocatedNum leaf = AllocatedNum::alloc(cs, leaf_value);
  const AllocatedNum root = AllocatedNum::alloc(cs, level[0]);
  enforce_inclusion(cs, tree_d_levels(6), &path, leaf, root);
  EXPECT_EQ(cs.num_constraints(), 272'294u);
  EXPECT_TRUE(cs.is_satisfied());
}

}  // namespace
}  // namespace cuzk::filecoin
