// Unit tests for src/ff: the four prime fields (BN254 Fq/Fr, BLS12-381 Fq/Fr) checked against GMP, the
// byte/decimal encodings, batch inversion, and the Fp2 ⊂ Fp6 ⊂ Fp12 towers of both curves.
#include <gmpxx.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "ff/batch_inverse.hpp"
#include "ff/bigint.hpp"
#include "ff/bls12_381.hpp"
#include "ff/bn254.hpp"
#include "ff/encoding.hpp"
#include "ff/sum_of_products.hpp"

namespace cuzk::ff {
// Readable failure messages for prime-field elements (found by ADL).
template <class P>
void PrintTo(const Field<P>& x, std::ostream* os) {
  *os << P::name << "(" << to_decimal(x) << ")";
}
}  // namespace cuzk::ff

namespace {

using namespace cuzk::ff;
using Rng = std::mt19937_64;
constexpr std::uint64_t kFfSeed = 0x63757a6b2d6666ULL;  // "cuzk-ff"

// ---- GMP bridges ----------------------------------------------------------------------------------
template <std::size_t N>
mpz_class to_mpz(const BigInt<N>& x) {
  mpz_class r;
  mpz_import(r.get_mpz_t(), N, -1, sizeof(u64), 0, 0, x.v);
  return r;
}
template <std::size_t N>
BigInt<N> to_bigint(const mpz_class& z) {
  BigInt<N> r{};
  EXPECT_GE(sgn(z), 0);
  EXPECT_LE(mpz_sizeinbase(z.get_mpz_t(), 2), 64 * N);
  std::size_t count = 0;
  mpz_export(r.v, &count, -1, sizeof(u64), 0, 0, z.get_mpz_t());
  return r;
}
template <class F>
mpz_class modulus_mpz() {
  return to_mpz(F::modulus());
}
template <class F>
mpz_class val(const F& x) {
  return to_mpz(x.to_int());
}
template <class F>
F from_mpz(const mpz_class& z) {
  mpz_class r;
  mpz_class p = modulus_mpz<F>();
  mpz_mod(r.get_mpz_t(), z.get_mpz_t(), p.get_mpz_t());
  return F::from_int(to_bigint<F::N>(r));
}
template <class F>
mpz_class mod(const mpz_class& z) {
  mpz_class r, p = modulus_mpz<F>();
  mpz_mod(r.get_mpz_t(), z.get_mpz_t(), p.get_mpz_t());
  return r;
}

// Uniform integer in [0, p) built from raw generator output (independent of ff::random_element).
template <class F>
mpz_class random_mpz(Rng& rng) {
  const mpz_class p = modulus_mpz<F>();
  for (;;) {
    BigInt<F::N> v{};
    for (auto& limb : v.v) limb = rng();
    mpz_class z = to_mpz(v);
    mpz_fdiv_r_2exp(z.get_mpz_t(), z.get_mpz_t(), F::bits());
    if (z < p) return z;
  }
}

// ---- prime fields ---------------------------------------------------------------------------------
template <class F>
class ffPrimeField : public ::testing::Test {};

using PrimeFields = ::testing::Types<bn254::Fq, bn254::Fr, bls12_381::Fq, bls12_381::Fr>;
struct PrimeFieldNames {
  template <class F>
  static std::string GetName(int) {
    std::string s = F::params::name;
    std::replace(s.begin(), s.end(), '.', '_');
    return s;
  }
};
TYPED_TEST_SUITE(ffPrimeField, PrimeFields, PrimeFieldNames);

TYPED_TEST(ffPrimeField, ConstantsMatchGmp) {
  using F = TypeParam;
  const mpz_class p = modulus_mpz<F>();
  const mpz_class R = mpz_class(1) << (64 * F::N);
  EXPECT_EQ(F::bits(), mpz_sizeinbase(p.get_mpz_t(), 2));
  EXPECT_EQ(to_mpz(F::R()), mod<F>(R));
  EXPECT_EQ(to_mpz(F::R2()), mod<F>(R * R));
  // inv() = -p⁻¹ mod 2^64
  mpz_class two64 = mpz_class(1) << 64, pinv;
  ASSERT_NE(mpz_invert(pinv.get_mpz_t(), p.get_mpz_t(), two64.get_mpz_t()), 0);
  mpz_class neg = (two64 - pinv) % two64;
  EXPECT_EQ(mpz_class(static_cast<unsigned long>(F::inv())), neg);
  EXPECT_EQ(static_cast<u64>(F::inv() * F::modulus().v[0]), ~u64(0));  // p·(-p⁻¹) ≡ -1
  // one() is R in Montgomery form; from_u64(1) is one().
  EXPECT_EQ(to_mpz(F::one().raw()), mod<F>(R));
  EXPECT_TRUE(F::one().is_one());
  EXPECT_EQ(F::from_u64(1), F::one());
  EXPECT_TRUE(F::zero().is_zero());
  // p - 1 = 2^s·t, t odd.
  mpz_class pm1 = p - 1;
  std::size_t s = mpz_scan1(pm1.get_mpz_t(), 0);
  EXPECT_EQ(F::two_adicity(), s);
  EXPECT_EQ(to_mpz(F::two_adic_cofactor()), mpz_class(pm1 >> s));
}

TYPED_TEST(ffPrimeField, ArithmeticMatchesGmp) {
  using F = TypeParam;
  const mpz_class p = modulus_mpz<F>();
  Rng rng(kFfSeed);
  int nonzero = 0;
  for (int it = 0; it < 1000; ++it) {
    const mpz_class A = random_mpz<F>(rng), B = random_mpz<F>(rng);
    const F a = F::from_int(to_bigint<F::N>(A)), b = F::from_int(to_bigint<F::N>(B));
    nonzero += A != 0;
    ASSERT_EQ(val(a), A);
    ASSERT_TRUE(a.is_reduced());
    // Montgomery representation: raw limbs hold A·R mod p.
    ASSERT_EQ(to_mpz(a.raw()), mod<F>(A << (64 * F::N)));

    const F sum = a + b, diff = a - b, neg = -a, prod = a * b, sq = a.sqr(), dbl = a.dbl();
    ASSERT_EQ(val(sum), mod<F>(A + B)) << "it=" << it;
    ASSERT_EQ(val(diff), mod<F>(A - B)) << "it=" << it;
    ASSERT_EQ(val(neg), mod<F>(-A)) << "it=" << it;
    ASSERT_EQ(val(prod), mod<F>(A * B)) << "it=" << it;
    ASSERT_EQ(val(sq), mod<F>(A * A)) << "it=" << it;
    ASSERT_EQ(val(dbl), mod<F>(2 * A)) << "it=" << it;
    for (const F& r : {sum, diff, neg, prod, sq, dbl}) ASSERT_TRUE(r.is_reduced());

    F c = a;
    c += b;
    EXPECT_EQ(c, sum);
    c = a;
    c -= b;
    EXPECT_EQ(c, diff);
    c = a;
    c *= b;
    EXPECT_EQ(c, prod);

    // Inverse: a·a⁻¹ = 1 and equals GMP's inverse.
    const F inv = a.inverse();
    if (A == 0) {
      EXPECT_TRUE(inv.is_zero());
    } else {
      mpz_class I;
      ASSERT_NE(mpz_invert(I.get_mpz_t(), A.get_mpz_t(), p.get_mpz_t()), 0);
      ASSERT_EQ(val(inv), I) << "it=" << it;
      ASSERT_TRUE((a * inv).is_one());
    }

    // pow with a 64-bit exponent, a full-width exponent and one wider than the modulus.
    const u64 e64 = rng();
    mpz_class R64;
    mpz_powm(R64.get_mpz_t(), A.get_mpz_t(), mpz_class(static_cast<unsigned long>(e64)).get_mpz_t(),
             p.get_mpz_t());
    ASSERT_EQ(val(a.pow(e64)), R64) << "it=" << it;
    if (it % 4 == 0) {
      BigInt<F::N + 2> ew{};
      for (auto& limb : ew.v) limb = rng();
      mpz_class Rw;
      mpz_powm(Rw.get_mpz_t(), A.get_mpz_t(), to_mpz(ew).get_mpz_t(), p.get_mpz_t());
      ASSERT_EQ(val(a.pow(ew)), Rw) << "it=" << it;
    }
  }
  EXPECT_GT(nonzero, 990);
}

TYPED_TEST(ffPrimeField, EdgeValues) {
  using F = TypeParam;
  const mpz_class p = modulus_mpz<F>();
  const std::vector<mpz_class> edges = {
      0, 1, 2, p - 1, p - 2, (p - 1) / 2, (p + 1) / 2, mpz_class(1) << 63, (mpz_class(1) << 64) - 1};
  for (const auto& A : edges) {
    const F a = from_mpz<F>(A);
    ASSERT_EQ(val(a), A);
    for (const auto& B : edges) {
      const F b = from_mpz<F>(B);
      EXPECT_EQ(val(a + b), mod<F>(A + B)) << A << " + " << B;
      EXPECT_EQ(val(a - b), mod<F>(A - B)) << A << " - " << B;
      EXPECT_EQ(val(a * b), mod<F>(A * B)) << A << " * " << B;
    }
    EXPECT_EQ(val(-a), mod<F>(-A));
    EXPECT_EQ(val(a.sqr()), mod<F>(A * A));
  }
  const F zero = F::zero(), one = F::one(), pm1 = from_mpz<F>(p - 1);
  EXPECT_EQ(-zero, zero);
  EXPECT_EQ(pm1 + one, zero);
  EXPECT_EQ(zero - one, pm1);
  EXPECT_EQ(-one, pm1);
  EXPECT_EQ(pm1 * pm1, one);
  EXPECT_EQ(pm1.inverse(), pm1);
  EXPECT_EQ(one.inverse(), one);
  EXPECT_TRUE(zero.inverse().is_zero());
  EXPECT_EQ(zero.pow(u64(0)), one);  // x^0 = 1 by convention
  EXPECT_EQ(pm1.pow(u64(2)), one);
  EXPECT_TRUE(zero.pow(u64(5)).is_zero());
  // Fermat: x^(p-1) = 1 for x ≠ 0, x^p = x.
  const F x = F::from_u64(0x1234567890abcdefULL);
  EXPECT_TRUE(x.pow(bigint_sub_u64(F::modulus(), 1)).is_one());
  EXPECT_EQ(x.pow(F::modulus()), x);
}

// Σ a_i·b_i reduced once (ff/sum_of_products.hpp) against GMP, for the 4-limb fields: every length up to
// past two 16-term chunks, random terms and the largest ones (every term (p − 1)², the accumulator's bound).
TYPED_TEST(ffPrimeField, SumOfProductsMatchesGmp) {
  using F = TypeParam;
  if constexpr (F::N != 4) {
    GTEST_SKIP() << "sum_of_products serves 4-limb fields";
  } else {
    Rng rng(kFfSeed + 7);
    const mpz_class p = modulus_mpz<F>();
    for (std::size_t n = 0; n <= 40; ++n) {
      for (int round = 0; round < 3; ++round) {
        std::vector<mpz_class> a(n), b(n);
        for (std::size_t i = 0; i < n; ++i) {
          a[i] = round == 0 ? mpz_class(p - 1) : random_mpz<F>(rng);
          b[i] = round == 0 ? mpz_class(p - 1) : random_mpz<F>(rng);
        }
        std::vector<F> fa(n), fb(n);
        mpz_class want = 0;
        for (std::size_t i = 0; i < n; ++i) {
          fa[i] = from_mpz<F>(a[i]);
          fb[i] = from_mpz<F>(b[i]);
          want += a[i] * b[i];
        }
        const F got = sum_of_products<F>(
            n, [&](std::size_t i) -> const F& { return fa[i]; },
            [&](std::size_t i) -> const F& { return fb[i]; });
        ASSERT_TRUE(got.is_reduced()) << "n = " << n;
        ASSERT_EQ(val(got), mod<F>(want)) << "n = " << n << ", round " << round;
      }
    }
  }
}

TYPED_TEST(ffPrimeField, IntRoundTrip) {
  using F = TypeParam;
  Rng rng(kFfSeed + 1);
  for (int it = 0; it < 1000; ++it) {
    const mpz_class A = random_mpz<F>(rng);
    const auto ai = to_bigint<F::N>(A);
    const F a = F::from_int(ai);
    ASSERT_EQ(a.to_int(), ai);
    ASSERT_EQ(F::from_raw(a.raw()), a);
    const u64 s = rng();
    ASSERT_EQ(val(F::from_u64(s)), mod<F>(mpz_class(static_cast<unsigned long>(s))));
  }
  EXPECT_EQ(F::from_int(bigint_sub_u64(F::modulus(), 1)).to_int(), bigint_sub_u64(F::modulus(), 1));
  // random_element: reduced, varied.
  std::vector<F> seen;
  for (int i = 0; i < 64; ++i) {
    F r = random_element<F>(rng);
    ASSERT_TRUE(r.is_reduced());
    seen.push_back(r);
  }
  for (std::size_t i = 1; i < seen.size(); ++i) EXPECT_NE(seen[i], seen[0]);
}

TYPED_TEST(ffPrimeField, SqrtAndLegendre) {
  using F = TypeParam;
  const mpz_class p = modulus_mpz<F>();
  Rng rng(kFfSeed + 2);
  int residues = 0, nonresidues = 0;
  for (int it = 0; it < 200; ++it) {
    const mpz_class A = random_mpz<F>(rng);
    const F a = from_mpz<F>(A);
    const int expect = mpz_legendre(A.get_mpz_t(), p.get_mpz_t());
    ASSERT_EQ(a.legendre(), expect) << "it=" << it;
    F r;
    const bool ok = a.sqrt(r);
    ASSERT_EQ(ok, expect >= 0) << "it=" << it;
    if (ok) {
      ASSERT_EQ(r.sqr(), a) << "it=" << it;
      ++residues;
    } else {
      ++nonresidues;
    }
    // The square of a random x always has a root, and it is ±x.
    const F sq = a.sqr();
    F s;
    ASSERT_TRUE(sq.sqrt(s)) << "it=" << it;
    ASSERT_EQ(s.sqr(), sq);
    ASSERT_TRUE(s == a || s == -a);
    if (!a.is_zero()) {
      ASSERT_EQ(sq.legendre(), 1);
    }
  }
  EXPECT_GT(residues, 50);
  EXPECT_GT(nonresidues, 50);
  F r = F::one();
  EXPECT_TRUE(F::zero().sqrt(r));
  EXPECT_TRUE(r.is_zero());
  EXPECT_EQ(F::zero().legendre(), 0);
  EXPECT_EQ(F::one().legendre(), 1);
  // -1 is a non-residue iff p ≡ 3 mod 4.
  const bool p3mod4 = (F::modulus().v[0] & 3) == 3;
  EXPECT_EQ((-F::one()).legendre(), p3mod4 ? -1 : 1);
  // The smallest non-residue is rejected.
  u64 z = 2;
  while (mpz_legendre(mpz_class(static_cast<unsigned long>(z)).get_mpz_t(), p.get_mpz_t()) != -1) ++z;
  EXPECT_FALSE(F::from_u64(z).sqrt(r));
  EXPECT_EQ(F::from_u64(z).legendre(), -1);
}

TYPED_TEST(ffPrimeField, BatchInverse) {
  using F = TypeParam;
  Rng rng(kFfSeed + 3);
  for (std::size_t n : {0u, 1u, 2u, 3u, 17u, 100u}) {
    std::vector<F> xs(n);
    for (auto& x : xs) x = random_element<F>(rng);
    if (n >= 1) xs[0] = F::zero();
    if (n >= 3) xs[n / 2] = F::zero();
    if (n >= 2) xs[n - 1] = F::zero();
    if (n >= 17) xs[5] = F::one();
    std::vector<F> ys = xs;
    batch_inverse(ys.data(), ys.size());
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_EQ(ys[i], xs[i].inverse()) << "n=" << n << " i=" << i;
      if (!xs[i].is_zero()) {
        ASSERT_TRUE((ys[i] * xs[i]).is_one());
      }
    }
  }
  std::vector<F> zeros(5, F::zero());
  batch_inverse(zeros.data(), zeros.size());
  for (const auto& z : zeros) EXPECT_TRUE(z.is_zero());
}

