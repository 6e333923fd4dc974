// Tests for the snarkjs JSON files (src/io/json): proof.json, public.json and verification_key.json
// round trips, agreement with snarkjs' own files, error messages, and curve names.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <random>
#include <string>

#include "ff/encoding.hpp"
#include "io/curve_id.hpp"
#include "io/json.hpp"
#include "io/zkey.hpp"
#include "unit/io_test_util.hpp"

using namespace cuzk;
using namespace cuzk::test;

namespace {

TYPED_TEST_SUITE(IoCurveTest, Curves, CurveNames);

TYPED_TEST(IoCurveTest, JsonRoundTrips) {
  using C = TypeParam;
  std::mt19937_64 rng(4);
  TempDir dir;
  groth16::Proof<C> proof{rand_g1<C>(rng), rand_g2<C>(rng), rand_g1<C>(rng)};
  const std::string pp = dir.file("proof.json");
  io::write_proof<C>(pp, proof);
  EXPECT_EQ(io::read_proof<C>(pp), proof);
  EXPECT_EQ(io::peek_json_curve(pp), io::curve_id_of<C>);

  groth16::Proof<C> inf{C::G1::infinity(), C::G2::infinity(), rand_g1<C>(rng)};
  io::write_proof<C>(pp, inf);
  EXPECT_EQ(io::read_proof<C>(pp), inf);
  const auto j = nlohmann::json::parse(read_text(pp));
  EXPECT_EQ(j["pi_a"], nlohmann::json::parse(R"(["0","1","0"])"));
  EXPECT_EQ(j["pi_b"], nlohmann::json::parse(R"([["0","0"],["1","0"],["0","0"]])"));
  EXPECT_EQ(j["pi_c"][2], "1");
  EXPECT_EQ(j["protocol"], "groth16");
  EXPECT_EQ(j["curve"], C::snarkjs_name);

  const std::string pub = dir.file("public.json");
  auto inputs = random_witness<C>(rng, 5);
  inputs[0] = C::Fr::zero();
  io::write_public<C>(pub, inputs);
  EXPECT_EQ(io::read_public<C>(pub), inputs);
  io::write_public<C>(pub, {});
  EXPECT_TRUE(io::read_public<C>(pub).empty());

  const auto pk = random_pk<C>(rng);
  const auto vk = pk.verifying_key();
  const std::string vp = dir.file("vk.json");
  io::write_vk<C>(vp, vk, /*with_alphabeta=*/false);
  const auto got = io::read_vk<C>(vp);
  EXPECT_TRUE(got.alpha1 == vk.alpha1 && got.beta2 == vk.beta2 && got.gamma2 == vk.gamma2 &&
              got.delta2 == vk.delta2);
  EXPECT_EQ(got.ic, vk.ic);
  EXPECT_EQ(nlohmann::json::parse(read_text(vp))["nPublic"], 2);
  EXPECT_EQ(io::peek_json_curve(vp), io::curve_id_of<C>);
}

// write_vk matches snarkjs' verification_key.json field by field, vk_alphabeta_12 included.
TYPED_TEST(IoCurveTest, WriteVkMatchesSnarkjs) {
  using C = TypeParam;
  TempDir dir;
  const std::string d = fixture_dir<C>();
  const std::string out = dir.file("vk.json");
  io::write_vk<C>(out, io::read_zkey<C>(d + "/multiplier.zkey").verifying_key());
  const auto ours = nlohmann::json::parse(read_text(out));
  const auto theirs = nlohmann::json::parse(read_text(d + "/verification_key.json"));
  EXPECT_EQ(ours, theirs);

  // proof.json: same structure and order of keys as snarkjs.
  const std::string pp = dir.file("proof.json");
  io::write_proof<C>(pp, io::read_proof<C>(d + "/proof.json"));
  EXPECT_EQ(nlohmann::json::parse(read_text(pp)), nlohmann::json::parse(read_text(d + "/proof.json")));
}

// ---- JSON errors -------------------------------------------------------------------------------------

TYPED_TEST(IoCurveTest, JsonErrors) {
  using C = TypeParam;
  TempDir dir;
  const std::string fx = fixture_dir<C>();
  const auto proof = nlohmann::ordered_json::parse(read_text(fx + "/proof.json"));
  const auto vk = nlohmann::ordered_json::parse(read_text(fx + "/verification_key.json"));
  const std::string p = dir.file("bad.json");
  auto proof_with = [&](auto&& mutate) {
    auto j = proof;
    mutate(j);
    write_text(p, j.dump());
    return p;
  };
  auto vk_with = [&](auto&& mutate) {
    auto j = vk;
    mutate(j);
    write_text(p, j.dump());
    return p;
  };
  const std::string q = ff::bigint_to_decimal(C::Fq::modulus());
  const std::string r = ff::bigint_to_decimal(C::Fr::modulus());

  EXPECT_FORMAT_ERROR(io::read_proof<C>(proof_with([](auto& j) { j["pi_a"][0] = "12a"; })),
                      "bad.json: pi_a[0]: \"12a\" is not a non-negative decimal integer");
  EXPECT_FORMAT_ERROR(io::read_proof<C>(proof_with([](auto& j) { j["pi_a"][0] = "-1"; })), "pi_a[0]");
  EXPECT_FORMAT_ERROR(io::read_proof<C>(proof_with([](auto& j) { j["pi_a"][0] = ""; })), "pi_a[0]");
  EXPECT_FORMAT_ERROR(io::read_proof<C>(proof_with([](auto& j) { j["pi_a"][1] = 5; })),
                      "pi_a[1]: expected a decimal string, got 5");
  EXPECT_FORMAT_ERROR(io::read_proof<C>(proof_with([&](auto& j) { j["pi_c"][0] = q; })),
                      "pi_c[0]: \"" + q.substr(0, 70));
  EXPECT_FORMAT_ERROR(io::read_proof<C>(proof_with([&](auto& j) { j["pi_c"][0] = q; })),
                      "is not less than the field modulus q");
  EXPECT_FORMAT_ERROR(io::read_proof<C>(proof_with([&](auto& j) { j["pi_b"][1][1] = q + "0"; })),
                      "pi_b[1][1]");
  EXPECT_FORMAT_ERROR(io::read_proof<C>(proof_with([](auto& j) { j["pi_a"].push_back("1"); })),
                      "pi_a: expected [x, y, z]");
  EXPECT_FORMAT_ERROR(io::read_proof<C>(proof_with([](auto& j) { j["pi_b"][0] = "1"; })),
                      "pi_b[0]: expected [c0, c1]");
  EXPECT_FORMAT_ERROR(io::read_proof<C>(proof_with([](auto& j) { j["pi_a"][2] = "2"; })),
                      "pi_a[2]: z must be \"1\"");
  EXPECT_FORMAT_ERROR(io::read_proof<C>(proof_with([](auto& j) {
                        j["pi_b"][2] = {"1", "1"};
                      })),
                      "pi_b[2]: z");
  EXPECT_FORMAT_ERROR(io::read_proof<C>(proof_with([](auto& j) { j["pi_a"][0] = "1"; })),
                      "pi_a: point not on curve");
  EXPECT_FORMAT_ERROR(io::read_proof<C>(proof_with([](auto& j) { j["pi_b"][0][1] = "1"; })),
                      "pi_b: point not on curve");
  EXPECT_FORMAT_ERROR(io::read_proof<C>(proof_with([](auto& j) { j.erase("pi_c"); })),
                      "missing field \"pi_c\"");
  EXPECT_FORMAT_ERROR(io::read_proof<C>(proof_with([](auto& j) { j["protocol"] = "plonk"; })),
                      "protocol: \"plonk\" is not supported");
  EXPECT_FORMAT_ERROR(io::read_proof<C>(proof_with([](auto& j) { j["curve"] = "secp256k1"; })),
                      "curve: \"secp256k1\" is not a supported curve");
  // z = 0 is infinity whatever x and y are; "1"/"0" shapes pass; a 2-element point is affine.
  EXPECT_TRUE(io::read_proof<C>(proof_with([](auto& j) { j["pi_a"][2] = "0"; })).a.is_infinity());
  EXPECT_NO_THROW(io::read_proof<C>(proof_with([](auto& j) { j["pi_a"].erase(2); })));
  EXPECT_NO_THROW(io::read_proof<C>(
      proof_with([](auto& j) { j["pi_a"][0] = "000" + j["pi_a"][0].template get<std::string>(); })));
  EXPECT_NO_THROW(io::read_proof<C>(proof_with([](auto& j) { j.erase("curve"); })));
  EXPECT_NO_THROW(io::read_proof<C>(proof_with([](auto& j) { j["curve"] = C::display_name; })));

  write_text(p, "{\"pi_a\": [");
  EXPECT_FORMAT_ERROR(io::read_proof<C>(p), "bad.json: invalid JSON");
  write_text(p, "[1]");
  EXPECT_FORMAT_ERROR(io::read_proof<C>(p), "expected a JSON object");
  EXPECT_FORMAT_ERROR(io::peek_json_curve(p), "expected a JSON object");
  write_text(p, "{}");
  EXPECT_FORMAT_ERROR(io::peek_json_curve(p), "missing field \"curve\"");

  // public.json
  write_text(p, "[\"1\", \"" + r + "\"]");
  EXPECT_FORMAT_ERROR(io::read_public<C>(p), "[1]: \"" + r.substr(0, 70));
  EXPECT_FORMAT_ERROR(io::read_public<C>(p), "is not less than the field modulus r");
  write_text(p, "[\"1\", 2]");
  EXPECT_FORMAT_ERROR(io::read_public<C>(p), "[1]: expected a decimal string");
  write_text(p, "{\"a\": \"1\"}");
  EXPECT_FORMAT_ERROR(io::read_public<C>(p), "expected an array of decimal strings");
  write_text(p, "[\"0x10\"]");
  EXPECT_FORMAT_ERROR(io::read_public<C>(p), "[0]: \"0x10\" is not a non-negative decimal integer");

  // verification_key.json
  EXPECT_FORMAT_ERROR(io::read_vk<C>(vk_with([](auto& j) { j["nPublic"] = 3; })),
                      "nPublic: 3 does not match IC, which has 2 points");
  EXPECT_FORMAT_ERROR(io::read_vk<C>(vk_with([](auto& j) { j["IC"] = nlohmann::ordered_json::array(); })),
                      "IC: expected a non-empty array");
  EXPECT_FORMAT_ERROR(io::read_vk<C>(vk_with([](auto& j) { j["IC"][1][1] = "7"; })),
                      "IC[1]: point not on curve");
  EXPECT_FORMAT_ERROR(io::read_vk<C>(vk_with([](auto& j) { j.erase("vk_delta_2"); })),
                      "missing field \"vk_delta_2\"");
  EXPECT_FORMAT_ERROR(io::read_vk<C>(vk_with([](auto& j) { j["vk_gamma_2"][0][0] = "x"; })),
                      "vk_gamma_2[0][0]");
  // vk_alphabeta_12 is optional.
  EXPECT_NO_THROW(io::read_vk<C>(vk_with([](auto& j) { j.erase("vk_alphabeta_12"); })));
}

TEST(IoJson, CurveNames) {
  EXPECT_EQ(io::parse_curve_name("bn128"), io::CurveId::bn254);
  EXPECT_EQ(io::parse_curve_name("BN254"), io::CurveId::bn254);
  EXPECT_EQ(io::parse_curve_name("AltBn128"), io::CurveId::bn254);
  EXPECT_EQ(io::parse_curve_name("bls12381"), io::CurveId::bls12_381);
  EXPECT_EQ(io::parse_curve_name("BLS12-381"), io::CurveId::bls12_381);
  EXPECT_FALSE(io::parse_curve_name("bls12377"));
  EXPECT_EQ(io::curve_name(io::CurveId::bn254), "bn128");
  EXPECT_EQ(io::curve_name(io::CurveId::bls12_381), "bls12381");
  const auto n =
      io::with_curve(io::CurveId::bls12_381, []<class C>() { return std::string(C::display_name); });
  EXPECT_EQ(n, "BLS12-381");
}

}  // namespace
