// Unit tests for src/ec: G1 and G2 of BN254 and BLS12-381 in affine, Jacobian and XYZZ coordinates,
// scalar multiplication and the prime-order subgroup check.
#include <gmpxx.h>
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "ec/batch_affine.hpp"
#include "ec/bls12_381.hpp"
#include "ec/bn254.hpp"
#include "ec/fixed_base.hpp"
#include "ec/scalar_mul.hpp"
#include "ff/encoding.hpp"

namespace {

using namespace cuzk;
using ff::BigInt;
using ff::random_element;
using ff::u64;
using Rng = std::mt19937_64;
constexpr std::uint64_t kEcSeed = 0x63757a6b2d6563ULL;  // "cuzk-ec"

// Random element of a base field (Fq) or of Fq2.
template <class F>
F random_coord(Rng& rng) {
  if constexpr (requires { typename F::Base; }) {
    using B = typename F::Base;
    return {random_element<B>(rng), random_element<B>(rng)};
  } else {
    return random_element<F>(rng);
  }
}

template <class Curve, class Cfg, bool CofactorIsOne>
struct Group {
  using C = Cfg;
  using F = typename Cfg::F;
  using Fr = typename Curve::Fr;
  using A = ec::Affine<Cfg>;
  using J = ec::Jacobian<Cfg>;
  using X = ec::XYZZ<Cfg>;
  static constexpr bool cofactor_is_one = CofactorIsOne;
};
using Bn254G1 = Group<Bn254, ec::bn254::G1Cfg, true>;
using Bn254G2 = Group<Bn254, ec::bn254::G2Cfg, false>;
using Bls12G1 = Group<Bls12_381, ec::bls12_381::G1Cfg, false>;
using Bls12G2 = Group<Bls12_381, ec::bls12_381::G2Cfg, false>;

struct GroupNames {
  template <class G>
  static std::string GetName(int) {
    if constexpr (std::is_same_v<G, Bn254G1>) return "bn254_G1";
    if constexpr (std::is_same_v<G, Bn254G2>) return "bn254_G2";
    if constexpr (std::is_same_v<G, Bls12G1>) return "bls12_381_G1";
    if constexpr (std::is_same_v<G, Bls12G2>) return "bls12_381_G2";
    return "unknown";
  }
};

template <class G>
class ecGroup : public ::testing::Test {
 protected:
  using A = typename G::A;
  using J = typename G::J;
  using Fr = typename G::Fr;

  Rng rng{kEcSeed};