TYPED_TEST(ffPrimeField, BytesRoundTrip) {
  using F = TypeParam;
  constexpr std::size_t nb = F::bytes();
  Rng rng(kFfSeed + 4);
  for (int it = 0; it < 1000; ++it) {
    const mpz_class A = random_mpz<F>(rng);
    const F a = from_mpz<F>(A);
    std::array<std::uint8_t, nb> le{}, be{}, expect_le{};
    to_bytes_le(a, le.data());
    to_bytes_be(a, be.data(), nb);
    std::size_t count = 0;
    mpz_export(expect_le.data(), &count, -1, 1, 0, 0, A.get_mpz_t());
    ASSERT_EQ(le, expect_le);
    std::array<std::uint8_t, nb> rev = le;
    std::reverse(rev.begin(), rev.end());
    ASSERT_EQ(be, rev);
    auto a1 = from_bytes_le<F>(le.data());
    auto a2 = from_bytes_be<F>(be.data(), nb);
    ASSERT_TRUE(a1.has_value());
    ASSERT_TRUE(a2.has_value());
    ASSERT_EQ(*a1, a);
    ASSERT_EQ(*a2, a);

    // Montgomery bytes: the raw limbs, i.e. A·R mod p, little-endian.
    std::array<std::uint8_t, nb> mont{}, expect_mont{};
    to_mont_bytes_le(a, mont.data());
    mpz_export(expect_mont.data(), &count, -1, 1, 0, 0, mod<F>(A << (64 * F::N)).get_mpz_t());
    ASSERT_EQ(mont, expect_mont);
    auto a3 = from_mont_bytes_le<F>(mont.data());
    ASSERT_TRUE(a3.has_value());
    ASSERT_EQ(*a3, a);
  }
  // Short inputs are zero-extended integers.
  const std::uint8_t two_bytes_le[2] = {0x34, 0x12}, two_bytes_be[2] = {0x12, 0x34};
  EXPECT_EQ(*from_bytes_le<F>(two_bytes_le, 2), F::from_u64(0x1234));
  EXPECT_EQ(*from_bytes_be<F>(two_bytes_be, 2), F::from_u64(0x1234));

  // Rejections: p, p + 1, 2^(8·bytes) - 1, and inputs longer than the field.
  const mpz_class p = modulus_mpz<F>();
  const std::vector<mpz_class> bads = {p, p + 1, p + 12345, (mpz_class(1) << (8 * nb)) - 1};
  for (const mpz_class& bad : bads) {
    std::array<std::uint8_t, nb> le{};
    std::size_t count = 0;
    mpz_export(le.data(), &count, -1, 1, 0, 0, bad.get_mpz_t());
    std::array<std::uint8_t, nb> be = le;
    std::reverse(be.begin(), be.end());
    EXPECT_FALSE(from_bytes_le<F>(le.data()).has_value()) << bad;
    EXPECT_FALSE(from_bytes_be<F>(be.data(), nb).has_value()) << bad;
    EXPECT_FALSE(from_mont_bytes_le<F>(le.data()).has_value()) << bad;
  }
  {
    // p - 1 is the largest accepted value.
    std::array<std::uint8_t, nb> le{};
    std::size_t count = 0;
    const mpz_class pm1 = p - 1;
    mpz_export(le.data(), &count, -1, 1, 0, 0, pm1.get_mpz_t());
    auto x = from_bytes_le<F>(le.data());
    ASSERT_TRUE(x.has_value());
    EXPECT_EQ(*x, -F::one());
    auto m = from_mont_bytes_le<F>(le.data());
    ASSERT_TRUE(m.has_value());
  }
  std::array<std::uint8_t, nb + 1> longer{};
  longer[0] = 1;
  EXPECT_FALSE(from_bytes_le<F>(longer.data(), longer.size()).has_value());
  EXPECT_FALSE(from_bytes_be<F>(longer.data(), longer.size()).has_value());
}

