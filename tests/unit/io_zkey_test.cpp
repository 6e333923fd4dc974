// Tests for the .zkey reader and writer (src/io/zkey): round trips and the section layout, byte-for-byte
// agreement with snarkjs, and structural and value errors reported with file, section and offset.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <random>
#include <string>

#include "io/curve_id.hpp"
#include "io/zkey.hpp"
#include "unit/io_test_util.hpp"

using namespace cuzk;
using namespace cuzk::test;

namespace {

TYPED_TEST_SUITE(IoCurveTest, Curves, CurveNames);

template <class Curve>
void expect_pk_equal(const groth16::ProvingKey<Curve>& x, const groth16::ProvingKey<Curve>& y) {
  EXPECT_EQ(x.n_vars, y.n_vars);
  EXPECT_EQ(x.n_public, y.n_public);
  EXPECT_EQ(x.domain_size, y.domain_size);
  EXPECT_TRUE(x.alpha1 == y.alpha1 && x.beta1 == y.beta1 && x.delta1 == y.delta1);
  EXPECT_TRUE(x.beta2 == y.beta2 && x.gamma2 == y.gamma2 && x.delta2 == y.delta2);
  EXPECT_EQ(x.ic, y.ic);
  EXPECT_EQ(x.a, y.a);
  EXPECT_EQ(x.b1, y.b1);
  EXPECT_EQ(x.b2, y.b2);
  EXPECT_EQ(x.c, y.c);
  EXPECT_EQ(x.h, y.h);
  ASSERT_EQ(x.coefs.size(), y.coefs.size());
  for (std::size_t i = 0; i < x.coefs.size(); ++i) {
    EXPECT_EQ(x.coefs[i].matrix, y.coefs[i].matrix);
    EXPECT_EQ(x.coefs[i].constraint, y.coefs[i].constraint);
    EXPECT_EQ(x.coefs[i].signal, y.coefs[i].signal);
    EXPECT_TRUE(x.coefs[i].value == y.coefs[i].value) << "coefficient " << i;
  }
}

TYPED_TEST(IoCurveTest, ZkeyRoundTrip) {
  using C = TypeParam;
  std::mt19937_64 rng(1);
  TempDir dir;
  const auto pk = random_pk<C>(rng);
  const std::string path = dir.file("k.zkey");
  io::write_zkey<C>(path, pk);
  expect_pk_equal(io::read_zkey<C>(path), pk);
  EXPECT_FALSE(fs::exists(path + ".partial"));

  // Layout: sections 1..10 in order, section 10 = 64 zero bytes + u32 0.
  const Bytes b = read_bytes(path);
  const auto secs = sections_of(b);
  ASSERT_EQ(secs.size(), 10u);
  std::uint32_t expect_id = 1;
  for (auto [id, s] : secs) EXPECT_EQ(id, expect_id++);
  EXPECT_EQ(secs.at(10).size, 68u);
  EXPECT_EQ(b.size(), secs.at(10).offset + 68);

  const auto info = io::describe_zkey(path);
  EXPECT_EQ(info.curve, io::curve_id_of<C>);
  EXPECT_EQ(info.n_vars, 6u);
  EXPECT_EQ(info.n_public, 2u);
  EXPECT_EQ(info.domain_size, 8u);
  EXPECT_EQ(info.n_coefs, pk.coefs.size());
  EXPECT_EQ(info.sections.size(), 10u);
  EXPECT_NE(info.to_string().find(C::snarkjs_name), std::string::npos);
  EXPECT_EQ(io::peek_curve(path), io::curve_id_of<C>);

  // Verifying only: the header, the verifying key and IC; nothing else is decoded or held.
  const auto v = io::read_zkey<C>(path, io::MappedFile(path), true);
  EXPECT_EQ(v.n_vars, pk.n_vars);
  EXPECT_EQ(v.n_public, pk.n_public);
  EXPECT_EQ(v.domain_size, pk.domain_size);
  EXPECT_TRUE(v.verifying_key().alpha1 == pk.verifying_key().alpha1);
  EXPECT_TRUE(v.delta2 == pk.delta2 && v.gamma2 == pk.gamma2 && v.beta2 == pk.beta2);
  EXPECT_EQ(v.ic, pk.ic);
  EXPECT_TRUE(v.coefs.empty() && v.a.empty() && v.b1.empty() && v.b2.empty() && v.c.empty() && v.h.empty());
}

// write_zkey reproduces snarkjs' bytes for sections 1–9 (snarkjs writes them in another order).
TYPED_TEST(IoCurveTest, WriteZkeyMatchesSnarkjsBytes) {
  using C = TypeParam;
  TempDir dir;
  const std::string src = fixture_dir<C>() + "/multiplier.zkey";
  const std::string out = dir.file("re.zkey");
  io::write_zkey<C>(out, io::read_zkey<C>(src));
  const Bytes a = read_bytes(src), b = read_bytes(out);
  const auto sa = sections_of(a), sb = sections_of(b);
  for (std::uint32_t id = 1; id <= 9; ++id) {
    ASSERT_EQ(sa.at(id).size, sb.at(id).size) << "section " << id;
    EXPECT_EQ(0, std::memcmp(a.data() + sa.at(id).offset, b.data() + sb.at(id).offset, sa.at(id).size))
        << "section " << id;
  }
}

TYPED_TEST(IoCurveTest, ZkeyStructuralErrors) {
  using C = TypeParam;
  using Fq = typename C::Fq;
  TempDir dir;
  const std::string src = fixture_dir<C>() + "/multiplier.zkey";
  const Bytes good = read_bytes(src);
  const std::string bad = dir.file("bad.zkey");
  auto with = [&](auto&& mutate) {
    Bytes b = good;
    mutate(b);
    write_bytes(bad, b);
  };
  auto read = [&] { return io::read_zkey<C>(bad); };
  const auto secs = sections_of(good);
  const std::size_t g1 = 2 * Fq::bytes();

  with([](Bytes& b) { b[0] = 'w'; });
  EXPECT_FORMAT_ERROR(read(), "magic is \"wkey\", expected \"zkey\"");
  with([](Bytes& b) { put_u32(b, 4, 2); });
  EXPECT_FORMAT_ERROR(read(), "unsupported .zkey version 2 (expected 1)");
  with([&](Bytes& b) { put_u32(b, secs.at(1).offset, 2); });
  EXPECT_FORMAT_ERROR(read(), "protocol 2 (plonk) is not supported");
  with([&](Bytes& b) { put_u32(b, secs.at(1).offset, 10); });
  EXPECT_FORMAT_ERROR(read(), "protocol 10 (fflonk)");
  // Duplicate id: relabel section 10 as 9.
  with([&](Bytes& b) { put_u32(b, secs.at(10).offset - 12, 9); });
  EXPECT_FORMAT_ERROR(read(), "section 9 appears twice");
  // Missing section: relabel section 8 as 42.
  with([&](Bytes& b) { put_u32(b, secs.at(8).offset - 12, 42); });
  EXPECT_FORMAT_ERROR(read(), "missing section 8 (C points)");
  // Section declares more bytes than the file has.
  with([&](Bytes& b) { put_u64(b, size_field_of(b, 9), 1ull << 62); });
  EXPECT_FORMAT_ERROR(read(), "declares 4611686018427387904 bytes");
  // Section size vs. counts: grow section 3 by one byte by stealing it from a rewritten file.
  {
    Bytes b;
    b.insert(b.end(), good.begin(),
             good.begin() + static_cast<std::ptrdiff_t>(secs.at(3).offset + secs.at(3).size));
    b.push_back(0);
    b.insert(b.end(), good.begin() + static_cast<std::ptrdiff_t>(secs.at(3).offset + secs.at(3).size),
             good.end());
    put_u64(b, secs.at(3).offset - 8, secs.at(3).size + 1);
    write_bytes(bad, b);
    EXPECT_FORMAT_ERROR(read(), "section 3 (IC points) at offset " + std::to_string(secs.at(3).offset) +
                                    ": section size is " + std::to_string(secs.at(3).size + 1) + " bytes");
  }
  // nPublic ≥ nVars.
  const std::size_t hdr_counts = secs.at(2).offset + 4 + Fq::bytes() + 4 + 32;
  with([&](Bytes& b) { put_u32(b, hdr_counts + 4, 4); });
  EXPECT_FORMAT_ERROR(read(), "need nVars ≥ nPublic + 1");
  with([&](Bytes& b) { put_u32(b, hdr_counts + 8, 6); });
  EXPECT_FORMAT_ERROR(read(), "domainSize = 6 is not a power of two");
  // Changing nVars changes expected section sizes: reported against the first point section.
  with([&](Bytes& b) { put_u32(b, hdr_counts, 5); });
  EXPECT_FORMAT_ERROR(read(), "section 5 (A points)");

  // Coordinate ≥ q: write q itself into H[2].x.
  const std::size_t h2 = secs.at(9).offset + 2 * g1;
  with([&](Bytes& b) {
    const auto q = Fq::modulus();
    std::memcpy(b.data() + h2, q.v, Fq::bytes());
  });
  EXPECT_FORMAT_ERROR(read(), "section 9 (H points) at offset " + std::to_string(h2) +
                                  ": H[2]: coordinate is not reduced (≥ q)");
  // Off-curve: perturb H[3].y's lowest byte (Montgomery limbs still reduced: y < q with high probability).
  const std::size_t h3 = secs.at(9).offset + 3 * g1;
  with([&](Bytes& b) { b[h3 + Fq::bytes()] ^= 1; });
  EXPECT_FORMAT_ERROR(read(),
                      "section 9 (H points) at offset " + std::to_string(h3) + ": H[3]: point not on curve");
  // Off-curve α1 in the header.
  const std::size_t alpha = hdr_counts + 12;
  with([&](Bytes& b) { b[alpha] ^= 1; });
  EXPECT_FORMAT_ERROR(read(), "alpha1: point not on curve");
  // G2: perturb B2[0].x.c1 (B2[0] may be infinity; pick the first finite one).
  {
    const auto pk = io::read_zkey<C>(src);
    std::size_t i = 0;
    while (pk.b2[i].is_infinity()) ++i;
    const std::size_t at = secs.at(7).offset + i * 2 * g1;
    with([&](Bytes& b) { b[at + Fq::bytes()] ^= 1; });
    EXPECT_FORMAT_ERROR(read(), "B2[" + std::to_string(i) + "]: point not on curve");
  }

  // Coefficient records: matrix, constraint, signal, value.
  const std::size_t coef0 = secs.at(4).offset + 4;
  with([&](Bytes& b) { put_u32(b, coef0, 2); });
  EXPECT_FORMAT_ERROR(read(), "coefficient 0: matrix 2, expected 0 (A) or 1 (B)");
  with([&](Bytes& b) { put_u32(b, coef0 + 4, 4); });
  EXPECT_FORMAT_ERROR(read(), "coefficient 0: constraint 4 ≥ domainSize 4");
  with([&](Bytes& b) { put_u32(b, coef0 + 8, 4); });
  EXPECT_FORMAT_ERROR(read(), "coefficient 0: signal 4 ≥ nVars 4");
  with([&](Bytes& b) { std::memset(b.data() + coef0 + 12, 0xff, 32); });
  EXPECT_FORMAT_ERROR(read(), "coefficient 0: value is not reduced (≥ r)");
  // Records are decoded in parallel: of two bad ones the first is named, at its field's offset.
  {
    std::uint32_t count = 0;
    std::memcpy(&count, good.data() + secs.at(4).offset, 4);
    ASSERT_GE(count, 3u);
    const std::size_t second = coef0 + 44 * 1, last = coef0 + 44 * (count - 1);
    with([&](Bytes& b) {
      put_u32(b, last, 7);           // matrix 7
      put_u32(b, second + 8, 1000);  // signal 1000
    });
    EXPECT_FORMAT_ERROR(read(),
                        "at offset " + std::to_string(second + 8) + ": coefficient 1: signal 1000 ≥ nVars");
  }
  with([&](Bytes& b) { put_u32(b, secs.at(4).offset, 0xffffffffu); });
  EXPECT_FORMAT_ERROR(read(), "4 + nCoefs 4294967295 × 44");

  // File and section named with offsets in the message.
  with([&](Bytes& b) { put_u32(b, coef0, 7); });
  EXPECT_FORMAT_ERROR(read(), bad + ": section 4 (coefficients) at offset " + std::to_string(coef0));

  EXPECT_FORMAT_ERROR(io::read_zkey<C>(dir.file("does_not_exist.zkey")), "cannot open");
  EXPECT_FORMAT_ERROR(io::read_zkey<C>(dir.file("")), "is a directory");
}

}  // namespace
