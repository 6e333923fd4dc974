// bellpepper's AllocatedNum / Num and bellperson's multipack: rows and coefficients, values, tampering, and
// every mode agreeing. Expectations from bellpepper-core's num.rs and bellperson's multipack.rs tests.
#include <gtest/gtest.h>

#include <iostream>
#include <random>
#include <vector>

#include "gadgets/multipack.hpp"
#include "gadgets/num.hpp"
#include "gadgets_test_util.hpp"

namespace cuzk::gadgets {
namespace {

using testing::expect_row;
using testing::fr_int;
using testing::is_witness;
using testing::Recorded;
using testing::row_terms;
using testing::run_all_modes;
using testing::terms;
using testing::Terms;

Fr random_fr(std::mt19937_64& rng) {
  Fr x = Fr::zero();
  for (int i = 0; i < 4; ++i)
    x = x * Fr::from_u64(1ull << 32) * Fr::from_u64(1ull << 32) + Fr::from_u64(rng());
  return x;
}

TEST(AllocatedNum, AllocHasNoRowAndKeepsTheValue) {
  Recorded r = run_all_modes([](auto& cs) {
    const AllocatedNum n = AllocatedNum::alloc(cs, Fr::one());
    if (is_witness(cs)) {
      EXPECT_EQ(n.value(), Fr::one());
    }
  });
  EXPECT_EQ(r.rows(), 0u);
  EXPECT_EQ(r.num_aux(), 1u);
  EXPECT_EQ(r.aux[0], Fr::one());
  ShapeCS shape;
  EXPECT_FALSE(
      AllocatedNum::alloc(shape, [&]() -> Fr { throw std::logic_error("computed in shape mode"); }).known());
}

TEST(AllocatedNum, InputizeAllocatesAnInputEqualToIt) {
  Recorded r = run_all_modes([](auto& cs) {
    const AllocatedNum n = AllocatedNum::alloc(cs, Fr::from_u64(42));
    n.inputize(cs);
  });
  ASSERT_EQ(r.num_inputs(), 2u);
  EXPECT_EQ(r.inputs[1], Fr::from_u64(42));
  // columns: ONE 0, input 1, n 2
  expect_row(r, 0, terms({{1, 1}}), terms({{0, 1}}), terms({{2, 1}}));
  r.inputs[1] = Fr::from_u64(43);
  EXPECT_EQ(r.first_unsatisfied(), std::optional<std::size_t>(0));
}

TEST(AllocatedNum, SquareAndMul) {
  Recorded sq = run_all_modes([](auto& cs) {
    const AllocatedNum n = AllocatedNum::alloc(cs, Fr::from_u64(3));
    const AllocatedNum n2 = n.square(cs);
    if (is_witness(cs)) {
      EXPECT_EQ(n2.value(), Fr::from_u64(9));
    }
  });
  expect_row(sq, 0, terms({{1, 1}}), terms({{1, 1}}), terms({{2, 1}}));
  EXPECT_EQ(sq.aux[1], Fr::from_u64(9));
  sq.aux[1] = Fr::from_u64(10);
  EXPECT_EQ(sq.first_unsatisfied(), std::optional<std::size_t>(0));

  Recorded mul = run_all_modes([](auto& cs) {
    const AllocatedNum a = AllocatedNum::alloc(cs, Fr::from_u64(12)),
                       b = AllocatedNum::alloc(cs, Fr::from_u64(10));
    const AllocatedNum p = a.mul(cs, b);
    if (is_witness(cs)) {
      EXPECT_EQ(p.value(), Fr::from_u64(120));
    }
  });
  expect_row(mul, 0, terms({{1, 1}}), terms({{2, 1}}), terms({{3, 1}}));
  EXPECT_EQ(mul.aux[2], Fr::from_u64(120));
  mul.aux[2] = Fr::from_u64(121);
  EXPECT_EQ(mul.first_unsatisfied(), std::optional<std::size_t>(0));
}

TEST(AllocatedNum, AssertNonzero) {
  Recorded r = run_all_modes([](auto& cs) { AllocatedNum::alloc(cs, Fr::from_u64(3)).assert_nonzero(cs); });
  expect_row(r, 0, terms({{1, 1}}), terms({{2, 1}}), terms({{0, 1}}));
  EXPECT_EQ(r.aux[1] * Fr::from_u64(3), Fr::one());
  r.aux[1] = Fr::from_u64(3);
  EXPECT_EQ(r.first_unsatisfied(), std::optional<std::size_t>(0));
  WitnessCS wit;
  const AllocatedNum zero = AllocatedNum::alloc(wit, Fr::zero());
  EXPECT_THROW(zero.assert_nonzero(wit), SynthesisError);
  ShapeCS shape;  // no value, no error: the keygen side
  AllocatedNum::alloc(shape, Fr::zero()).assert_nonzero(shape);
  EXPECT_EQ(shape.num_constraints(), 1u);
}

TEST(AllocatedNum, ConditionallyReverse) {
  std::mt19937_64 rng(3);
  for (int cond = 0; cond < 4; ++cond) {  // constant false, constant true, allocated false, allocated true
    const Fr x = random_fr(rng), y = random_fr(rng);
    std::pair<Fr, Fr> out;
    Recorded r = run_all_modes([&](auto& cs) {
      const AllocatedNum a = AllocatedNum::alloc(cs, x), b = AllocatedNum::alloc(cs, y);
      const Boolean c = cond < 2 ? Boolean::constant(cond == 1) : Boolean(AllocatedBit::alloc(cs, cond == 3));
      const auto [p, q] = AllocatedNum::conditionally_reverse(cs, a, b, c);
      if (is_witness(cs)) out = {p.value(), q.value()};
    });
    const bool swap = cond == 1 || cond == 3;
    EXPECT_EQ(out.first, swap ? y : x);
    EXPECT_EQ(out.second, swap ? x : y);
    const std::size_t first = cond < 2 ? 0 : 1;
    // columns: a 1, b 2, (condition 3,) c, d
    const std::uint32_t c_col = cond < 2 ? 3 : 4;
    const Terms cond_lc = cond == 0 ? Terms{} : cond == 1 ? terms({{0, 1}}) : terms({{3, 1}});
    expect_row(r, first, terms({{1, 1}, {2, -1}}), cond_lc, terms({{1, 1}, {c_col, -1}}));
    expect_row(r, first + 1, terms({{1, -1}, {2, 1}}), cond_lc, terms({{2, 1}, {c_col + 1, -1}}));
  }
}

TEST(AllocatedNum, ToBitsLeIs255BitsAndOnePackingRow) {
  std::mt19937_64 rng(5);
  for (int t = 0; t < 20; ++t) {
    const Fr x = random_fr(rng);
    std::vector<Boolean> bits;
    Recorded r = run_all_modes([&](auto& cs) {
      const AllocatedNum n = AllocatedNum::alloc(cs, x);
      auto b = n.to_bits_le(cs);
      if (is_witness(cs)) bits = b;
    });
    ASSERT_EQ(bits.size(), 255u);
    ASSERT_EQ(r.rows(), 256u);
    ASSERT_EQ(r.num_aux(), 256u);
    const auto xi = x.to_int();
    for (std::size_t i = 0; i < 255; ++i) {
      EXPECT_EQ(bits[i].kind(), Boolean::Kind::kIs);
      EXPECT_EQ(bits[i].value(), ((xi.v[i / 64] >> (i % 64)) & 1) != 0);
    }
    // The packing row: 0·0 = Σ 2^i·bit_i - num; the num (column 1) comes first.
    const auto c = row_terms(r.pc.system.c, 255);
    ASSERT_EQ(c.size(), 256u);
    EXPECT_EQ(c[0].first, 1u);
    EXPECT_EQ(c[0].second, -Fr::one());
    for (std::size_t i = 0; i < 255; ++i) EXPECT_EQ(c[1 + i].second, kPow2[i]);
    EXPECT_TRUE(row_terms(r.pc.system.a, 255).empty());
    EXPECT_TRUE(row_terms(r.pc.system.b, 255).empty());
    // bellpepper's tampering: another num, then each bit flipped, must break it
    r.aux[0] = random_fr(rng);
    EXPECT_EQ(r.first_unsatisfied(), std::optional<std::size_t>(255));
    r.aux[0] = x;
    for (std::size_t i = 1; i <= 255; i += 37) {
      r.aux[i] = Fr::one() - r.aux[i];
      EXPECT_TRUE(r.first_unsatisfied());
      r.aux[i] = Fr::one() - r.aux[i];
    }
    EXPECT_FALSE(r.first_unsatisfied());
  }
}

TEST(AllocatedNum, ToBitsLeStrict) {
  std::mt19937_64 rng(7);
  for (int t = 0; t < 10; ++t) {
    const Fr x = t == 0 ? -Fr::one() : random_fr(rng);
    std::vector<Boolean> bits;
    Recorded r = run_all_modes([&](auto& cs) {
      auto b = AllocatedNum::alloc(cs, x).to_bits_le_strict(cs);
      if (is_witness(cs)) bits = b;
    });
    ASSERT_EQ(bits.size(), 255u);
    const auto xi = x.to_int();
    for (std::size_t i = 0; i < 255; ++i) EXPECT_EQ(bits[i].value(), ((xi.v[i / 64] >> (i % 64)) & 1) != 0);
    if (t == 0) std::cout << "to_bits_le_strict: " << r.rows() << " rows, " << r.num_aux() - 1 << " aux\n";
  }
  // bellpepper's test: -1 = r - 1 passes; with bit 0 set (a zero of r - 1, below a run of ones that -1
  // matches) the value would be r. Bit 0 is allocated last, conditionally on that run's AND: its row (the one
  // before the unpacking row) rejects it.
  Recorded r = run_all_modes([](auto& cs) { AllocatedNum::alloc(cs, -Fr::one()).to_bits_le_strict(cs); });
  Fr& bit0 = r.aux[r.num_aux() - 1];
  EXPECT_EQ(bit0, Fr::zero());
  bit0 = Fr::one();
  EXPECT_EQ(r.first_unsatisfied(), std::optional<std::size_t>(r.rows() - 2));
}

TEST(Num, AddBoolWithCoeffAndLc) {
  Recorded r = run_all_modes([](auto& cs) {
    using CS = std::decay_t<decltype(cs)>;
    const Boolean a = AllocatedBit::alloc(cs, true), b = Boolean(AllocatedBit::alloc(cs, true)).not_();
    Num<CS> num;
    num.add_bool_with_coeff(a, Fr::from_u64(3)).add_bool_with_coeff(b, Fr::from_u64(5));
    num.add_bool_with_coeff(Boolean::constant(true), Fr::from_u64(7));
    if (is_witness(cs)) {
      EXPECT_EQ(num.value(), Fr::from_u64(3 + 0 + 7));
    }
    const AllocatedNum n = AllocatedNum::alloc(cs, [&] { return num.value(); });
    Num<CS> m(n);
    m.add(num).scale(Fr::from_u64(2));
    if (is_witness(cs)) {
      EXPECT_EQ(m.value(), Fr::from_u64(40));
    }
    // num·1 = n and m = 2n + 2num: (m)·1 = 4n
    cs.enforce([&](LC& l) { num.add_lc(l); }, [](LC& l) { l.add(kOne); },
               [&](LC& l) { l.add(n.variable()); });
    cs.enforce([&](LC& l) { m.add_lc(l); }, [](LC& l) { l.add(kOne); },
               [&](LC& l) { l.add(n.variable(), Fr::from_u64(4)); });
  });
  // num = 3a + 5(1 - b) + 7 = {ONE: 12, a: 3, b: -5}
  expect_row(r, 2, terms({{0, 12}, {1, 3}, {2, -5}}), terms({{0, 1}}), terms({{3, 1}}));
  expect_row(r, 3, terms({{0, 24}, {1, 6}, {2, -10}, {3, 2}}), terms({{0, 1}}), terms({{3, 4}}));
}

TEST(Num, WitnessModeBuildsNoCombination) {
  static_assert(!Num<WitnessCS>::kRows && !Num<WitnessSlice>::kRows);
  static_assert(Num<ShapeCS>::kRows && Num<RecordCS<false>>::kRows && Num<RecordCS<true>>::kRows);
  static_assert(sizeof(Num<WitnessCS>) < sizeof(Num<ShapeCS>));
}

TEST(Multipack, PackIntoInputsMatchesComputeMultipacking) {
  std::mt19937 rng(11);
  for (std::size_t num_bits = 0; num_bits < 1500; num_bits += (num_bits < 300 ? 1 : 23)) {
    std::vector<bool> bits(num_bits);
    for (std::size_t i = 0; i < num_bits; ++i) bits[i] = rng() % 2;
    Recorded r = run_all_modes([&](auto& cs) {
      std::vector<Boolean> circuit_bits;
      for (bool b : bits) circuit_bits.push_back(AllocatedBit::alloc(cs, b));
      pack_into_inputs(cs, circuit_bits);
    });
    const std::vector<Fr> expected = compute_multipacking(bits);
    ASSERT_EQ(r.num_inputs(), 1 + expected.size());
    EXPECT_EQ(expected.size(), (num_bits + 253) / 254);
    for (std::size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(r.inputs[1 + i], expected[i]) << num_bits;
    EXPECT_EQ(r.rows(), num_bits + expected.size());
    if (!expected.empty()) {
      r.inputs[1] += Fr::one();
      EXPECT_TRUE(r.first_unsatisfied());
    }
  }
}

TEST(Multipack, PackBitsTakesTheFirst254) {
  std::vector<bool> bits(300);
  for (std::size_t i = 0; i < bits.size(); ++i) bits[i] = (i * 7) % 3 == 0;
  Fr got;
  Recorded r = run_all_modes([&](auto& cs) {
    std::vector<Boolean> circuit_bits;
    for (std::size_t i = 0; i < bits.size(); ++i)
      circuit_bits.push_back(i % 50 == 0 ? Boolean::constant(bits[i])
                                         : Boolean(AllocatedBit::alloc(cs, bits[i])));
    const AllocatedNum n = pack_bits(cs, circuit_bits);
    if (is_witness(cs)) got = n.value();
  });
  EXPECT_EQ(got, compute_multipacking(std::vector<bool>(bits.begin(), bits.begin() + 254))[0]);
  EXPECT_EQ(r.num_inputs(), 1u);
  const std::size_t row = r.rows() - 1;
  // A: ONE (the constant true bits) and the allocated bits among the first 254; C: the packed number.
  std::size_t allocated = 0, ones = 0;
  for (std::size_t i = 0; i < 254; ++i) {
    allocated += i % 50 != 0;
    ones += i % 50 == 0 && bits[i];
  }
  EXPECT_EQ(row_terms(r.pc.system.a, row).size(), allocated + (ones > 0));
  EXPECT_EQ(row_terms(r.pc.system.c, row).size(), 1u);
  r.aux.back() += Fr::one();
  EXPECT_EQ(r.first_unsatisfied(), std::optional<std::size_t>(row));
}

TEST(Multipack, BytesToBits) {
  const std::vector<std::uint8_t> bytes{0x80, 0x01, 0xa5};
  const std::vector<bool> be = bytes_to_bits(bytes), le = bytes_to_bits_le(bytes);
  const std::vector<bool> want_be{1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 1, 0, 0, 1, 0, 1};
  const std::vector<bool> want_le{0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 1, 0, 1};
  EXPECT_EQ(be, want_be);
  EXPECT_EQ(le, want_le);
}

}  // namespace
}  // namespace cuzk::gadgets