TYPED_TEST(ffPrimeField, DecimalRoundTrip) {
  using F = TypeParam;
  const mpz_class p = modulus_mpz<F>();
  Rng rng(kFfSeed + 5);
  for (int it = 0; it < 1000; ++it) {
    // Mix in small values so short strings and zero-padded 10^19 chunks are exercised.
    mpz_class A = random_mpz<F>(rng);
    if (it % 5 == 1) A >>= (rng() % (F::bits() - 1));
    if (it % 5 == 2) A = mpz_class(10) * mpz_class("10000000000000000000") * (rng() % 100);
    A = mod<F>(A);
    const F a = from_mpz<F>(A);
    const std::string s = to_decimal(a);
    ASSERT_EQ(s, A.get_str(10));
    auto back = from_decimal<F>(s);
    ASSERT_TRUE(back.has_value()) << s;
    ASSERT_EQ(*back, a);
  }
  EXPECT_EQ(to_decimal(F::zero()), "0");
  EXPECT_EQ(*from_decimal<F>("0"), F::zero());
  EXPECT_EQ(*from_decimal<F>("10000000000000000000"), from_mpz<F>(mpz_class("10000000000000000000")));
  EXPECT_EQ(*from_decimal<F>(mpz_class(p - 1).get_str(10)), -F::one());
  for (const std::string& bad :
       {std::string(""), std::string("-1"), std::string("+1"), std::string(" 1"), std::string("1 "),
        std::string("12a3"), std::string("0x10"), std::string("1.0"), std::string("1e5"), p.get_str(10),
        mpz_class(p + 1).get_str(10), mpz_class(p * 7).get_str(10),
        mpz_class((mpz_class(1) << (64 * F::N)) - 1).get_str(10),
        mpz_class(mpz_class(1) << (64 * F::N)).get_str(10), std::string(200, '9')}) {
    EXPECT_FALSE(from_decimal<F>(bad).has_value()) << "'" << bad << "'";
  }
}

