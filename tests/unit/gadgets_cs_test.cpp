// The constraint-system core: bellpepper's linear-combination merging, and the three modes agreeing.
#include <gtest/gtest.h>

#include <random>

#include "gadgets/constraint_system.hpp"

namespace cuzk::gadgets {
namespace {

TEST(LinearCombination, MergesRepeatedVariablesSortedAndKeepsZeroTerms) {
  LC lc;
  lc.add(Variable::aux(5), Fr::from_u64(2))
      .add(Variable::aux(1))
      .add(kOne)
      .add(Variable::aux(5), Fr::from_u64(3));
  lc.sub(Variable::aux(1));  // sums to zero: bellpepper keeps the term
  ASSERT_EQ(lc.inputs().size(), 1u);
  ASSERT_EQ(lc.aux().size(), 2u);
  EXPECT_EQ(lc.aux()[0].index, 1u);
  EXPECT_TRUE(lc.aux()[0].coeff.is_zero());
  EXPECT_EQ(lc.aux()[1].index, 5u);
  EXPECT_EQ(lc.aux()[1].coeff, Fr::from_u64(5));
  LC other(Variable::aux(3), Fr::from_u64(7));
  lc.add(Fr::from_u64(2), other);
  ASSERT_EQ(lc.aux().size(), 3u);
  EXPECT_EQ(lc.aux()[1].index, 3u);
  EXPECT_EQ(lc.aux()[1].coeff, Fr::from_u64(14));
  std::vector<Fr> in{Fr::one()}, aux(6);
  for (std::size_t i = 0; i < aux.size(); ++i) aux[i] = Fr::from_u64(10 + i);
  // 1 + 0·11 + 14·13 + 5·15
  EXPECT_EQ(lc.eval(in, aux), Fr::from_u64(1 + 14 * 13 + 5 * 15));
}

// x_{i+1} = x_i · y_i with a public output: a toy circuit run in every mode.
template <class CS>
Fr toy(CS& cs, const std::vector<std::uint64_t>& ys) {
  Fr x = Fr::from_u64(3);
  Variable xv = cs.alloc([&] { return x; });
  for (std::uint64_t y : ys) {
    Fr next = x * Fr::from_u64(y);
    Variable yv = cs.alloc([&] { return Fr::from_u64(y); });
    Variable nv = cs.alloc([&] { return next; });
    cs.enforce([&](LC& a) { a.add(xv); }, [&](LC& b) { b.add(yv); }, [&](LC& c) { c.add(nv); });
    x = next, xv = nv;
  }
  Variable out = cs.alloc_input([&] { return x; });
  cs.enforce([&](LC& a) { a.add(xv).add(kOne).sub(kOne); }, [&](LC& b) { b.add(kOne); },
             [&](LC& c) { c.add(out); });
  return x;
}

TEST(ConstraintSystem, ModesAgreeAndRecordIsSatisfied) {
  std::vector<std::uint64_t> ys{2, 5, 7, 11};
  ShapeCS shape;
  toy(shape, ys);
  RecordCS<true> rec;
  toy(rec, ys);
  WitnessCS wit;
  const Fr out = toy(wit, ys);
  EXPECT_EQ(out, Fr::from_u64(3 * 2 * 5 * 7 * 11));
  EXPECT_EQ(shape.num_constraints(), 5u);
  EXPECT_EQ(shape.num_inputs(), 2u);
  EXPECT_EQ(shape.num_aux(), 9u);
  EXPECT_EQ(rec.num_constraints(), shape.num_constraints());
  EXPECT_EQ(wit.num_aux(), shape.num_aux());
  EXPECT_EQ(wit.num_inputs(), shape.num_inputs());
  EXPECT_EQ(shape.shape().nnz_a, 5u);  // ONE − ONE merges into one zero term, not stored
  EXPECT_EQ(shape.shape().nnz_b, 5u);
  EXPECT_EQ(shape.shape().a_aux.popcount(), 5u);
  EXPECT_EQ(shape.shape().b_aux.popcount(), 4u);
  EXPECT_EQ(shape.shape().b_input.popcount(), 1u);  // ONE
  EXPECT_TRUE(rec.is_satisfied());
  EXPECT_EQ(rec.shape().a_aux, shape.shape().a_aux);

  auto input_values = std::vector<Fr>(rec.input_values().begin(), rec.input_values().end());
  auto aux_values = std::vector<Fr>(rec.aux_values().begin(), rec.aux_values().end());
  PrecompiledCircuit pc = std::move(rec).finish();
  EXPECT_EQ(pc.system.n_vars, 11u);
  EXPECT_EQ(pc.system.n_public, 1u);
  EXPECT_EQ(pc.system.a.rows(), 5u);
  EXPECT_EQ(pc.system.a.nnz(), 5u);
  EXPECT_FALSE(first_unsatisfied_row(pc.system, wit.input_values(), wit.aux_values()));
  aux_values[4] += Fr::one();
  EXPECT_EQ(first_unsatisfied_row(pc.system, input_values, aux_values), std::optional<std::size_t>(1));
  const auto full = pc.with_input_rows();
  EXPECT_EQ(full.a.rows(), 7u);
  EXPECT_EQ(full.b.rows(), 7u);
}

TEST(ConstraintSystem, SliceWritesAtTheCircuitsNumbersAndRefusesOverflow) {
  std::vector<Fr> inputs(3), aux(4);
  WitnessSlice s(std::span<Fr>(inputs).subspan(1), 1, std::span<Fr>(aux).subspan(2), 2);
  EXPECT_EQ(s.alloc([] { return Fr::from_u64(9); }), Variable::aux(2));
  EXPECT_EQ(s.alloc_input([] { return Fr::from_u64(8); }), Variable::input(1));
  EXPECT_EQ(aux[2], Fr::from_u64(9));
  EXPECT_EQ(inputs[1], Fr::from_u64(8));
  s.alloc([] { return Fr::one(); });
  EXPECT_THROW(s.alloc([] { return Fr::one(); }), SynthesisError);
}

TEST(ConstraintSystem, ShapeModeNeverComputesValues) {
  ShapeCS cs;
  cs.alloc([]() -> Fr { throw std::logic_error("value computed in shape mode"); });
  RecordCS<> rec;
  rec.alloc([]() -> Fr { throw std::logic_error("value computed in record mode"); });
  EXPECT_EQ(cs.num_aux(), 1u);
}

}  // namespace
}  // namespace cuzk::gadgets
