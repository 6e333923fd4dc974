// bellpepper's boolean gadgets: rows and coefficients, constant folding, values, and the modes agreeing.
// Expectations from bellpepper-core's own tests (boolean.rs) where it has them.
#include <gtest/gtest.h>

#include <array>
#include <random>
#include <string>

#include "gadgets/boolean.hpp"
#include "gadgets_test_util.hpp"

namespace cuzk::gadgets {
namespace {

using testing::expect_row;
using testing::fr_int;
using testing::Recorded;
using testing::row_terms;
using testing::run_all_modes;
using testing::terms;
using testing::Terms;

// Keeps every row's three combinations as the gadget built them (zero terms included).
struct CaptureCS {
  static constexpr bool kWitness = false;
  std::uint32_t aux = 0;
  std::vector<std::array<LC, 3>> rows;
  template <class F>
  Variable alloc(F&&) {
    return Variable::aux(aux++);
  }
  template <class FA, class FB, class FC>
  void enforce(FA&& fa, FB&& fb, FC&& fc) {
    std::array<LC, 3> r;
    fa(r[0]), fb(r[1]), fc(r[2]);
    rows.push_back(std::move(r));
  }
};

TEST(AllocatedBit, AllocRowIsOneMinusXTimesX) {
  Recorded r = run_all_modes([](auto& cs) { AllocatedBit::alloc(cs, true); });
  ASSERT_EQ(r.rows(), 1u);
  ASSERT_EQ(r.num_aux(), 1u);
  expect_row(r, 0, terms({{0, 1}, {1, -1}}), terms({{1, 1}}), {});
  EXPECT_EQ(r.aux[0], Fr::one());
  r.aux[0] = Fr::zero();
  EXPECT_FALSE(r.first_unsatisfied());
  r.aux[0] = Fr::from_u64(2);
  EXPECT_EQ(r.first_unsatisfied(), std::optional<std::size_t>(0));
}

TEST(AllocatedBit, AllocConditionallyForcesZeroWhenTheConditionIsSet) {
  for (bool value : {false, true})
    for (bool must_be_false : {false, true}) {
      RecordCS<true> cs;
      const AllocatedBit m = AllocatedBit::alloc(cs, must_be_false);
      const AllocatedBit x = AllocatedBit::alloc_conditionally(cs, value, m);
      EXPECT_EQ(x.value(), value);
      EXPECT_EQ(cs.is_satisfied(), !(value && must_be_false)) << value << must_be_false;
    }
  Recorded r = run_all_modes([](auto& cs) {
    const AllocatedBit m = AllocatedBit::alloc(cs, false);
    AllocatedBit::alloc_conditionally(cs, true, m);
  });
  expect_row(r, 1, terms({{0, 1}, {1, -1}, {2, -1}}), terms({{2, 1}}), {});
}

enum class BitOp { kXor, kAnd, kAndNot, kNor };

TEST(AllocatedBit, OperationsHaveBellpeppersRowsAndValues) {
  for (BitOp op : {BitOp::kXor, BitOp::kAnd, BitOp::kAndNot, BitOp::kNor})
    for (bool av : {false, true})
      for (bool bv : {false, true}) {
        bool expected = false;
        Recorded r = run_all_modes([&](auto& cs) {
          const AllocatedBit a = AllocatedBit::alloc(cs, av), b = AllocatedBit::alloc(cs, bv);
          AllocatedBit c;
          switch (op) {
            case BitOp::kXor:
              c = AllocatedBit::xor_(cs, a, b);
              break;
            case BitOp::kAnd:
              c = AllocatedBit::and_(cs, a, b);
              break;
            case BitOp::kAndNot:
              c = AllocatedBit::and_not(cs, a, b);
              break;
            case BitOp::kNor:
              c = AllocatedBit::nor(cs, a, b);
              break;
          }
          if constexpr (std::decay_t<decltype(cs)>::kWitness) expected = c.value();
        });
        const bool want = op == BitOp::kXor      ? av != bv
                          : op == BitOp::kAnd    ? av && bv
                          : op == BitOp::kAndNot ? av && !bv
                                                 : !av && !bv;
        EXPECT_EQ(expected, want);
        ASSERT_EQ(r.rows(), 3u);
        ASSERT_EQ(r.num_aux(), 3u);
        EXPECT_EQ(r.aux[2], want ? Fr::one() : Fr::zero());
        // columns: ONE 0, a 1, b 2, c 3
        switch (op) {
          case BitOp::kXor:
            expect_row(r, 2, terms({{1, 2}}), terms({{2, 1}}), terms({{1, 1}, {2, 1}, {3, -1}}));
            break;
          case BitOp::kAnd:
            expect_row(r, 2, terms({{1, 1}}), terms({{2, 1}}), terms({{3, 1}}));
            break;
          case BitOp::kAndNot:
            expect_row(r, 2, terms({{1, 1}}), terms({{0, 1}, {2, -1}}), terms({{3, 1}}));
            break;
          case BitOp::kNor:
            expect_row(r, 2, terms({{0, 1}, {1, -1}}), terms({{0, 1}, {2, -1}}), terms({{3, 1}}));
            break;
        }
        r.aux[2] = want ? Fr::zero() : Fr::one();
        EXPECT_EQ(r.first_unsatisfied(), std::optional<std::size_t>(2));
      }
}

// bellpepper's OperandType
enum class Operand { kTrue, kFalse, kAllocTrue, kAllocFalse, kNegAllocTrue, kNegAllocFalse };
constexpr Operand kOperands[] = {Operand::kTrue,       Operand::kFalse,        Operand::kAllocTrue,
                                 Operand::kAllocFalse, Operand::kNegAllocTrue, Operand::kNegAllocFalse};

bool operand_value(Operand o) {
  return o == Operand::kTrue || o == Operand::kAllocTrue || o == Operand::kNegAllocFalse;
}
bool operand_constant(Operand o) {
  return o == Operand::kTrue || o == Operand::kFalse;
}
Boolean::Kind operand_kind(Operand o) {
  if (operand_constant(o)) return Boolean::Kind::kConstant;
  return o == Operand::kAllocTrue || o == Operand::kAllocFalse ? Boolean::Kind::kIs : Boolean::Kind::kNot;
}
template <class CS>
Boolean make(CS& cs, Operand o) {
  switch (o) {
    case Operand::kTrue:
      return Boolean::constant(true);
    case Operand::kFalse:
      return Boolean::constant(false);
    case Operand::kAllocTrue:
      return AllocatedBit::alloc(cs, true);
    case Operand::kAllocFalse:
      return AllocatedBit::alloc(cs, false);
    case Operand::kNegAllocTrue:
      return Boolean(AllocatedBit::alloc(cs, true)).not_();
    case Operand::kNegAllocFalse:
      return Boolean(AllocatedBit::alloc(cs, false)).not_();
  }
  return {};
}
Boolean::Kind flip(Boolean::Kind k) {
  return k == Boolean::Kind::kIs ? Boolean::Kind::kNot : k == Boolean::Kind::kNot ? Boolean::Kind::kIs : k;
}

TEST(Boolean, XorFoldsConstantsAndKeepsTheIsSideFirst) {
  for (Operand x : kOperands)
    for (Operand y : kOperands) {
      Boolean out;
      Recorded r = run_all_modes([&](auto& cs) {
        const Boolean a = make(cs, x), b = make(cs, y);
        const Boolean c = Boolean::xor_(cs, a, b);
        if constexpr (std::decay_t<decltype(cs)>::kWitness) out = c;
      });
      const std::string where = std::to_string(int(x)) + "," + std::to_string(int(y));
      EXPECT_EQ(out.value(), operand_value(x) != operand_value(y)) << where;
      Boolean::Kind want;
      if (x == Operand::kFalse)
        want = operand_kind(y);
      else if (y == Operand::kFalse)
        want = operand_kind(x);
      else if (x == Operand::kTrue)
        want = flip(operand_kind(y));
      else if (y == Operand::kTrue)
        want = flip(operand_kind(x));
      else
        want = operand_kind(x) == operand_kind(y) ? Boolean::Kind::kIs : Boolean::Kind::kNot;
      EXPECT_EQ(out.kind(), want) << where;
      const bool allocates = !operand_constant(x) && !operand_constant(y);
      const std::uint64_t inputs_rows = !operand_constant(x) + !operand_constant(y);
      ASSERT_EQ(r.rows(), inputs_rows + allocates) << where;
      if (allocates) {
        // The Is operand is the doubled one: columns a 1, b 2, c 3.
        const std::uint32_t is_col =
            operand_kind(x) == Boolean::Kind::kIs || operand_kind(y) != Boolean::Kind::kIs ? 1 : 2;
        const std::uint32_t other = 3 - is_col;
        expect_row(r, 2, terms({{is_col, 2}}), terms({{other, 1}}), terms({{1, 1}, {2, 1}, {3, -1}}));
      }
    }
}

TEST(Boolean, AndFoldsConstantsAndPicksAndAndNotOrNor) {
  for (Operand x : kOperands)
    for (Operand y : kOperands) {
      Boolean out;
      Recorded r = run_all_modes([&](auto& cs) {
        const Boolean a = make(cs, x), b = make(cs, y);
        const Boolean c = Boolean::and_(cs, a, b);
        if constexpr (std::decay_t<decltype(cs)>::kWitness) out = c;
      });
      const std::string where = std::to_string(int(x)) + "," + std::to_string(int(y));
      EXPECT_EQ(out.value(), operand_value(x) && operand_value(y)) << where;
      Boolean::Kind want;
      if (x == Operand::kFalse || y == Operand::kFalse)
        want = Boolean::Kind::kConstant;
      else if (x == Operand::kTrue)
        want = operand_kind(y);
      else if (y == Operand::kTrue)
        want = operand_kind(x);
      else
        want = Boolean::Kind::kIs;
      EXPECT_EQ(out.kind(), want) << where;
      const bool allocates = !operand_constant(x) && !operand_constant(y);
      ASSERT_EQ(r.rows(), std::uint64_t(!operand_constant(x) + !operand_constant(y) + allocates)) << where;
      if (!allocates) continue;
      const Boolean::Kind kx = operand_kind(x), ky = operand_kind(y);
      if (kx == Boolean::Kind::kIs && ky == Boolean::Kind::kIs)
        expect_row(r, 2, terms({{1, 1}}), terms({{2, 1}}), terms({{3, 1}}));
      else if (kx == Boolean::Kind::kNot && ky == Boolean::Kind::kNot)
        expect_row(r, 2, terms({{0, 1}, {1, -1}}), terms({{0, 1}, {2, -1}}), terms({{3, 1}}));
      else if (kx == Boolean::Kind::kIs)
        expect_row(r, 2, terms({{1, 1}}), terms({{0, 1}, {2, -1}}), terms({{3, 1}}));
      else
        expect_row(r, 2, terms({{2, 1}}), terms({{0, 1}, {1, -1}}), terms({{3, 1}}));
    }
}

TEST(Boolean, OrIsNotAndOfNots) {
  for (Operand x : kOperands)
    for (Operand y : kOperands) {
      Boolean out;
      run_all_modes([&](auto& cs) {
        const Boolean c = Boolean::or_(cs, make(cs, x), make(cs, y));
        if constexpr (std::decay_t<decltype(cs)>::kWitness) out = c;
      });
      EXPECT_EQ(out.value(), operand_value(x) || operand_value(y));
    }
}

TEST(Boolean, EnforceEqual) {
  for (bool a_bool : {false, true})
    for (bool b_bool : {false, true})
      for (bool a_neg : {false, true})
        for (bool b_neg : {false, true}) {
          const bool equal = (a_bool != a_neg) == (b_bool != b_neg);
          for (int form = 0; form < 3; ++form) {  // both allocated, a constant, b constant
            RecordCS<true> cs;
            Boolean a = form == 1 ? Boolean::constant(a_bool) : Boolean(AllocatedBit::alloc(cs, a_bool));
            Boolean b = form == 2 ? Boolean::constant(b_bool) : Boolean(AllocatedBit::alloc(cs, b_bool));
            if (a_neg) a = a.not_();
            if (b_neg) b = b.not_();
            Boolean::enforce_equal(cs, a, b);
            EXPECT_EQ(cs.is_satisfied(), equal);
          }
          ShapeCS cs;
          Boolean a = Boolean::constant(a_bool), b = Boolean::constant(b_bool);
          if (a_neg) a = a.not_();
          if (b_neg) b = b.not_();
          if (equal) {
            Boolean::enforce_equal(cs, a, b);
            EXPECT_EQ(cs.num_constraints(), 0u);
          } else {
            EXPECT_THROW(Boolean::enforce_equal(cs, a, b), SynthesisError);
          }
        }
  // Constant(true) = Not(x): C = ONE - (ONE - x). bellpepper's combination keeps a zero term for ONE; the
  // recorded row (like bellperson's density trackers) has only x.
  Recorded r = run_all_modes([](auto& cs) {
    const Boolean x = Boolean(AllocatedBit::alloc(cs, false)).not_();
    Boolean::enforce_equal(cs, Boolean::constant(true), x);
  });
  expect_row(r, 1, {}, {}, terms({{1, 1}}));
  // The combination itself, as bellpepper builds it, has the zero term.
  CaptureCS cap;
  const Boolean x = Boolean(AllocatedBit::alloc(cap, false)).not_();
  Boolean::enforce_equal(cap, Boolean::constant(true), x);
  ASSERT_EQ(cap.rows.size(), 2u);
  const LC& c = cap.rows[1][2];
  ASSERT_EQ(c.inputs().size(), 1u);
  EXPECT_TRUE(c.inputs()[0].coeff.is_zero());
  ASSERT_EQ(c.aux().size(), 1u);
  EXPECT_EQ(c.aux()[0].coeff, Fr::one());
}

template <bool kMaj>
void check_ch_or_maj() {
  for (Operand x : kOperands)
    for (Operand y : kOperands)
      for (Operand z : kOperands) {
        Boolean out;
        std::uint64_t aux_before = 0;
        Recorded r = run_all_modes([&](auto& cs) {
          const Boolean a = make(cs, x), b = make(cs, y), c = make(cs, z);
          if constexpr (requires { cs.num_aux(); })
            aux_before = cs.num_aux();
          else
            aux_before = cs.aux_written();  // an evaluation slice from the first variable on
          const Boolean o = kMaj ? Boolean::sha256_maj(cs, a, b, c) : Boolean::sha256_ch(cs, a, b, c);
          if constexpr (std::decay_t<decltype(cs)>::kWitness) out = o;
        });
        const bool a = operand_value(x), b = operand_value(y), c = operand_value(z);
        const bool want = kMaj ? ((a && b) != (a && c)) != (b && c) : (a && b) != (!a && c);
        const std::string where =
            std::to_string(int(x)) + "," + std::to_string(int(y)) + "," + std::to_string(int(z));
        EXPECT_EQ(out.value(), want) << where;
        const std::uint64_t operand_rows = aux_before;
        const std::uint64_t own_rows = r.rows() - operand_rows;
        EXPECT_EQ(r.num_aux() - aux_before, own_rows) << where;  // every new variable is one row
        if (operand_constant(x) && operand_constant(y) && operand_constant(z)) {
          EXPECT_EQ(r.rows(), 0u) << where;
        }
        const bool general = kMaj ? !operand_constant(x) && !operand_constant(y) && !operand_constant(z)
                                  : (x == Operand::kTrue || !operand_constant(x)) && !operand_constant(y) &&
                                        !operand_constant(z);
        if (!general) {
          EXPECT_LE(own_rows, 1u) << where;  // at most one and
          continue;
        }
        ASSERT_EQ(own_rows, kMaj ? 2u : 1u) << where;
        // The result is the first variable allocated (maj before its b ∧ c helper), its row the last.
        ASSERT_EQ(out.kind(), Boolean::Kind::kIs);
        EXPECT_EQ(out.variable(), Variable::aux(static_cast<std::uint32_t>(aux_before)));
        r.value(out.variable()) = want ? Fr::zero() : Fr::one();
        EXPECT_EQ(r.first_unsatisfied(), std::optional<std::size_t>(r.rows() - 1)) << where;
        if (kMaj) {
          r.value(out.variable()) = want ? Fr::one() : Fr::zero();
          Fr& bc = r.aux[aux_before + 1];
          bc = Fr::one() - bc;
          EXPECT_EQ(r.first_unsatisfied(), std::optional<std::size_t>(r.rows() - 2)) << where;
        }
      }
}

TEST(Boolean, Sha256ChFoldsAndAllocatesOneVariable) {
  check_ch_or_maj<false>();
}
TEST(Boolean, Sha256MajAllocatesMajBeforeItsHelper) {
  check_ch_or_maj<true>();
}

TEST(Boolean, Sha256ChAndMajRows) {
  // All three allocated (a, b, c: columns 1, 2, 3), b negated.
  Recorded ch = run_all_modes([](auto& cs) {
    const Boolean a = AllocatedBit::alloc(cs, true), b = Boolean(AllocatedBit::alloc(cs, false)).not_();
    const Boolean c = AllocatedBit::alloc(cs, false);
    Boolean::sha256_ch(cs, a, b, c);
  });
  // a·(b - c) = ch - c with b = 1 - x2
  expect_row(ch, 3, terms({{0, 1}, {2, -1}, {3, -1}}), terms({{1, 1}}), terms({{3, -1}, {4, 1}}));
  Recorded maj = run_all_modes([](auto& cs) {
    const Boolean a = AllocatedBit::alloc(cs, true), b = Boolean(AllocatedBit::alloc(cs, false)).not_();
    const Boolean c = AllocatedBit::alloc(cs, false);
    Boolean::sha256_maj(cs, a, b, c);
  });
  // maj is column 4, bc = and_not(c, x2) column 5: c·(1 - x2) = bc; (2bc - b - c)·a = bc - maj
  expect_row(maj, 3, terms({{3, 1}}), terms({{0, 1}, {2, -1}}), terms({{5, 1}}));
  expect_row(maj, 4, terms({{0, -1}, {2, 1}, {3, -1}, {5, 2}}), terms({{1, 1}}), terms({{4, -1}, {5, 1}}));
}

TEST(Boolean, U64IntoBooleanVecLe) {
  std::vector<Boolean> bits;
  const std::uint64_t v = 17234652694787248421ull;
  Recorded r = run_all_modes([&](auto& cs) {
    auto b = u64_into_boolean_vec_le(cs, v);
    if constexpr (std::decay_t<decltype(cs)>::kWitness) bits = b;
  });
  ASSERT_EQ(bits.size(), 64u);
  EXPECT_EQ(r.rows(), 64u);
  // bellpepper's assertions, then every bit
  for (int i : {0, 1, 2, 4, 5, 20}) EXPECT_TRUE(bits[63 - i].value());
  for (int i : {3, 21, 22}) EXPECT_FALSE(bits[63 - i].value());
  for (int i = 0; i < 64; ++i) EXPECT_EQ(bits[i].value(), ((v >> i) & 1) != 0);
}

Fr fr_decimal(const std::string& s) {
  Fr acc = Fr::zero();
  for (char ch : s) acc = acc * Fr::from_u64(10) + Fr::from_u64(ch - '0');
  return acc;
}

TEST(Boolean, FieldIntoAllocatedBitsLe) {
  const Fr x = fr_decimal("9147677615426976802526883532204139322118074541891858454835346926874644257775");
  std::vector<AllocatedBit> bits;
  Recorded r = run_all_modes([&](auto& cs) {
    auto b = field_into_allocated_bits_le(cs, x);
    if constexpr (std::decay_t<decltype(cs)>::kWitness) bits = b;
  });
  ASSERT_EQ(bits.size(), 255u);
  EXPECT_EQ(r.rows(), 255u);
  for (int i : {2, 4, 20, 23}) EXPECT_TRUE(bits[254 - i].value());
  for (int i : {0, 1, 3, 5}) EXPECT_FALSE(bits[254 - i].value());
  Fr back = Fr::zero();
  for (int i = 254; i >= 0; --i) back = back.dbl() + (bits[i].value() ? Fr::one() : Fr::zero());
  EXPECT_EQ(back, x);
}

// Random Boolean circuits: every mode agrees and the record is satisfied by the witness.
TEST(Boolean, RandomCircuitsAgreeAcrossModes) {
  std::mt19937_64 rng(29);
  for (int round = 0; round < 20; ++round) {
    std::vector<std::uint64_t> script(400);
    for (auto& s : script) s = rng();
    std::vector<bool> outputs;
    Recorded r = run_all_modes([&](auto& cs) {
      std::vector<Boolean> pool{Boolean::constant(false), Boolean::constant(true)};
      std::vector<bool> outs;
      for (std::uint64_t s : script) {
        auto pick = [&](int k) {
          const Boolean& b = pool[(s >> (8 + 16 * k)) % pool.size()];
          return (s >> (7 + 16 * k)) & 1 ? b.not_() : b;
        };
        switch (s % 8) {
          case 0:
            pool.push_back(AllocatedBit::alloc(cs, (s >> 5) & 1));
            break;
          case 1:
            pool.push_back(Boolean::xor_(cs, pick(0), pick(1)));
            break;
          case 2:
            pool.push_back(Boolean::and_(cs, pick(0), pick(1)));
            break;
          case 3:
            pool.push_back(Boolean::or_(cs, pick(0), pick(1)));
            break;
          case 4:
            pool.push_back(Boolean::sha256_ch(cs, pick(0), pick(1), pick(2)));
            break;
          case 5:
            pool.push_back(Boolean::sha256_maj(cs, pick(0), pick(1), pick(2)));
            break;
          case 6: {
            const Boolean x = pick(0);
            const Boolean y = Boolean::xor_(cs, x, Boolean::constant(false));
            if (!(x.is_constant() && y.is_constant())) Boolean::enforce_equal(cs, x, y);
            break;
          }
          default:  // mostly allocated, sometimes a constant
            if ((s >> 50) % 4 == 0)
              pool.push_back(Boolean::constant((s >> 5) & 1));
            else
              pool.push_back(AllocatedBit::alloc(cs, (s >> 5) & 1));
            break;
        }
      }
      if constexpr (std::decay_t<decltype(cs)>::kWitness) {
        for (const Boolean& b : pool) outs.push_back(b.value());
        outputs = outs;
      }
    });
    EXPECT_GT(r.rows(), 150u);
    // The values follow the logic: re-evaluate the script on plain bools.
    std::vector<bool> pool{false, true};
    for (std::uint64_t s : script) {
      auto pick = [&](int k) {
        return pool[(s >> (8 + 16 * k)) % pool.size()] != (((s >> (7 + 16 * k)) & 1) != 0);
      };
      switch (s % 8) {
        case 0:
          pool.push_back((s >> 5) & 1);
          break;
        case 1:
          pool.push_back(pick(0) != pick(1));
          break;
        case 2:
          pool.push_back(pick(0) && pick(1));
          break;
        case 3:
          pool.push_back(pick(0) || pick(1));
          break;
        case 4:
          pool.push_back((pick(0) && pick(1)) != (!pick(0) && pick(2)));
          break;
        case 5:
          pool.push_back(((pick(0) && pick(1)) != (pick(0) && pick(2))) != (pick(1) && pick(2)));
          break;
        case 6:
          break;
        default:
          pool.push_back((s >> 5) & 1);
          break;
      }
    }
    EXPECT_EQ(outputs, pool);
  }
}

}  // namespace
}  // namespace cuzk::gadgets