// ---- BigInt helpers -------------------------------------------------------------------------------
TEST(ffBigInt, HelpersMatchGmp) {
  Rng rng(kFfSeed + 6);
  for (int it = 0; it < 1000; ++it) {
    BigInt<4> a{}, b{};
    for (auto& l : a.v) l = rng() >> (rng() % 64);
    for (auto& l : b.v) l = rng();
    if (it % 7 == 0) a.v[3] = 0;
    const mpz_class A = to_mpz(a), B = to_mpz(b), M = mpz_class(1) << 256;
    BigInt<4> r{};
    u64 c = bigint_add(r, a, b);
    ASSERT_EQ(mpz_class(to_mpz(r) + mpz_class(static_cast<unsigned long>(c)) * M), mpz_class(A + B));
    c = bigint_sub(r, a, b);
    ASSERT_EQ(c, A < B ? 1u : 0u);
    ASSERT_EQ(to_mpz(r), A < B ? mpz_class(A - B + M) : mpz_class(A - B));
    ASSERT_EQ(bigint_less(a, b), A < B);
    ASSERT_EQ(a.num_bits(), A == 0 ? 0 : mpz_sizeinbase(A.get_mpz_t(), 2));
    const std::size_t s = rng() % 256;
    ASSERT_EQ(to_mpz(bigint_shr(a, s)), mpz_class(A >> s)) << "s=" << s;
    for (std::size_t i = 0; i < 256; i += 37) ASSERT_EQ(a.bit(i), mpz_tstbit(A.get_mpz_t(), i) == 1);
    BigInt<4> q = a;
    const u64 d = (rng() >> 1) | 1;
    const u64 rem = bigint_divmod_small(q, d);
    const mpz_class D(static_cast<unsigned long>(d));
    ASSERT_EQ(to_mpz(q), mpz_class(A / D));
    ASSERT_EQ(mpz_class(static_cast<unsigned long>(rem)), mpz_class(A % D));
    ASSERT_EQ(bigint_to_decimal(a), A.get_str(10));
    ASSERT_EQ(bigint_from_dec<4>(A.get_str(10).c_str()), a);
    ASSERT_EQ(bigint_from_hex<4>(("0x" + A.get_str(16)).c_str()), a);
  }
}

