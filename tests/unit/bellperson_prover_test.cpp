// Groth16 with bellperson's conventions: the domain root is 7's (checked against blstrs's constant), a
// test-only .params for a PoRep-shaped circuit proves and verifies with our pairing verifier through the
// file writer and reader, tampering is rejected, the 192-byte encoding round-trips, and an assignment that
// does not fit the key is a clear error.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <filesystem>
#include <random>

#include "ff/random.hpp"
#include "groth16/bellperson.hpp"
#include "io/error.hpp"
#include "ntt/cpu.hpp"
#include "r1cs/porep_like.hpp"

namespace cuzk::groth16::bellperson {
namespace {

// The query scalars are selected in parallel blocks of 65,536 values: the same as the plain reading of the
// density bits at every block and word edge, for sparse, dense, empty and full densities.
TEST(BellpersonProver, QueryScalarsFollowTheDensityBitsAcrossBlockEdges) {
  std::mt19937_64 rng(42);
  for (const std::size_t n : {0u, 1u, 63u, 64u, 65u, 65'535u, 65'536u, 65'537u, 200'001u}) {
    for (const double p : {0.0, 0.03, 0.5, 1.0}) {
      Assignment w;
      w.inputs = {Fr::one(), ff::random_element<Fr>(rng), ff::random_element<Fr>(rng)};
      std::vector<Fr> aux(n);
      for (auto& x : aux) x = Fr::from_u64(rng());  // distinct values: a misplaced one shows
      w.aux = std::move(aux);
      w.a_aux = Density::of_size(n);
      w.b_aux = Density::of_size(n);
      w.b_inputs = Density::of_size(3);
      w.b_inputs.set(0);
      w.b_inputs.set(2);
      std::bernoulli_distribution bit(p);
      for (std::size_t i = 0; i < n; ++i) {
        if (bit(rng)) w.a_aux.set(i);
        if (bit(rng)) w.b_aux.set(i);
      }
      std::vector<Fr> a(w.inputs), b{w.inputs[0], w.inputs[2]};
      for (std::size_t i = 0; i < n; ++i) {
        if (w.a_aux.test(i)) a.push_back(w.aux[i]);
        if (w.b_aux.test(i)) b.push_back(w.aux[i]);
      }
      EXPECT_EQ(a_query_scalars(w), a) << "n = " << n << ", p = " << p;
      EXPECT_EQ(b_query_scalars(w), b) << "n = " << n << ", p = " << p;
    }
  }
}

TEST(BellpersonDomain, RootOfUnityIsBlstrsConstant) {
  // blstrs ROOT_OF_UNITY in Montgomery form (filecoin-formats.md §1.3), limbs little-endian.
  const Fr w = poly::root_of_unity_from<Fr>(7, 32);
  const auto raw = w.raw();
  EXPECT_EQ(raw.v[0], 0xb9b58d8c5f0e466aull);
  EXPECT_EQ(raw.v[1], 0x5b1b4c801819d7ecull);
  EXPECT_EQ(raw.v[2], 0x0af53ae352a31e64ull);
  EXPECT_EQ(raw.v[3], 0x5bf3adda19e9b27bull);
}

struct Fixture {
  r1cs::PorepLike<Fr> circuit = r1cs::porep_like<Fr>(11, 3, 2);
  io::bellperson::Params params = setup(circuit.system, random_toxic_waste<Curve>());
  std::vector<Fr> public_inputs(std::size_t k) const {
    const auto& z = circuit.witnesses[k];
    return {z.begin() + 1, z.begin() + 1 + circuit.system.n_public};
  }
};

const Fixture& fixture() {
  static const Fixture f;
  return f;
}

TEST(BellpersonProver, ParamsShapeFollowsTheGenerator) {
  const auto& f = fixture();
  const auto w = synthesize(f.circuit.system, f.circuit.witnesses[0]);
  const std::size_t n_in = 1 + f.circuit.system.n_public;
  EXPECT_EQ(f.params.vk.ic.size(), n_in);
  EXPECT_EQ(f.params.l.size(), w.aux.size());
  EXPECT_EQ(f.params.a.size(), n_in + w.a_aux.popcount());
  EXPECT_EQ(f.params.b_g1.size(), w.b_inputs.popcount() + w.b_aux.popcount());
  EXPECT_TRUE(std::has_single_bit(f.params.h.size() + 1));
  EXPECT_GE(f.params.h.size() + 1, w.a.size());
  EXPECT_LT(w.b_aux.popcount(), w.aux.size());  // the B density really filters (25 % of aux)
}

TEST(BellpersonProver, ProvesThroughTheFileFormatAndVerifies) {
  const auto& f = fixture();
  const auto dir = std::filesystem::temp_directory_path() / ("cuzk-bp-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  io::bellperson::write_params((dir / "p.params").string(), f.params);
  const auto params = io::bellperson::read_params((dir / "p.params").string(), true);
  std::filesystem::remove_all(dir);
  for (std::size_t k = 0; k < 2; ++k) {
    const auto w = synthesize(f.circuit.system, f.circuit.witnesses[k]);
    const auto proof = prove(params, w, ff::random_nonzero_os<Fr>(), ff::random_nonzero_os<Fr>());
    const auto bytes = encode_proof(proof);
    const auto back = decode_proof(bytes, "proof", k);
    EXPECT_EQ(back, proof);
    EXPECT_TRUE(verify(params.vk, f.public_inputs(k), back).valid);
    // Other inputs, or a flipped bit, do not verify.
    auto other = f.public_inputs(k);
    other[0] += Fr::one();
    EXPECT_FALSE(verify(params.vk, other, back).valid);
    auto bad = bytes;
    bad[100] ^= 1;
    bool rejected = false;
    try {
      rejected = !verify(params.vk, f.public_inputs(k), decode_proof(bad, "proof", k)).valid;
    } catch (const io::FormatError&) {
      rejected = true;  // no longer a point of the group
    }
    EXPECT_TRUE(rejected);
  }
}

TEST(BellpersonProver, QuotientIsExactForASatisfiedAssignment) {
  const auto& f = fixture();
  const auto w = synthesize(f.circuit.system, f.circuit.witnesses[0]);
  const std::size_t m = f.params.h.size() + 1;
  // h(x)·Z(x) = a(x)b(x) − c(x): at a random point x, with a, b, c interpolated on the domain.
  const auto h = quotient(w, m);
  const Fr x = ff::random_nonzero_os<Fr>();
  const auto d = poly::Domain<Fr>(static_cast<std::size_t>(std::countr_zero(m)),
                                  poly::root_of_unity_from<Fr>(7, std::countr_zero(m)));
  auto eval_interpolant = [&](std::span<const Fr> v) {
    std::vector<Fr> coeffs(m, Fr::zero());
    std::copy(v.begin(), v.end(), coeffs.begin());
    ntt::inverse(coeffs.data(), d);
    Fr acc = Fr::zero();
    for (std::size_t i = m; i-- > 0;) acc = acc * x + coeffs[i];
    return acc;
  };
  Fr hx = Fr::zero();
  for (std::size_t i = h.size(); i-- > 0;) hx = hx * x + h[i];
  const Fr zx = x.pow(static_cast<std::uint64_t>(m)) - Fr::one();
  EXPECT_EQ(hx * zx, eval_interpolant(w.a) * eval_interpolant(w.b) - eval_interpolant(w.c));
}

TEST(BellpersonProver, QuotientOnTheOddCosetIsTheSame) {
  const auto& f = fixture();
  const auto w = synthesize(f.circuit.system, f.circuit.witnesses[1]);
  const std::size_t m = f.params.h.size() + 1;
  const auto h = quotient(w, m);
  EXPECT_EQ(quotient_on_odd_coset(w, m), h);
  EXPECT_NE(std::count(h.begin(), h.end(), Fr::zero()), static_cast<std::ptrdiff_t>(h.size()));
}

TEST(BellpersonProver, AssignmentsThatDoNotFitTheKeyAreClearErrors) {
  const auto& f = fixture();
  const auto good = synthesize(f.circuit.system, f.circuit.witnesses[0]);
  const Fr r = Fr::from_u64(3), s = Fr::from_u64(5);
  auto expect = [&](Assignment w, const std::string& needle) {
    try {
      prove(f.params, w, r, s);
      ADD_FAILURE() << "accepted: " << needle;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  auto w = good;
  w.aux = std::vector<Fr>(w.aux.begin(), w.aux.end() - 1);
  expect(w, "aux values");
  w = good;
  w.inputs[0] = Fr::from_u64(2);
  expect(w, "ONE");
  w = good;
  w.a_aux.set(w.a_aux.bits - 1), w.a_aux.set(0), w.a_aux.set(1);  // more A bits than the key's points
  if (w.a_aux.popcount() != good.a_aux.popcount()) expect(w, "A density");
  w = good;
  w.c = std::vector<Fr>(w.c.begin(), w.c.end() - 1);
  expect(w, "different lengths");
  w = good;
  w.b_inputs = Density::of_size(3);
  expect(w, "density bitmap");
}

}  // namespace
}  // namespace cuzk::groth16::bellperson