  Fr random_scalar() { return random_element<Fr>(rng); }
  // A random point of the prime-order subgroup: k·g for random k.
  A random_point() { return ec::scalar_mul(G::C::generator(), random_scalar().to_int()).to_affine(); }
  // The same point as p with a random Jacobian scaling (X·λ², Y·λ³, Z·λ).
  J rescale(const J& p) {
    const auto l = random_coord<typename G::F>(rng);
    const auto l2 = l.sqr();
    return {p.X * l2, p.Y * l2 * l, p.Z * l};
  }
  // The same point as the affine p in XYZZ with ZZ = λ², ZZZ = λ³.
  typename G::X xyzz_scaled(const A& p) {
    const auto l = random_coord<typename G::F>(rng);
    const auto l2 = l.sqr();
    return {p.x * l2, p.y * l2 * l, l2, l2 * l};
  }
};

using Groups = ::testing::Types<Bn254G1, Bn254G2, Bls12G1, Bls12G2>;
TYPED_TEST_SUITE(ecGroup, Groups, GroupNames);

TYPED_TEST(ecGroup, Generator) {
  using A = typename TypeParam::A;
  using J = typename TypeParam::J;
  const A g = TypeParam::C::generator();
  EXPECT_FALSE(g.is_infinity());
  EXPECT_TRUE(g.on_curve());
  EXPECT_TRUE(ec::in_prime_subgroup(g));
  EXPECT_TRUE(A::infinity().is_infinity());
  EXPECT_TRUE(A::infinity().on_curve());
  EXPECT_TRUE(ec::in_prime_subgroup(A::infinity()));
  EXPECT_TRUE(J::infinity().is_infinity());
  EXPECT_EQ(J::infinity().to_affine(), A::infinity());
  EXPECT_EQ(J::from_affine(g).to_affine(), g);
  EXPECT_TRUE(J::from_affine(A::infinity()).is_infinity());
  EXPECT_EQ(-A::infinity(), A::infinity());
  EXPECT_TRUE((-g).on_curve());
  EXPECT_NE(-g, g);
  // Small multiples: 2g, 3g computed three ways.
  const J gj = J::from_affine(g);
  const J two = gj.dbl(), three = two + gj;
  EXPECT_EQ(ec::scalar_mul(g, ff::bigint_from_u64<1>(2)), two);
  EXPECT_EQ(ec::scalar_mul(g, ff::bigint_from_u64<1>(3)), three);
  EXPECT_EQ(two.add_affine(g), three);
  EXPECT_TRUE(three.to_affine().on_curve());
  EXPECT_TRUE(ec::scalar_mul(g, ff::bigint_from_u64<1>(0)).is_infinity());
  EXPECT_EQ(ec::scalar_mul(g, ff::bigint_from_u64<1>(1)).to_affine(), g);
}

TYPED_TEST(ecGroup, JacobianGroupLaws) {
  using A = typename TypeParam::A;
  using J = typename TypeParam::J;
  const J O = J::infinity();
  for (int it = 0; it < 32; ++it) {
    const A pa = this->random_point(), qa = this->random_point(), ra = this->random_point();
    ASSERT_TRUE(pa.on_curve());
    ASSERT_FALSE(pa.is_infinity());
    ASSERT_NE(pa, qa);
    const J p = this->rescale(J::from_affine(pa)), q = this->rescale(J::from_affine(qa)),
            r = this->rescale(J::from_affine(ra));
    ASSERT_EQ(p.to_affine(), pa);
    ASSERT_EQ(p, J::from_affine(pa));
    ASSERT_NE(p, q);
    ASSERT_NE(p, O);
    // Associativity, commutativity, identity, inverse.
    ASSERT_EQ((p + q) + r, p + (q + r)) << "it=" << it;
    ASSERT_EQ(p + q, q + p);
    ASSERT_EQ((p + q).to_affine(), (q + p).to_affine());
    ASSERT_TRUE((p + q).to_affine().on_curve());
    ASSERT_EQ(p + O, p);
    ASSERT_EQ(O + p, p);
    ASSERT_TRUE((p + (-p)).is_infinity());
    ASSERT_TRUE((p - p).is_infinity());
    ASSERT_EQ((-p).to_affine(), -pa);
    ASSERT_EQ((p + q) - q, p);
    // Doubling: dbl == P + P, also when the two summands have different coordinates.
    ASSERT_EQ(p.dbl(), p + p);
    ASSERT_EQ(p.dbl(), p + this->rescale(p));
    ASSERT_EQ(p.dbl().dbl(), p + p + p + p);
    ASSERT_EQ(p.dbl() + p, p + p + p);
    ASSERT_TRUE(O.dbl().is_infinity());
    // Mixed addition agrees with the full addition, including the doubling and inverse cases.
    ASSERT_EQ(p.add_affine(qa), p + J::from_affine(qa));
    ASSERT_EQ(p.add_affine(qa), p + q);
    ASSERT_EQ(p.add_affine(pa), p.dbl());
    ASSERT_TRUE(p.add_affine(-pa).is_infinity());
    ASSERT_EQ(p.add_affine(A::infinity()), p);
    ASSERT_EQ(O.add_affine(qa), q);
    // Equality does not depend on the representation.
    ASSERT_EQ(this->rescale(p + q), p + q);
  }
}

TYPED_TEST(ecGroup, XyzzAgreesWithJacobian) {
  using A = typename TypeParam::A;
  using J = typename TypeParam::J;
  using X = typename TypeParam::X;
  for (int it = 0; it < 32; ++it) {
    const A pa = this->random_point(), qa = this->random_point(), ra = this->random_point();
    const J pj = J::from_affine(pa), qj = J::from_affine(qa), rj = J::from_affine(ra);
    const X px = X::from_affine(pa), pxs = this->xyzz_scaled(pa), qxs = this->xyzz_scaled(qa);
    ASSERT_EQ(px.to_affine(), pa);
    ASSERT_EQ(pxs.to_affine(), pa);
    ASSERT_EQ(pxs.to_jacobian(), pj);
    // add_affine, from the trivial and from a scaled representation.
    ASSERT_EQ(px.add_affine(qa).to_jacobian(), pj + qj) << "it=" << it;
    ASSERT_EQ(pxs.add_affine(qa).to_jacobian(), pj + qj);
    ASSERT_EQ(pxs.add_affine(qa).to_affine(), (pj + qj).to_affine());
    // Accumulate a chain so that ZZ, ZZZ are non-trivial, then compare every form.
    X acc = pxs.add_affine(qa).add_affine(ra).add_affine(pa);
    J accj = pj + qj + rj + pj;
    ASSERT_EQ(acc.to_jacobian(), accj);
    ASSERT_EQ(acc.to_affine(), accj.to_affine());
    // Full XYZZ addition (both sides non-trivial), doubling, mdbl.
    ASSERT_EQ((acc + qxs).to_jacobian(), accj + qj);
    ASSERT_EQ((qxs + acc).to_jacobian(), accj + qj);
    ASSERT_EQ(acc.dbl().to_jacobian(), accj.dbl());
    ASSERT_EQ(pxs.dbl().to_jacobian(), pj.dbl());
    ASSERT_EQ(X::dbl_affine(pa).to_jacobian(), pj.dbl());
    // Special cases: P + P → doubling, P + (-P) → infinity, infinity on either side.
    ASSERT_EQ(pxs.add_affine(pa).to_jacobian(), pj.dbl());
    ASSERT_TRUE(pxs.add_affine(-pa).is_infinity());
    ASSERT_EQ((pxs + this->xyzz_scaled(pa)).to_jacobian(), pj.dbl());
    ASSERT_TRUE((pxs + this->xyzz_scaled(-pa)).is_infinity());
    ASSERT_TRUE((pxs + (-pxs)).is_infinity());
    ASSERT_EQ((-pxs).to_affine(), -pa);
    ASSERT_EQ(X::infinity().add_affine(qa).to_affine(), qa);
    ASSERT_EQ(pxs.add_affine(A::infinity()).to_affine(), pa);
    ASSERT_EQ((X::infinity() + pxs).to_affine(), pa);
    ASSERT_EQ((pxs + X::infinity()).to_affine(), pa);
    X sum = pxs;
    sum += qxs;
    ASSERT_EQ(sum.to_jacobian(), pj + qj);
  }
  EXPECT_TRUE(X::infinity().is_infinity());
  EXPECT_TRUE(X::infinity().dbl().is_infinity());
  EXPECT_TRUE(X::from_affine(A::infinity()).is_infinity());
  EXPECT_TRUE(X::dbl_affine(A::infinity()).is_infinity());
  EXPECT_TRUE(X::infinity().to_jacobian().is_infinity());
  EXPECT_EQ(X::infinity().to_affine(), A::infinity());
}

TYPED_TEST(ecGroup, ScalarMulIsLinear) {
  using A = typename TypeParam::A;
  using J = typename TypeParam::J;
  using Fr = typename TypeParam::Fr;
  const A g = TypeParam::C::generator();
  const auto r = Fr::modulus();
  for (int it = 0; it < 16; ++it) {
    const Fr k1 = this->random_scalar(), k2 = this->random_scalar();
    const A p = this->random_point();
    // k1·P + k2·P = ((k1 + k2) mod r)·P
    ASSERT_EQ(ec::scalar_mul(p, k1.to_int()) + ec::scalar_mul(p, k2.to_int()),
              ec::scalar_mul(p, (k1 + k2).to_int()))
        << "it=" << it;
    // k1·(k2·P) = (k1·k2)·P, with the Jacobian-input variant.
    ASSERT_EQ(ec::scalar_mul(ec::scalar_mul(p, k2.to_int()), k1.to_int()),
              ec::scalar_mul(p, (k1 * k2).to_int()));
    ASSERT_EQ(ec::scalar_mul(J::from_affine(p), k1.to_int()), ec::scalar_mul(p, k1.to_int()));
    // k·P + (-k)·P = O
    ASSERT_TRUE((ec::scalar_mul(p, k1.to_int()) + ec::scalar_mul(p, (-k1).to_int())).is_infinity());
    // r·P = O, (r-1)·P = -P, (r+1)·P = P; a scalar wider than r reduces mod r.
    ASSERT_TRUE(ec::scalar_mul(p, r).is_infinity());
    ASSERT_EQ(ec::scalar_mul(p, ff::bigint_sub_u64(r, 1)).to_affine(), -p);
    ASSERT_EQ(ec::scalar_mul(p, ff::bigint_add_u64(r, 1)).to_affine(), p);
    ASSERT_TRUE(ec::in_prime_subgroup(p));
    // A 2-limb-wider scalar k1 + 3r gives the same point as k1 (GMP computes the wide value).
    mpz_class wide;
    mpz_import(wide.get_mpz_t(), Fr::N, -1, 8, 0, 0, k1.to_int().v);
    mpz_class rm;
    mpz_import(rm.get_mpz_t(), Fr::N, -1, 8, 0, 0, r.v);
    wide += 3 * rm;
    BigInt<Fr::N + 2> kw{};
    mpz_export(kw.v, nullptr, -1, 8, 0, 0, wide.get_mpz_t());
    ASSERT_EQ(ec::scalar_mul(p, kw), ec::scalar_mul(p, k1.to_int()));
  }
  // Scalar multiples of g by consecutive integers agree with repeated addition.
  J acc = J::infinity();
  for (u64 k = 0; k < 20; ++k) {
    ASSERT_EQ(ec::scalar_mul(g, ff::bigint_from_u64<1>(k)), acc) << "k=" << k;
    acc = acc.add_affine(g);
  }
}

TYPED_TEST(ecGroup, OffCurvePointRejected) {
  using A = typename TypeParam::A;
  using F = typename TypeParam::F;
  for (int it = 0; it < 20; ++it) {
    const A p{random_coord<F>(this->rng), random_coord<F>(this->rng)};
    EXPECT_FALSE(p.on_curve());
    // Nudging y of a valid point also leaves the curve.
    A q = this->random_point();
    q.y += F::one();
    EXPECT_FALSE(q.on_curve());
  }
  // (0, y) with y ≠ 0 is not the point at infinity and, unless y² = b, not on the curve.
  const A z{F::zero(), F::one()};
  EXPECT_FALSE(z.is_infinity());
  EXPECT_FALSE(z.on_curve());
}

// A random point of E(F) (random x until x³ + b is a square). Only for BN254 G1 (cofactor 1) does it lie in
// the r-torsion; for BLS12-381 G1/G2 and BN254 G2 the cofactor is large, so it is outside with
// overwhelming probability and in_prime_subgroup must reject it.
TYPED_TEST(ecGroup, RandomCurvePointSubgroupMembership) {
  using A = typename TypeParam::A;
  using F = typename TypeParam::F;
  for (int found = 0, tries = 0; found < 3; ++tries) {
    ASSERT_LT(tries, 200);
    const F x = random_coord<F>(this->rng);
    const F rhs = x.sqr() * x + TypeParam::C::b();
    F y;
    if (!rhs.sqrt(y)) continue;
    ++found;
    const A p{x, y};
    ASSERT_TRUE(p.on_curve());
    ASSERT_TRUE((-p).on_curve());
    EXPECT_EQ(ec::in_prime_subgroup(p), TypeParam::cofactor_is_one);
    EXPECT_EQ(ec::in_prime_subgroup(-p), TypeParam::cofactor_is_one);
    // The group law still holds off the subgroup.
    using J = typename TypeParam::J;
    const J pj = J::from_affine(p);
    EXPECT_EQ(pj.add_affine(p), pj.dbl());
    EXPECT_TRUE(pj.dbl().to_affine().on_curve());
  }
}

// Batched affine sums (ec/batch_affine.hpp) equal Jacobian sums, the special cases included: a destination
// or an addend at infinity, an addend equal to the destination (doubling) or to its negation (infinity),
// batches that fill and flush, and sums chained over several flushes into the same destinations.
TYPED_TEST(ecGroup, BatchAffineAddsAgreeWithJacobian) {
  using A = typename TypeParam::A;
  using J = typename TypeParam::J;
  constexpr std::size_t kLanes = 24;
  std::vector<A> dst(kLanes);
  std::vector<J> expect(kLanes);
  for (std::size_t i = 0; i < kLanes; ++i) {
    dst[i] = i % 7 == 3 ? A::infinity() : this->random_point();
    expect[i] = J::from_affine(dst[i]);
  }
  ec::BatchAffineAdder<typename TypeParam::C> adder(5);  // fills and flushes inside each round
  std::size_t queued = 0;
  for (int round = 0; round < 4; ++round) {
    for (std::size_t i = 0; i < kLanes; ++i) {
      A q = this->random_point();
      if ((i + round) % 6 == 1) q = dst[i];          // doubling
      if ((i + round) % 6 == 2) q = -dst[i];         // the sum is infinity
      if ((i + round) % 11 == 5) q = A::infinity();  // nothing to add
      expect[i] = expect[i] + J::from_affine(q);
      queued += adder.add(&dst[i], q);
      if (adder.full()) adder.flush();
    }
    adder.flush();
    for (std::size_t i = 0; i < kLanes; ++i) {
      ASSERT_EQ(J::from_affine(dst[i]), expect[i]) << "round " << round << " lane " << i;
      ASSERT_TRUE(dst[i].on_curve());
    }
  }
  EXPECT_GT(queued, kLanes);  // the batched formula took a good share (41 of 96 sums here)
  EXPECT_EQ(adder.queued(), 0u);
}

// The fixed-base table's products, one at a time and batched, equal the double-and-add scalar
// multiplication for random scalars and for the edges of the windows: 8 bits (the GPU's and small setups'),
// 5 and 11 (digits across a limb boundary, as large setups' 16 bits are not).
TYPED_TEST(ecGroup, FixedBaseProductsAgreeWithScalarMul) {
  using A = typename TypeParam::A;
  using Fr = typename TypeParam::Fr;
  using J = ec::Jacobian<typename TypeParam::C>;
  const A g = TypeParam::C::generator();
  std::vector<Fr> k;
  for (int i = 0; i < 1500; ++i) k.push_back(this->random_scalar());  // two blocks of lanes
  for (u64 v : {0ull, 1ull, 2ull, 31ull, 32ull, 255ull, 256ull, 257ull, 2047ull, 2048ull, 65535ull, 65536ull,
                (1ull << 63) - 1, 1ull << 63})
    k.push_back(Fr::from_u64(v));
  k.push_back(-Fr::one());
  k.push_back(-Fr::from_u64(256));
  std::vector<J> expect;
  for (const Fr& x : k) expect.push_back(ec::scalar_mul(g, x.to_int()));
  for (std::size_t window : {8, 5, 11}) {
    const ec::FixedBaseTable<typename TypeParam::C> table(g, Fr::bits(), window);
    ASSERT_EQ(table.window_bits(), window);
    ASSERT_EQ(table.table().size(), table.windows() * ((std::size_t(1) << window) - 1));
    const auto all = table.mul_all(k);
    ASSERT_EQ(all.size(), k.size());
    for (std::size_t i = 0; i < k.size(); ++i) {
      ASSERT_EQ(J::from_affine(all[i]), expect[i]) << "window " << window << ", scalar " << i;
      if (i % 97 == 0 || i >= 1500) {
        ASSERT_EQ(table.mul(k[i].to_int()), expect[i]) << "scalar " << i;
      }
    }
  }
  EXPECT_THROW(ec::FixedBaseTable<typename TypeParam::C>(g, Fr::bits(), 0), std::invalid_argument);
  EXPECT_THROW(ec::FixedBaseTable<typename TypeParam::C>(g, Fr::bits(), 21), std::invalid_argument);
  EXPECT_EQ(ec::setup_window(1000), 8u);
  EXPECT_EQ(ec::setup_window(std::size_t(1) << 22), 16u);
}

}  // namespace