// ---- extension towers -----------------------------------------------------------------------------
template <class T>
struct Rand;
template <class P>
struct Rand<Field<P>> {
  static Field<P> get(Rng& r) { return random_element<Field<P>>(r); }
};
template <class Fp>
struct Rand<Fp2<Fp>> {
  static Fp2<Fp> get(Rng& r) { return {Rand<Fp>::get(r), Rand<Fp>::get(r)}; }
};
template <class Cfg>
struct Rand<Fp6<Cfg>> {
  using F2 = typename Cfg::Fp2;
  static Fp6<Cfg> get(Rng& r) { return {Rand<F2>::get(r), Rand<F2>::get(r), Rand<F2>::get(r)}; }
};
template <class Cfg>
struct Rand<Fp12<Cfg>> {
  using F6 = Fp6<Cfg>;
  static Fp12<Cfg> get(Rng& r) { return {Rand<F6>::get(r), Rand<F6>::get(r)}; }
};
template <class T>
T rnd(Rng& r) {
  return Rand<T>::get(r);
}

template <class T>
struct TowerName;
#define CUZK_TOWER_NAME(T, S)              \
  template <>                              \
  struct TowerName<T> {                    \
    static constexpr const char* name = S; \
  };
CUZK_TOWER_NAME(bn254::Fq2, "bn254_Fq2")
CUZK_TOWER_NAME(bn254::Fq6, "bn254_Fq6")
CUZK_TOWER_NAME(bn254::Fq12, "bn254_Fq12")
CUZK_TOWER_NAME(bls12_381::Fq2, "bls12_381_Fq2")
CUZK_TOWER_NAME(bls12_381::Fq6, "bls12_381_Fq6")
CUZK_TOWER_NAME(bls12_381::Fq12, "bls12_381_Fq12")
#undef CUZK_TOWER_NAME
struct TowerNames {
  template <class T>
  static std::string GetName(int) {
    return TowerName<T>::name;
  }
};

