// Tests for the point codecs: snarkjs' LEM encoding (src/io/point_codec) and the zcash BLS12-381
// encoding (src/io/zcash_codec), including subgroup and flag checks.
#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "ec/scalar_mul.hpp"
#include "ff/encoding.hpp"
#include "io/point_codec.hpp"
#include "io/zcash_codec.hpp"
#include "unit/io_test_util.hpp"

using namespace cuzk;
using namespace cuzk::test;

namespace {

TYPED_TEST_SUITE(IoCurveTest, Curves, CurveNames);

// ---- LEM codec ---------------------------------------------------------------------------------------

TYPED_TEST(IoCurveTest, LemCodec) {
  using C = TypeParam;
  using G1 = typename C::G1;
  using G2 = typename C::G2;
  std::mt19937_64 rng(14);
  const G2 p2 = rand_g2<C>(rng);
  std::uint8_t buf[io::lem_size<G2>];
  static_assert(io::lem_size<G1> == 2 * C::Fq::bytes() && io::lem_size<G2> == 4 * C::Fq::bytes());
  io::encode_lem(p2, buf);
  G2 back;
  EXPECT_EQ(io::decode_lem(buf, back), io::PointStatus::ok);
  EXPECT_TRUE(back == p2);
  // LEM coordinate = x·2^(8·n8q) mod q: Montgomery form with our R.
  typename C::Fq x;
  std::memcpy(x.l, buf, C::Fq::bytes());
  EXPECT_TRUE(x == p2.x.c0);

  std::memset(buf, 0, sizeof buf);
  EXPECT_EQ(io::decode_lem(buf, back), io::PointStatus::ok);
  EXPECT_TRUE(back.is_infinity());

  std::vector<G1> pts(5);
  for (auto& p : pts) p = rand_g1<C>(rng);
  pts[2] = G1::infinity();
  std::vector<std::uint8_t> arr(pts.size() * io::lem_size<G1>);
  for (std::size_t i = 0; i < pts.size(); ++i) io::encode_lem(pts[i], arr.data() + i * io::lem_size<G1>);
  std::vector<G1> dec(pts.size());
  EXPECT_EQ(io::decode_lem_array(arr.data(), pts.size(), dec.data()).status, io::PointStatus::ok);
  EXPECT_EQ(dec, pts);
  arr[3 * io::lem_size<G1> + 1] ^= 0x40;  // x of point 3
  arr[4 * io::lem_size<G1> + 1] ^= 0x40;
  const auto res = io::decode_lem_array(arr.data(), pts.size(), dec.data());
  EXPECT_EQ(res.bad_index, 3u);
  EXPECT_NE(res.status, io::PointStatus::ok);
  std::memset(arr.data(), 0xff, C::Fq::bytes());
  EXPECT_EQ(io::decode_lem_array(arr.data(), pts.size(), dec.data()).status,
            io::PointStatus::coordinate_not_reduced);
}

// ---- zcash codec (BLS12-381) --------------------------------------------------------------------------

std::string hex(std::span<const std::uint8_t> b) {
  static const char* d = "0123456789abcdef";
  std::string s;
  for (auto c : b) {
    s += d[c >> 4];
    s += d[c & 15];
  }
  return s;
}

Bytes unhex(const std::string& s) {
  Bytes b;
  for (std::size_t i = 0; i + 1 < s.size(); i += 2)
    b.push_back(static_cast<std::uint8_t>(std::stoi(s.substr(i, 2), nullptr, 16)));
  return b;
}

TEST(IoZcash, KnownGenerators) {
  using namespace io::zcash;
  const auto g1 = Bls12_381::G1Cfg::generator();
  EXPECT_EQ(
      hex(encode_g1_compressed(g1)),
      "97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb");
  const auto g2 = Bls12_381::G2Cfg::generator();
  EXPECT_EQ(
      hex(encode_g2_compressed(g2)),
      "93e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e"
      "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8");
  EXPECT_EQ(
      hex(encode_g1_uncompressed(g1)),
      "17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb"
      "08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1");
  G1 p;
  const Bytes enc = unhex(
      "97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb");
  EXPECT_EQ(decode_g1(enc, p), io::PointStatus::ok);
  EXPECT_TRUE(p == g1);
  // −G1 differs only in the sort flag.
  auto neg = encode_g1_compressed(-g1);
  EXPECT_EQ(neg[0], 0xb7);
  EXPECT_EQ(decode_g1(neg, p), io::PointStatus::ok);
  EXPECT_TRUE(p == -g1);
}

TEST(IoZcash, RoundTrips) {
  using namespace io::zcash;
  std::mt19937_64 rng(15);
  for (int i = 0; i < 6; ++i) {
    const G1 a = i == 0 ? G1::infinity() : rand_g1<Bls12_381>(rng);
    const G2 b = i == 0 ? G2::infinity() : rand_g2<Bls12_381>(rng);
    G1 a2;
    G2 b2;
    EXPECT_EQ(decode_g1(encode_g1_compressed(a), a2), io::PointStatus::ok);
    EXPECT_TRUE(a2 == a);
    EXPECT_EQ(decode_g1(encode_g1_uncompressed(a), a2, false), io::PointStatus::ok);
    EXPECT_TRUE(a2 == a);
    EXPECT_EQ(decode_g2(encode_g2_compressed(b), b2), io::PointStatus::ok);
    EXPECT_TRUE(b2 == b);
    EXPECT_EQ(decode_g2(encode_g2_uncompressed(b), b2, false), io::PointStatus::ok);
    EXPECT_TRUE(b2 == b);
    // The negation flips the sort flag only (y ≠ 0 for these points).
    if (i > 0) {
      EXPECT_EQ(encode_g2_compressed(b)[0] ^ encode_g2_compressed(-b)[0], 0x20);
      EXPECT_EQ(decode_g2(encode_g2_compressed(-b), b2), io::PointStatus::ok);
      EXPECT_TRUE(b2 == -b);
    }
  }
  EXPECT_EQ(hex(encode_g1_compressed(G1::infinity())).substr(0, 4), "c000");
  EXPECT_EQ(hex(encode_g2_uncompressed(G2::infinity())).substr(0, 4), "4000");
}

TEST(IoZcash, LexicographicOrder) {
  using Fq = Bls12_381::Fq;
  using Fq2 = Bls12_381::Fq2;
  const Fq half = Fq::from_int(ff::bigint_shr(ff::bigint_sub_u64(Fq::modulus(), 1), 1));
  EXPECT_FALSE(io::zcash::lexicographically_largest(half));
  EXPECT_TRUE(io::zcash::lexicographically_largest(half + Fq::one()));
  EXPECT_FALSE(io::zcash::lexicographically_largest(Fq::zero()));
  EXPECT_TRUE(io::zcash::lexicographically_largest(-Fq::one()));
  // Fp2: c1 decides; c0 only when c1 = 0.
  EXPECT_TRUE(io::zcash::lexicographically_largest(Fq2{Fq::one(), -Fq::one()}));
  EXPECT_FALSE(io::zcash::lexicographically_largest(Fq2{-Fq::one(), Fq::one()}));
  EXPECT_TRUE(io::zcash::lexicographically_largest(Fq2{-Fq::one(), Fq::zero()}));
}

// A point on the curve but outside the order-r subgroup: y² = x³ + b for the smallest suitable x.
template <class Cfg>
ec::Affine<Cfg> off_subgroup_point() {
  using F = typename Cfg::F;
  F x = F::zero();
  for (;;) {
    x += F::one();
    F y;
    const F rhs = x.sqr() * x + Cfg::b();
    if (rhs.sqrt(y) && y.sqr() == rhs) {
      ec::Affine<Cfg> p{x, y};
      if (!ec::in_prime_subgroup(p)) return p;
    }
  }
}

TEST(IoZcash, DecodeErrors) {
  using namespace io::zcash;
  using io::PointStatus;
  const auto g1 = Bls12_381::G1Cfg::generator();
  G1 p;
  G2 q;
  auto c = encode_g1_compressed(g1);
  auto u = encode_g1_uncompressed(g1);

  EXPECT_EQ(decode_g1(std::span(c.data(), 47), p), PointStatus::bad_length);
  auto c2 = c;
  c2[0] &= 0x7f;  // compression flag missing on a 48-byte input
  EXPECT_EQ(decode_g1(c2, p), PointStatus::bad_flags);
  auto u2 = u;
  u2[0] |= 0x80;  // compression flag on a 96-byte input
  EXPECT_EQ(decode_g1(u2, p), PointStatus::bad_flags);
  u2 = u;
  u2[0] |= 0x20;  // sort flag on an uncompressed point
  EXPECT_EQ(decode_g1(u2, p), PointStatus::bad_flags);
  u2 = u;
  u2[95] ^= 1;
  EXPECT_EQ(decode_g1(u2, p), PointStatus::not_on_curve);
  // Infinity with junk.
  auto inf = encode_g1_compressed(G1::infinity());
  inf[47] = 1;
  EXPECT_EQ(decode_g1(inf, p), PointStatus::bad_infinity);
  inf = encode_g1_compressed(G1::infinity());
  inf[0] |= 0x20;
  EXPECT_EQ(decode_g1(inf, p), PointStatus::bad_infinity);
  // x ≥ q.
  std::array<std::uint8_t, 48> big{};
  ff::to_bytes_be(Bls12_381::Fq::zero(), big.data(), 48);
  {
    const auto m = Bls12_381::Fq::modulus();
    for (int i = 0; i < 48; ++i) big[47 - i] = static_cast<std::uint8_t>(m.v[i / 8] >> (8 * (i % 8)));
    big[0] |= 0x80;
  }
  EXPECT_EQ(decode_g1(big, p), PointStatus::coordinate_not_reduced);
  // x with no square root for x³ + 4: search a small one.
  for (std::uint64_t x = 1;; ++x) {
    const auto fx = Bls12_381::Fq::from_u64(x);
    if ((fx.sqr() * fx + Bls12_381::G1Cfg::b()).legendre() == -1) {
      auto e = encode_g1_compressed(G1{fx, fx});  // y is ignored; flags from y's sign
      e[0] = static_cast<std::uint8_t>((e[0] & 0x1f) | 0x80);
      EXPECT_EQ(decode_g1(e, p), PointStatus::x_not_on_curve);
      break;
    }
  }
  // Subgroup checks, G1 and G2.
  const G1 o1 = off_subgroup_point<Bls12_381::G1Cfg>();
  EXPECT_EQ(decode_g1(encode_g1_compressed(o1), p), PointStatus::not_in_subgroup);
  EXPECT_EQ(decode_g1(encode_g1_compressed(o1), p, false), PointStatus::ok);
  EXPECT_TRUE(p == o1);
  EXPECT_EQ(decode_g1(encode_g1_uncompressed(o1), p), PointStatus::not_in_subgroup);
  const G2 o2 = off_subgroup_point<Bls12_381::G2Cfg>();
  EXPECT_EQ(decode_g2(encode_g2_compressed(o2), q), PointStatus::not_in_subgroup);
  EXPECT_EQ(decode_g2(encode_g2_compressed(o2), q, false), PointStatus::ok);
  EXPECT_TRUE(q == o2);
}

}  // namespace
