// The PoRep-shaped generator: sizes at K = 27 as the real partition, proportions at small K, every
// witness satisfies the matrices (checked with the CPU SpMV), determinism from the seed.
#include <gtest/gtest.h>

#include <set>

#include "ec/bls12_381.hpp"
#include "r1cs/porep_like.hpp"
#include "r1cs/synthetic.hpp"

namespace cuzk::r1cs {
namespace {

using Fr = Bls12_381::Fr;

TEST(PorepLike, FullSizeShapeIsThePorepPartition) {
  const auto s = porep_shape(27);
  EXPECT_EQ(s.constraints, 130278869u);
  EXPECT_EQ(s.publics, 328u);
  EXPECT_EQ(s.booleans + s.dense + s.derived, 130169893u);
  for (unsigned k = 10; k <= 27; ++k) {
    const auto t = porep_shape(k);
    EXPECT_LE(t.constraints + t.publics + 1, std::uint64_t(1) << k) << "K = " << k;
  }
  EXPECT_THROW(porep_shape(9), std::invalid_argument);
  EXPECT_THROW(porep_shape(28), std::invalid_argument);
}

TEST(PorepLike, WitnessesSatisfyTheMatricesWithPorepProportions) {
  const unsigned k = 15;
  const auto g = porep_like<Fr>(k, 42, 3);
  const auto& s = g.system;
  const auto shape = porep_shape(k);
  ASSERT_EQ(s.a.rows(), shape.constraints);
  ASSERT_EQ(g.witnesses.size(), 3u);
  for (const auto& w : g.witnesses) {
    ASSERT_EQ(w.size(), s.n_vars);
    const auto a = spmv(s.a, w), b = spmv(s.b, w), c = spmv(s.c, w);
    for (std::size_t r = 0; r < a.size(); ++r) ASSERT_EQ(a[r] * b[r], c[r]) << "row " << r;
  }
  EXPECT_NE(g.witnesses[0], g.witnesses[1]);
  const double rows = double(s.a.rows());
  EXPECT_NEAR(s.a.nnz() / rows, 2.375, 0.1);
  EXPECT_NEAR(s.b.nnz() / rows, 1.0, 0.05);
  EXPECT_NEAR(s.c.nnz() / rows, 2.17, 0.1);
  // Aux variables in A (nearly all) and in B (a quarter); mostly 0/1 values.
  const std::uint32_t aux0 = 1 + s.n_public;
  std::set<std::uint32_t> in_a(s.a.col.begin(), s.a.col.end()), in_b(s.b.col.begin(), s.b.col.end());
  const double aux = s.n_vars - aux0;
  EXPECT_GE(std::count_if(in_a.begin(), in_a.end(), [&](auto v) { return v >= aux0; }) / aux, 0.99);
  EXPECT_NEAR(std::count_if(in_b.begin(), in_b.end(), [&](auto v) { return v >= aux0; }) / aux, 0.254, 0.01);
  const auto& w = g.witnesses[0];
  const auto bits = std::count_if(w.begin(), w.end(), [](const Fr& x) { return x.is_zero() || x.is_one(); });
  EXPECT_GT(double(bits) / w.size(), 0.6);
  EXPECT_LT(double(bits) / w.size(), 0.95);  // and some dense values
  // The term-list form is the same system.
  const auto cs = to_constraint_system<Bls12_381>(s);
  EXPECT_TRUE(satisfied(cs, g.witnesses[2]));
  EXPECT_EQ(cs.n_public(), s.n_public);
}

TEST(PorepLike, DeterministicFromTheSeed) {
  const auto a = porep_like<Fr>(12, 7, 1), b = porep_like<Fr>(12, 7, 1), c = porep_like<Fr>(12, 8, 1);
  EXPECT_EQ(a.system.a.col, b.system.a.col);
  EXPECT_EQ(a.system.c.val, b.system.c.val);
  EXPECT_EQ(a.witnesses, b.witnesses);
  EXPECT_NE(a.system.a.col, c.system.a.col);
}

TEST(Spmv, MatchesAHandComputedProduct) {
  Csr<Fr> m;
  m.add(0, Fr::from_u64(2));
  m.add(2, Fr::from_u64(3));
  m.end_row();
  m.end_row();  // an empty row
  m.add(1, -Fr::one());
  m.end_row();
  const std::vector<Fr> w = {Fr::from_u64(5), Fr::from_u64(7), Fr::from_u64(11)};
  const auto y = spmv(m, w);
  ASSERT_EQ(y.size(), 3u);
  EXPECT_EQ(y[0], Fr::from_u64(43));
  EXPECT_EQ(y[1], Fr::zero());
  EXPECT_EQ(y[2], -Fr::from_u64(7));
  m.add(9, Fr::one());
  m.end_row();
  EXPECT_THROW(spmv(m, w), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::r1cs