template <class T>
class ffExtension : public ::testing::Test {};
using Extensions =
    ::testing::Types<bn254::Fq2, bn254::Fq6, bn254::Fq12, bls12_381::Fq2, bls12_381::Fq6, bls12_381::Fq12>;
TYPED_TEST_SUITE(ffExtension, Extensions, TowerNames);

TYPED_TEST(ffExtension, FieldAxioms) {
  using T = TypeParam;
  Rng rng(kFfSeed + 7);
  const T zero = T::zero(), one = T::one();
  for (int it = 0; it < 100; ++it) {
    const T a = rnd<T>(rng), b = rnd<T>(rng), c = rnd<T>(rng);
    ASSERT_FALSE(a == zero);
    ASSERT_FALSE(a == b);
    ASSERT_TRUE((a + b) + c == a + (b + c));
    ASSERT_TRUE(a + b == b + a);
    ASSERT_TRUE(a + zero == a);
    ASSERT_TRUE(a - a == zero);
    ASSERT_TRUE((a - b) + b == a);
    ASSERT_TRUE((a * b) * c == a * (b * c)) << "it=" << it;
    ASSERT_TRUE(a * b == b * a);
    ASSERT_TRUE(a * (b + c) == a * b + a * c);
    ASSERT_TRUE((a + b) * c == a * c + b * c);
    ASSERT_TRUE(a * (b - c) == a * b - a * c);
    ASSERT_TRUE(a * one == a);
    ASSERT_TRUE(a * zero == zero);
    ASSERT_TRUE(a.sqr() == a * a) << "it=" << it;
    ASSERT_TRUE((a + b).sqr() == a.sqr() + (a * b) + (a * b) + b.sqr());
    const T ai = a.inverse();
    ASSERT_TRUE(a * ai == one) << "it=" << it;
    ASSERT_TRUE(ai.inverse() == a);
    ASSERT_TRUE((a * b).inverse() == ai * b.inverse());
  }
  ASSERT_TRUE(one.inverse() == one);
  ASSERT_TRUE(one * one == one);
  ASSERT_TRUE(zero.sqr() == zero);
}

