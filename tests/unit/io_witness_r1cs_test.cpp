// Tests for the .wtns and .r1cs readers and writers (src/io/wtns, r1cs_file): round trips and value and
// structure errors.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>

#include "io/curve_id.hpp"
#include "io/r1cs_file.hpp"
#include "io/wtns.hpp"
#include "unit/io_test_util.hpp"

using namespace cuzk;
using namespace cuzk::test;

namespace {

TYPED_TEST_SUITE(IoCurveTest, Curves, CurveNames);

TYPED_TEST(IoCurveTest, WtnsRoundTrip) {
  using C = TypeParam;
  std::mt19937_64 rng(2);
  TempDir dir;
  auto w = random_witness<C>(rng, 37);
  w[3] = C::Fr::zero();
  w[4] = -C::Fr::one();
  const std::string path = dir.file("w.wtns");
  io::write_wtns<C>(path, w);
  EXPECT_EQ(io::read_wtns<C>(path), w);
  EXPECT_EQ(io::peek_curve(path), io::curve_id_of<C>);
  io::write_wtns<C>(path, {});
  EXPECT_TRUE(io::read_wtns<C>(path).empty());
}

TYPED_TEST(IoCurveTest, R1csRoundTrip) {
  using C = TypeParam;
  std::mt19937_64 rng(3);
  TempDir dir;
  const auto cs = random_cs<C>(rng);
  const std::string path = dir.file("c.r1cs");
  io::write_r1cs<C>(path, cs);
  const auto got = io::read_r1cs<C>(path);
  EXPECT_EQ(got.n_wires, cs.n_wires);
  EXPECT_EQ(got.n_pub_out, cs.n_pub_out);
  EXPECT_EQ(got.n_pub_in, cs.n_pub_in);
  EXPECT_EQ(got.n_prv_in, cs.n_prv_in);
  EXPECT_EQ(got.n_labels, cs.n_labels);
  ASSERT_EQ(got.constraints.size(), cs.constraints.size());
  auto same = [](const r1cs::LinearCombination<C>& x, const r1cs::LinearCombination<C>& y) {
    if (x.size() != y.size()) return false;
    for (std::size_t i = 0; i < x.size(); ++i)
      if (x[i].wire != y[i].wire || x[i].coeff != y[i].coeff) return false;
    return true;
  };
  for (std::size_t i = 0; i < cs.constraints.size(); ++i) {
    EXPECT_TRUE(same(got.constraints[i].a, cs.constraints[i].a));
    EXPECT_TRUE(same(got.constraints[i].b, cs.constraints[i].b));
    EXPECT_TRUE(same(got.constraints[i].c, cs.constraints[i].c));
  }
  EXPECT_EQ(io::peek_curve(path), io::curve_id_of<C>);
}

TYPED_TEST(IoCurveTest, WtnsAndR1csValueErrors) {
  using C = TypeParam;
  using Fr = typename C::Fr;
  TempDir dir;
  std::mt19937_64 rng(13);
  const std::string wp = dir.file("w.wtns");
  io::write_wtns<C>(wp, random_witness<C>(rng, 6));
  Bytes b = read_bytes(wp);
  const std::size_t v4 = sections_of(b).at(2).offset + 4 * 32;
  std::memcpy(b.data() + v4, Fr::modulus().v, 32);
  write_bytes(wp, b);
  EXPECT_FORMAT_ERROR(io::read_wtns<C>(wp), "section 2 (witness values) at offset " + std::to_string(v4) +
                                                ": witness value 4 is not reduced (≥ r)");
  b = read_bytes(wp);
  put_u32(b, sections_of(b).at(1).offset + 36, 7);  // nWitness 7 but 6 values
  write_bytes(wp, b);
  EXPECT_FORMAT_ERROR(io::read_wtns<C>(wp), "expected nWitness 7 × 32 = 224");
  b[4] = 1;
  write_bytes(wp, b);
  EXPECT_FORMAT_ERROR(io::read_wtns<C>(wp), "unsupported .wtns version 1 (expected 2)");

  const std::string rp = dir.file("c.r1cs");
  auto cs = random_cs<C>(rng);
  io::write_r1cs<C>(rp, cs);
  const Bytes r1cs_orig = read_bytes(rp);
  b = r1cs_orig;
  // First term of constraint 0's B (constraint 0 has an empty A): wire := nWires.
  const std::size_t s2 = sections_of(b).at(2).offset;
  put_u32(b, s2 + 8, 7);
  write_bytes(rp, b);
  EXPECT_FORMAT_ERROR(io::read_r1cs<C>(rp), "constraint 0 B term 0: wire 7 ≥ nWires 7");
  b = r1cs_orig;
  std::memset(b.data() + s2 + 12, 0xff, 32);
  write_bytes(rp, b);
  EXPECT_FORMAT_ERROR(io::read_r1cs<C>(rp), "constraint 0 B term 0: coefficient is not reduced");
  b = r1cs_orig;
  put_u32(b, s2 + 4, 0x10000000);  // B's nTerms
  write_bytes(rp, b);
  EXPECT_FORMAT_ERROR(io::read_r1cs<C>(rp), "constraint 0 B declares 268435456 terms");
  b = r1cs_orig;
  put_u32(b, sections_of(b).at(1).offset + 32 + 4 + 16 + 8, 0xffffffffu);  // nConstraints
  write_bytes(rp, b);
  EXPECT_FORMAT_ERROR(io::read_r1cs<C>(rp), "4294967295 constraints need at least");
  b = r1cs_orig;
  put_u32(b, sections_of(b).at(1).offset + 32 + 4, 2);  // nWires < 1 + inputs
  write_bytes(rp, b);
  EXPECT_FORMAT_ERROR(io::read_r1cs<C>(rp), "nWires = 2 is less than");
  b = r1cs_orig;
  put_u32(b, sections_of(b).at(3).offset - 12, 4);  // label map relabelled as custom gates
  write_bytes(rp, b);
  EXPECT_FORMAT_ERROR(io::read_r1cs<C>(rp), "custom gates");
}

}  // namespace
