// Prover and verifier against each other on circuits built in code, both curves.
#include <gtest/gtest.h>

#include <random>

#include "ec/bls12_381.hpp"
#include "ec/bn254.hpp"
#include "ff/encoding.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "r1cs/synthetic.hpp"

namespace cuzk {
namespace {

template <class Curve>
class Groth16Test : public ::testing::Test {};
using Curves = ::testing::Types<Bn254, Bls12_381>;
TYPED_TEST_SUITE(Groth16Test, Curves);

template <class Curve>
std::vector<typename Curve::Fr> public_of(const std::vector<typename Curve::Fr>& w, std::uint32_t n_public) {
  return {w.begin() + 1, w.begin() + 1 + n_public};
}

TYPED_TEST(Groth16Test, ProofVerifiesAndTamperingIsRejected) {
  using C = TypeParam;
  using Fr = typename C::Fr;
  auto circ = r1cs::mulchain<C>(300, 7);
  ASSERT_TRUE(r1cs::satisfied(circ.cs, circ.witness));
  auto pk = groth16::setup(circ.cs, groth16::random_toxic_waste<C>());
  auto vk = pk.verifying_key();
  std::mt19937_64 rng(3);
  auto r = ff::random_element<Fr>(rng), s = ff::random_element<Fr>(rng);
  groth16::StageTimings timings;
  auto proof = groth16::prove(pk, circ.witness, r, s, &timings);
  auto pub = public_of<C>(circ.witness, pk.n_public);
  auto ok = groth16::verify(vk, pub, proof);
  EXPECT_TRUE(ok.valid) << ok.reason;
  EXPECT_GE(timings.stages_ms.size(), 7u);

  auto bad_pub = pub;
  bad_pub[0] += Fr::one();
  EXPECT_FALSE(groth16::verify(vk, bad_pub, proof).valid);
  auto swapped = proof;
  swapped.c = proof.a;
  EXPECT_FALSE(groth16::verify(vk, pub, swapped).valid);
  auto off_curve = proof;
  off_curve.a.x += C::Fq::one();
  EXPECT_FALSE(groth16::verify(vk, pub, off_curve).valid);
}

// A WindowPoSt partition has 25,839 public inputs, which the verifier sums as one MSM: k inputs p_i, each
// squared into a private q_i, verify, and changing any one of them (first, middle, last) is rejected.
TYPED_TEST(Groth16Test, ManyPublicInputsAreEachBound) {
  using C = TypeParam;
  using Fr = typename C::Fr;
  constexpr std::uint32_t k = 700;
  r1cs::CircuitWithWitness<C> circ;
  auto& cs = circ.cs;
  cs.n_pub_in = k;
  cs.n_wires = cs.n_labels = 1 + 2 * k;
  std::mt19937_64 rng(11);
  circ.witness.assign(1 + 2 * k, Fr::one());
  for (std::uint32_t i = 1; i <= k; ++i) {
    const Fr p = ff::random_element<Fr>(rng);
    circ.witness[i] = p;
    circ.witness[k + i] = p * p;
    cs.constraints.push_back({{{i, Fr::one()}}, {{i, Fr::one()}}, {{k + i, Fr::one()}}});
  }
  ASSERT_TRUE(r1cs::satisfied(cs, circ.witness));
  auto pk = groth16::setup(cs, groth16::random_toxic_waste<C>());
  const auto proof =
      groth16::prove(pk, circ.witness, ff::random_element<Fr>(rng), ff::random_element<Fr>(rng));
  auto pub = public_of<C>(circ.witness, pk.n_public);
  ASSERT_EQ(pub.size(), k);
  const auto ok = groth16::verify(pk.verifying_key(), pub, proof);
  EXPECT_TRUE(ok.valid) << ok.reason;
  for (std::uint32_t j : {0u, k / 2, k - 1}) {
    auto bad = pub;
    bad[j] += Fr::one();
    EXPECT_FALSE(groth16::verify(pk.verifying_key(), bad, proof).valid) << "input " << j;
  }
}

TYPED_TEST(Groth16Test, FixedRandomnessIsDeterministicAndDistinctRandomnessIsNot) {
  using C = TypeParam;
  using Fr = typename C::Fr;
  auto circ = r1cs::mulchain<C>(50, 11);
  auto pk = groth16::setup(circ.cs, groth16::random_toxic_waste<C>(true));
  auto p1 = groth16::prove(pk, circ.witness, Fr::zero(), Fr::zero());
  auto p2 = groth16::prove(pk, circ.witness, Fr::zero(), Fr::zero());
  EXPECT_EQ(p1, p2);
  auto p3 = groth16::prove(pk, circ.witness, Fr::one(), Fr::from_u64(2));
  EXPECT_FALSE(p1 == p3);
  auto pub = public_of<C>(circ.witness, pk.n_public);
  EXPECT_TRUE(groth16::verify(pk.verifying_key(), pub, p1).valid);
  EXPECT_TRUE(groth16::verify(pk.verifying_key(), pub, p3).valid);
}

TYPED_TEST(Groth16Test, UnsatisfiedWitnessGivesAProofThatFailsVerification) {
  using C = TypeParam;
  using Fr = typename C::Fr;
  auto circ = r1cs::mulchain<C>(40, 5);
  auto pk = groth16::setup(circ.cs, groth16::random_toxic_waste<C>());
  auto w = circ.witness;
  w[10] += Fr::one();  // an internal signal
  ASSERT_FALSE(r1cs::satisfied(circ.cs, w));
  auto proof = groth16::prove(pk, w, Fr::from_u64(9), Fr::from_u64(4));
  EXPECT_FALSE(groth16::verify(pk.verifying_key(), public_of<C>(w, pk.n_public), proof).valid);
}

TYPED_TEST(Groth16Test, WrongWitnessShapeIsAClearError) {
  using C = TypeParam;
  using Fr = typename C::Fr;
  auto circ = r1cs::mulchain<C>(20, 5);
  auto pk = groth16::setup(circ.cs, groth16::random_toxic_waste<C>());
  auto shorter = circ.witness;
  shorter.pop_back();
  EXPECT_THROW(groth16::prove(pk, shorter, Fr::one(), Fr::one()), groth16::ProveError);
  auto no_one = circ.witness;
  no_one[0] = Fr::from_u64(2);
  EXPECT_THROW(groth16::prove(pk, no_one, Fr::one(), Fr::one()), groth16::ProveError);
}

}  // namespace
}  // namespace cuzk
