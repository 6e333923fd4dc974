// Tests for the snarkjs binary container shared by .zkey, .wtns and .r1cs (src/io/binfile, curve_id):
// header errors, curve and prime identification, files of the wrong curve, and reading the snarkjs
// reference files of every format in tests/fixtures/io.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "ec/scalar_mul.hpp"
#include "io/curve_id.hpp"
#include "io/json.hpp"
#include "io/r1cs_file.hpp"
#include "io/wtns.hpp"
#include "io/zkey.hpp"
#include "pairing/pairing.hpp"
#include "unit/io_test_util.hpp"

using namespace cuzk;
using namespace cuzk::test;

namespace {

TYPED_TEST_SUITE(IoCurveTest, Curves, CurveNames);

TEST(IoErrors, ContainerHeader) {
  TempDir dir;
  const std::string p = dir.file("x.bin");
  write_bytes(p, {});
  EXPECT_FORMAT_ERROR(io::read_zkey<Bn254>(p), "truncated: 0 bytes");
  write_text(p, "{\"curve\": \"bn128\"} and some more text");
  EXPECT_FORMAT_ERROR(io::read_zkey<Bn254>(p), "not a .zkey file: magic is \"{\"cu\", expected \"zkey\"");
  EXPECT_FORMAT_ERROR(io::peek_curve(p), "not a .zkey, .wtns or .r1cs file: magic is \"{\"cu\"");
  write_bytes(p, {0x89, 'P', 'N', 'G', 1, 0, 0, 0, 0, 0, 0, 0});
  EXPECT_FORMAT_ERROR(io::read_wtns<Bn254>(p), "magic is 0x89504e47");
  // nSections = 2^32 − 1 with nothing behind it.
  write_bytes(p, {'r', '1', 'c', 's', 1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff});
  EXPECT_FORMAT_ERROR(io::read_r1cs<Bn254>(p), "header of section #1 of 4294967295 needs 12 bytes");
}

TEST(IoErrors, WrongCurve) {
  const std::string bls = (kFixtures / "bls12381").string(), bn = (kFixtures / "bn128").string();
  EXPECT_FORMAT_ERROR(io::read_zkey<Bn254>(bls + "/multiplier.zkey"),
                      "this is a BLS12-381 (bls12381) key, but a BN254 key was expected");
  EXPECT_FORMAT_ERROR(io::read_zkey<Bls12_381>(bn + "/multiplier.zkey"), "BN254 (bn128) key");
  EXPECT_FORMAT_ERROR(io::read_wtns<Bn254>(bls + "/multiplier.wtns"), "BLS12-381 (bls12381) witness");
  EXPECT_FORMAT_ERROR(io::read_r1cs<Bls12_381>(bn + "/multiplier.r1cs"), "BN254 (bn128) circuit");
  EXPECT_FORMAT_ERROR(io::read_vk<Bn254>(bls + "/verification_key.json"), "curve: \"bls12381\" but a BN254");
  EXPECT_FORMAT_ERROR(io::read_proof<Bls12_381>(bn + "/proof.json"), "curve: \"bn128\"");
  EXPECT_EQ(io::peek_curve(bls + "/multiplier.zkey"), io::CurveId::bls12_381);
  EXPECT_EQ(io::peek_curve(bn + "/multiplier.wtns"), io::CurveId::bn254);
}

TEST(IoErrors, UnsupportedPrime) {
  TempDir dir;
  std::mt19937_64 rng(12);
  const std::string p = dir.file("w.wtns");
  io::write_wtns<Bn254>(p, random_witness<Bn254>(rng, 3));
  Bytes b = read_bytes(p);
  const auto s1 = sections_of(b).at(1);
  // Goldilocks 2^64 − 2^32 + 1 written as 32 bytes.
  std::memset(b.data() + s1.offset + 4, 0, 32);
  put_u64(b, s1.offset + 4, 0xffffffff00000001ull);
  write_bytes(p, b);
  EXPECT_FORMAT_ERROR(io::read_wtns<Bn254>(p), "unsupported prime 18446744069414584321 (supported: bn128");
  EXPECT_FORMAT_ERROR(io::peek_curve(p), "unsupported prime 18446744069414584321");
  put_u32(b, s1.offset, 7);
  write_bytes(p, b);
  EXPECT_FORMAT_ERROR(io::read_wtns<Bn254>(p), "unsupported field size n8 = 7");

  // q where r is expected.
  io::write_wtns<Bn254>(p, random_witness<Bn254>(rng, 3));
  b = read_bytes(p);
  const auto q = Bn254::Fq::modulus();
  std::memcpy(b.data() + s1.offset + 4, q.v, 32);
  write_bytes(p, b);
  EXPECT_FORMAT_ERROR(io::read_wtns<Bn254>(p), "prime is the base field q prime of bn128");

  EXPECT_THROW(io::identify_prime(std::vector<std::uint8_t>(8, 0xff)), std::invalid_argument);
  std::uint8_t rb[32];
  std::memcpy(rb, Bls12_381::Fr::modulus().v, 32);
  EXPECT_EQ(io::identify_prime(rb).curve, io::CurveId::bls12_381);
  EXPECT_EQ(io::identify_prime(rb).kind, io::PrimeKind::scalar);
}

// ---- snarkjs reference files (tests/fixtures/io) ---------------------------------------------------

TYPED_TEST(IoCurveTest, ReadsSnarkjsFiles) {
  using C = TypeParam;
  using Fr = typename C::Fr;
  const std::string d = fixture_dir<C>();
  const auto pk = io::read_zkey<C>(d + "/multiplier.zkey");
  EXPECT_EQ(pk.n_vars, 4u);
  EXPECT_EQ(pk.n_public, 1u);
  EXPECT_EQ(pk.domain_size, 4u);
  EXPECT_TRUE(pk.gamma2 == C::G2Cfg::generator());
  // The multiplier is stored as (−a)·(b) = (−c): every coefficient decodes to ±1.
  ASSERT_FALSE(pk.coefs.empty());
  for (const auto& e : pk.coefs) EXPECT_TRUE(e.value == Fr::one() || e.value == -Fr::one());
  // The last nPublic + 1 records bind the public inputs: {0, nConstraints + s, s, 1}.
  const auto& last = pk.coefs.back();
  EXPECT_EQ(last.matrix, 0u);
  EXPECT_EQ(last.signal, 1u);
  EXPECT_TRUE(last.value == Fr::one());

  const auto vk = io::read_vk<C>(d + "/verification_key.json");
  const auto from_pk = pk.verifying_key();
  EXPECT_TRUE(vk.alpha1 == from_pk.alpha1 && vk.beta2 == from_pk.beta2 && vk.gamma2 == from_pk.gamma2 &&
              vk.delta2 == from_pk.delta2);
  EXPECT_EQ(vk.ic, from_pk.ic);

  const auto w = io::read_wtns<C>(d + "/multiplier.wtns");
  const std::vector<Fr> expect_w{Fr::one(), Fr::from_u64(33), Fr::from_u64(3), Fr::from_u64(11)};
  EXPECT_EQ(w, expect_w);

  const auto cs = io::read_r1cs<C>(d + "/multiplier.r1cs");
  EXPECT_EQ(cs.n_wires, 4u);
  EXPECT_EQ(cs.n_public(), 1u);
  ASSERT_EQ(cs.constraints.size(), 1u);
  // A·B = C holds for the witness.
  auto eval = [&](const r1cs::LinearCombination<C>& lc) {
    Fr s = Fr::zero();
    for (const auto& t : lc) s += t.coeff * w[t.wire];
    return s;
  };
  const auto& con = cs.constraints[0];
  EXPECT_TRUE(eval(con.a) * eval(con.b) == eval(con.c));

  const auto pub = io::read_public<C>(d + "/public.json");
  ASSERT_EQ(pub.size(), 1u);
  EXPECT_TRUE(pub[0] == Fr::from_u64(33));

  // snarkjs' proof satisfies e(−A, B)·e(vk_x, γ)·e(C, δ)·e(α, β) = 1 with our decoding.
  const auto proof = io::read_proof<C>(d + "/proof.json");
  const auto vk_x = (ec::scalar_mul(vk.ic[1], pub[0].to_int()).add_affine(vk.ic[0])).to_affine();
  const std::pair<typename C::G1, typename C::G2> pairs[] = {
      {-proof.a, proof.b}, {vk_x, vk.gamma2}, {proof.c, vk.delta2}, {vk.alpha1, vk.beta2}};
  EXPECT_TRUE(pairing::pairing_product_is_one<C>(pairs));

  for (const char* f : {"/multiplier.zkey", "/multiplier.wtns", "/multiplier.r1cs"})
    EXPECT_EQ(io::peek_curve(d + f), io::curve_id_of<C>);
  EXPECT_EQ(io::peek_json_curve(d + "/proof.json"), io::curve_id_of<C>);
  EXPECT_EQ(io::peek_json_curve(d + "/verification_key.json"), io::curve_id_of<C>);
}

}  // namespace