// Structure constants of each tower: u² = -1, v³ = ξ, w² = v.
template <class Cfg>
void check_tower_structure(Rng& rng) {
  using F2 = typename Cfg::Fp2;
  using Fp = typename F2::Base;
  using F6 = Fp6<Cfg>;
  using F12 = Fp12<Cfg>;
  const F2 u{Fp::zero(), Fp::one()};
  EXPECT_EQ(u.sqr(), -F2::one());
  EXPECT_EQ(u * u, -F2::one());
  const F6 v{F2::zero(), F2::one(), F2::zero()};
  const F6 xi6{Cfg::xi(), F2::zero(), F2::zero()};
  EXPECT_TRUE(v * v * v == xi6);
  const F12 w{F6::zero(), F6::one()}, v12{v, F6::zero()};
  EXPECT_TRUE(w.sqr() == v12);
  EXPECT_TRUE(w * w == v12);
  for (int it = 0; it < 20; ++it) {
    const F2 a = rnd<F2>(rng), b = rnd<F2>(rng);
    const Fp s = rnd<Fp>(rng);
    EXPECT_EQ(Cfg::mul_by_xi(a), a * Cfg::xi());
    EXPECT_EQ(a * s, (a * F2{s, Fp::zero()}));
    EXPECT_EQ(a.dbl(), a + a);
    EXPECT_EQ(-a, F2::zero() - a);
    EXPECT_EQ(a.norm(), (a * a.conjugate()).c0);
    EXPECT_TRUE((a * a.conjugate()).c1.is_zero());
    EXPECT_EQ(a.frobenius(), a.conjugate());
    EXPECT_EQ(a * b, (F2{a.c0 * b.c0 - a.c1 * b.c1, a.c0 * b.c1 + a.c1 * b.c0}));  // schoolbook
    const F6 x = rnd<F6>(rng);
    EXPECT_TRUE(x.mul_by_v() == x * v);
    EXPECT_TRUE((x * a == x * F6{a, F2::zero(), F2::zero()}));
    EXPECT_TRUE(-x == F6::zero() - x);
    const F12 y = rnd<F12>(rng);
    EXPECT_TRUE((y * y.conjugate() == F12{y.c0.sqr() - y.c1.sqr().mul_by_v(), F6::zero()}));
    EXPECT_TRUE(y.pow(bigint_from_u64<1>(5)) == y * y * y * y * y);
    EXPECT_TRUE(y.pow(bigint_from_u64<1>(0)).is_one());
  }
}

