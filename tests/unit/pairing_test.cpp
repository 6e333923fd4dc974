// Unit tests for src/pairing: the optimal ate pairing of BN254 and BLS12-381 is non-degenerate, has
// order r, is bilinear, and pairing products (the Groth16 verification equation) behave as expected.
#include "pairing/pairing.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <utility>
#include <vector>

#include "ec/scalar_mul.hpp"
#include "ff/encoding.hpp"

namespace {

using namespace cuzk;
using Rng = std::mt19937_64;
constexpr std::uint64_t kSeed = 0x63757a6b2d7061ULL;  // "cuzk-pa"

struct CurveNames {
  template <class Curve>
  static std::string GetName(int) {
    return std::is_same_v<Curve, Bn254> ? "bn254" : "bls12_381";
  }
};

template <class Curve>
class pairingTest : public ::testing::Test {
 protected:
  using Fr = typename Curve::Fr;
  using G1 = typename Curve::G1;
  using G2 = typename Curve::G2;
  using GT = typename Curve::Fq12;
  using Pair = std::pair<G1, G2>;

  Rng rng{kSeed};

  static G1 g1() { return Curve::G1Cfg::generator(); }
  static G2 g2() { return Curve::G2Cfg::generator(); }
  Fr scalar() {
    Fr k = ff::random_element<Fr>(rng);
    while (k.is_zero()) k = ff::random_element<Fr>(rng);
    return k;
  }
  static G1 mul(const G1& p, const Fr& k) { return ec::scalar_mul(p, k.to_int()).to_affine(); }
  static G2 mul(const G2& q, const Fr& k) { return ec::scalar_mul(q, k.to_int()).to_affine(); }
  static GT e(const G1& p, const G2& q) { return pairing::pairing<Curve>(p, q); }
  static bool product_is_one(const std::vector<Pair>& pairs) {
    return pairing::pairing_product_is_one<Curve>(std::span<const Pair>(pairs));
  }
  static GT product(const std::vector<Pair>& pairs) {
    return pairing::final_exponentiation<Curve>(pairing::miller_loop<Curve>(std::span<const Pair>(pairs)));
  }
};

using Curves = ::testing::Types<Bn254, Bls12_381>;
TYPED_TEST_SUITE(pairingTest, Curves, CurveNames);

TYPED_TEST(pairingTest, NonDegenerateOfOrderR) {
  using GT = typename TestFixture::GT;
  const GT e = this->e(this->g1(), this->g2());
  EXPECT_FALSE(e.is_one());
  EXPECT_NE(e, GT::zero());
  EXPECT_TRUE(e.pow(TestFixture::Fr::modulus()).is_one());
  // e lies in the cyclotomic subgroup, where the conjugate is the inverse.
  EXPECT_TRUE((e * e.conjugate()).is_one());
  EXPECT_EQ(e.conjugate(), e.inverse());
  // Deterministic.
  EXPECT_EQ(this->e(this->g1(), this->g2()), e);
}

// Known answer: e(g1, g2) from @noble/curves 2.4.0 (tools/node: `bn254.pairing(G1.Point.BASE,
// G2.Point.BASE)`, likewise bls12_381), coefficients listed c0.c0.c0, c0.c0.c1, c0.c1.c0, …, c1.c2.c1 in the
// same tower (u² = -1, v³ = ξ, w² = v). noble's final exponentiations compute a fixed power of the reduced
// pairing f^((p¹²-1)/r): for BN254 the Fuentes-Castañeda chain gives the power m = 2x(6x² + 3x + 1), for
// BLS12-381 the chain gives the power 3. cuzk computes the reduced pairing itself, so e^m must equal noble's.
template <class Curve>
struct NobleKat;
template <>
struct NobleKat<Bn254> {
  static constexpr const char* coeffs[12] = {
      "17264119758069723980713015158403419364912226240334615592005620718956030922389",
      "1300711225518851207585954685848229181392358478699795190245709208408267917898",
      "8894217292938489450175280157304813535227569267786222825147475294561798790624",
      "1829859855596098509359522796979920150769875799037311140071969971193843357227",
      "4968700049505451466697923764727215585075098085662966862137174841375779106779",
      "12814315002058128940449527172080950701976819591738376253772993495204862218736",
      "4233474252585134102088637248223601499779641130562251948384759786370563844606",
      "9420544134055737381096389798327244442442230840902787283326002357297404128074",
      "13457906610892676317612909831857663099224588803620954529514857102808143524905",
      "5122435115068592725432309312491733755581898052459744089947319066829791570839",
      "8891987925005301465158626530377582234132838601606565363865129986128301774627",
      "440796048150724096437130979851431985500142692666486515369083499585648077975",
  };
  static constexpr ff::BigInt<3> multiplier() {
    return ff::bigint_from_hex<3>("0x3bec47df15e307c81ea96b02d9d9e38d2e5d4e223ddedaf4");  // 2x(6x²+3x+1)
  }
};
template <>
struct NobleKat<Bls12_381> {
  static constexpr const char* coeffs[12] = {
      "281910560595369124527780305632268408688470300047396106571648550603358850420383102906644864235804259750"
      "1014294104502",
      "132396823298699674257131520615140596510424254233968072216422090081230352433462837016336615383998419629"
      "8685227734799",
      "298733504972131250442860298844761632883034172237696221401167487596905283504387565857942554851292563404"
      "0144704192135",
      "387972358245255245253868431447908196750211149741307659881616375902884292766832754287510845775596641788"
      "1797966271311",
      "261508182517997003171385743374653339186059518494239543139839025878870012614975302676296704930880982238"
      "308326681253",
      "231488992246460459663813598342448669854473942105054381511346786719005883340876032043606739070883099647"
      "773793170614",
      "399358209551642265877366906893136113418873815976671557618749030561175912655479656986805381810585066114"
      "2222948198557",
      "107477351169842234450226400615985971050216404591141275083164168078301252555587246710824927128675739912"
      "1183508900634",
      "272758829908354568673902431799851274056116701104694024998855741932306880901913762494370391026779060128"
      "7073339193943",
      "493643299814437640914745677854369670041080344349607504656543355799077485536288866009245028091988146107"
      "059514546594",
      "734401332196641441839439105942623141234148957972407782257355060229193854324927417865401895596108124443"
      "575283868655",
      "234833009828855642091867250292366495262015248312859348430175939458332035835418648272362999937024167497"
      "3832318248497",
  };
  static constexpr ff::BigInt<1> multiplier() { return ff::bigint_from_u64<1>(3); }
};

TYPED_TEST(pairingTest, KnownAnswerMatchesNoble) {
  using GT = typename TestFixture::GT;
  using Fq = typename TypeParam::Fq;
  GT expect{};
  int k = 0;
  for (auto* f6 : {&expect.c0, &expect.c1}) {
    for (auto* f2 : {&f6->c0, &f6->c1, &f6->c2}) {
      auto c0 = ff::from_decimal<Fq>(NobleKat<TypeParam>::coeffs[k++]);
      auto c1 = ff::from_decimal<Fq>(NobleKat<TypeParam>::coeffs[k++]);
      ASSERT_TRUE(c0.has_value() && c1.has_value());
      *f2 = {*c0, *c1};
    }
  }
  const GT e = this->e(this->g1(), this->g2());
  EXPECT_EQ(e.pow(NobleKat<TypeParam>::multiplier()), expect);
}

TYPED_TEST(pairingTest, Bilinear) {
  using Fr = typename TestFixture::Fr;
  using GT = typename TestFixture::GT;
  const auto P = this->g1();
  const auto Q = this->g2();
  const GT base = this->e(P, Q);
  for (int it = 0; it < 4; ++it) {
    const Fr a = this->scalar(), b = this->scalar(), ab = a * b;
    const GT lhs = this->e(this->mul(P, a), this->mul(Q, b));
    EXPECT_EQ(lhs, base.pow(ab.to_int())) << "it=" << it;
    EXPECT_EQ(lhs, this->e(this->mul(P, ab), Q)) << "it=" << it;
    EXPECT_EQ(lhs, this->e(P, this->mul(Q, ab))) << "it=" << it;
    EXPECT_NE(lhs, base);
  }
  // Linearity in each argument separately, on non-generator points: e(P1 + P2, Q) = e(P1, Q)·e(P2, Q).
  const auto P1 = this->mul(P, this->scalar()), P2 = this->mul(P, this->scalar());
  const auto Q1 = this->mul(Q, this->scalar()), Q2 = this->mul(Q, this->scalar());
  using J1 = ec::Jacobian<typename TypeParam::G1Cfg>;
  using J2 = ec::Jacobian<typename TypeParam::G2Cfg>;
  const auto P12 = (J1::from_affine(P1) + J1::from_affine(P2)).to_affine();
  const auto Q12 = (J2::from_affine(Q1) + J2::from_affine(Q2)).to_affine();
  EXPECT_EQ(this->e(P12, Q1), this->e(P1, Q1) * this->e(P2, Q1));
  EXPECT_EQ(this->e(P1, Q12), this->e(P1, Q1) * this->e(P1, Q2));
  // e(-P, Q) = e(P, -Q) = e(P, Q)⁻¹
  const GT e11 = this->e(P1, Q1);
  EXPECT_EQ(this->e(-P1, Q1), e11.inverse());
  EXPECT_EQ(this->e(P1, -Q1), e11.inverse());
}

TYPED_TEST(pairingTest, ProductWithNegationIsOne) {
  using Pair = typename TestFixture::Pair;
  const auto P = this->mul(this->g1(), this->scalar());
  const auto Q = this->mul(this->g2(), this->scalar());
  EXPECT_TRUE(this->product_is_one({Pair{P, Q}, Pair{-P, Q}}));
  EXPECT_TRUE(this->product_is_one({Pair{P, Q}, Pair{P, -Q}}));
  EXPECT_FALSE(this->product_is_one({Pair{P, Q}, Pair{P, Q}}));
  EXPECT_FALSE(this->product_is_one({Pair{P, Q}}));
  // The shared Miller loop equals the product of separate pairings.
  const auto P2 = this->mul(this->g1(), this->scalar());
  const auto Q2 = this->mul(this->g2(), this->scalar());
  EXPECT_EQ(this->product({Pair{P, Q}, Pair{P2, Q2}}), this->e(P, Q) * this->e(P2, Q2));
}

// The Groth16 verification shape: e(A, B) = e(α, β)·e(L, γ)·e(C, δ), checked as
// e(-A, B)·e(α, β)·e(L, γ)·e(C, δ) == 1 with A = a·g1, B = b·g2 and a·b = αβ + lγ + cδ.
TYPED_TEST(pairingTest, Groth16ShapedProduct) {
  using Fr = typename TestFixture::Fr;
  using Pair = typename TestFixture::Pair;
  const auto g1 = this->g1();
  const auto g2 = this->g2();
  const Fr alpha = this->scalar(), beta = this->scalar(), gamma = this->scalar(), delta = this->scalar();
  const Fr l = this->scalar(), c = this->scalar(), a = this->scalar();
  const Fr b = (alpha * beta + l * gamma + c * delta) * a.inverse();
  const auto A = this->mul(g1, a);
  const auto B = this->mul(g2, b);
  const auto alpha1 = this->mul(g1, alpha), L = this->mul(g1, l), C = this->mul(g1, c);
  const auto beta2 = this->mul(g2, beta), gamma2 = this->mul(g2, gamma), delta2 = this->mul(g2, delta);
  EXPECT_TRUE(this->product_is_one({Pair{-A, B}, Pair{alpha1, beta2}, Pair{L, gamma2}, Pair{C, delta2}}));
  // A tampered proof (C + g1) must fail, as must swapping γ and δ.
  using J1 = ec::Jacobian<typename TypeParam::G1Cfg>;
  const auto C_bad = J1::from_affine(C).add_affine(g1).to_affine();
  EXPECT_FALSE(
      this->product_is_one({Pair{-A, B}, Pair{alpha1, beta2}, Pair{L, gamma2}, Pair{C_bad, delta2}}));
  EXPECT_FALSE(this->product_is_one({Pair{-A, B}, Pair{alpha1, beta2}, Pair{L, delta2}, Pair{C, gamma2}}));
  // The simpler two-term identity e(aP, bQ)·e(-abP, Q) == 1.
  EXPECT_TRUE(
      this->product_is_one({Pair{this->mul(g1, a), this->mul(g2, b)}, Pair{-this->mul(g1, a * b), g2}}));
}

TYPED_TEST(pairingTest, InfinityContributesOne) {
  using Pair = typename TestFixture::Pair;
  using G1 = typename TestFixture::G1;
  using G2 = typename TestFixture::G2;
  const auto P = this->mul(this->g1(), this->scalar());
  const auto Q = this->mul(this->g2(), this->scalar());
  EXPECT_TRUE(this->e(G1::infinity(), Q).is_one());
  EXPECT_TRUE(this->e(P, G2::infinity()).is_one());
  EXPECT_TRUE(this->e(G1::infinity(), G2::infinity()).is_one());
  EXPECT_TRUE(this->product_is_one({}));
  EXPECT_TRUE(this->product_is_one({Pair{G1::infinity(), Q}}));
  EXPECT_TRUE(
      this->product_is_one({Pair{P, Q}, Pair{G1::infinity(), Q}, Pair{-P, Q}, Pair{P, G2::infinity()}}));
  EXPECT_EQ(this->product({Pair{P, Q}, Pair{G1::infinity(), Q}}), this->e(P, Q));
  EXPECT_EQ(this->product({Pair{P, G2::infinity()}, Pair{P, Q}}), this->e(P, Q));
}

}  // namespace