TEST(ffTower, StructureBn254) {
  Rng rng(kFfSeed + 8);
  check_tower_structure<bn254::TowerCfg>(rng);
}
TEST(ffTower, StructureBls12_381) {
  Rng rng(kFfSeed + 9);
  check_tower_structure<bls12_381::TowerCfg>(rng);
}

template <class F2>
class ffFp2 : public ::testing::Test {};
using Fp2s = ::testing::Types<bn254::Fq2, bls12_381::Fq2>;
TYPED_TEST_SUITE(ffFp2, Fp2s, TowerNames);

TYPED_TEST(ffFp2, SqrtOfSquares) {
  using F2 = TypeParam;
  using Fp = typename F2::Base;
  Rng rng(kFfSeed + 10);
  auto check_square = [](const F2& x) {
    const F2 sq = x.sqr();
    F2 r;
    ASSERT_TRUE(sq.sqrt(r));
    ASSERT_EQ(r.sqr(), sq);
    ASSERT_TRUE(r == x || r == -x);
  };
  for (int it = 0; it < 200; ++it) {
    const Fp a = rnd<Fp>(rng), b = rnd<Fp>(rng);
    check_square(F2{a, b});
    if (it % 10 == 0) {
      check_square(F2{a, Fp::zero()});  // square lies in Fp, a residue
      check_square(F2{Fp::zero(), b});  // square = -b², a non-residue of Fp (p ≡ 3 mod 4)
      check_square(F2{a, a});           // square is purely imaginary
      check_square(F2{a, -a});
    }
  }
  F2 r;
  ASSERT_TRUE(F2::zero().sqrt(r));
  EXPECT_TRUE(r.is_zero());
  // Non-squares of Fp2 are the elements whose norm is a non-square of Fp.
  int rejected = 0;
  for (int it = 0; it < 100; ++it) {
    const F2 x = rnd<F2>(rng);
    F2 root;
    const bool ok = x.sqrt(root);
    if (x.norm().legendre() == -1) {
      EXPECT_FALSE(ok);
      ++rejected;
    } else {
      ASSERT_TRUE(ok);
      EXPECT_EQ(root.sqr(), x);
    }
  }
  EXPECT_GT(rejected, 20);
}

TYPED_TEST(ffFp2, ConjugateIsFrobenius) {
  using F2 = TypeParam;
  Rng rng(kFfSeed + 11);
  const auto p = F2::Base::modulus();
  for (int it = 0; it < 50; ++it) {
    const F2 x = rnd<F2>(rng);
    ASSERT_EQ(x.pow(p), x.conjugate());
    ASSERT_EQ(x.pow(p).pow(p), x);
  }
}

// Fp12 conjugation (w ↦ -w) is the p⁶-power Frobenius.
template <class F12, class Fp>
void check_fp12_conjugate(std::uint64_t seed) {
  const mpz_class p = to_mpz(Fp::modulus());
  mpz_class p6;
  mpz_pow_ui(p6.get_mpz_t(), p.get_mpz_t(), 6);
  const auto e = to_bigint<36>(p6);
  Rng rng(seed);
  for (int it = 0; it < 4; ++it) {
    const F12 x = rnd<F12>(rng);
    ASSERT_TRUE(x.pow(e) == x.conjugate()) << "it=" << it;
    ASSERT_TRUE(x.conjugate() != x);
    ASSERT_TRUE(x.conjugate().conjugate() == x);
  }
}
TEST(ffFp12, ConjugateIsP6FrobeniusBn254) {
  check_fp12_conjugate<bn254::Fq12, bn254::Fq>(kFfSeed + 12);
}
TEST(ffFp12, ConjugateIsP6FrobeniusBls12_381) {
  check_fp12_conjugate<bls12_381::Fq12, bls12_381::Fq>(kFfSeed + 13);
}

}  // namespace
