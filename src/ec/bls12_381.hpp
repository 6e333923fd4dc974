// BLS12-381 groups: G1: y² = x³ + 4 over Fq; G2: the M-type sextic twist y² = x³ + 4ξ over Fq2.
#pragma once

#include "ec/point.hpp"
#include "ff/bls12_381.hpp"

namespace cuzk::ec::bls12_381 {

using namespace cuzk::ff::bls12_381;
using ff::bigint_from_hex;

struct G1Cfg {
  using F = Fq;
  using Scalar = Fr;
  CUZK_HD static constexpr F b() { return F::from_u64(4); }
  static constexpr Affine<G1Cfg> generator() {
    return {
        Fq::from_int(bigint_from_hex<6>("0x17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac58"
                                        "6c55e83ff97a1aeffb3af00adb22c6bb")),
        Fq::from_int(bigint_from_hex<6>("0x08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3ed"
                                        "d03cc744a2888ae40caa232946c5e7e1"))};
  }
};

struct G2Cfg {
  using F = Fq2;
  using Scalar = Fr;
  CUZK_HD static constexpr F b() { return {Fq::from_u64(4), Fq::from_u64(4)}; }
  static constexpr Affine<G2Cfg> generator() {
    return {
        {Fq::from_int(bigint_from_hex<6>("0x024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d177"
                                         "0bac0326a805bbefd48056c8c121bdb8")),
         Fq::from_int(bigint_from_hex<6>("0x13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049"
                                         "334cf11213945d57e5ac7d055d042b7e"))},
        {Fq::from_int(bigint_from_hex<6>("0x0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c"
                                         "923ac9cc3baca289e193548608b82801")),
         Fq::from_int(bigint_from_hex<6>("0x0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab"
                                         "3f370d275cec1da1aaa9075ff05f79be"))}};
  }
};

}  // namespace cuzk::ec::bls12_381

namespace cuzk {

struct Bls12_381 {
  static constexpr const char* snarkjs_name = "bls12381";
  static constexpr const char* display_name = "BLS12-381";
  using Fq = ff::bls12_381::Fq;
  using Fr = ff::bls12_381::Fr;
  using Fq2 = ff::bls12_381::Fq2;
  using Fq12 = ff::bls12_381::Fq12;
  using G1Cfg = ec::bls12_381::G1Cfg;
  using G2Cfg = ec::bls12_381::G2Cfg;
  using G1 = ec::Affine<G1Cfg>;
  using G2 = ec::Affine<G2Cfg>;
  using G1Jac = ec::Jacobian<G1Cfg>;
  using G2Jac = ec::Jacobian<G2Cfg>;
};

}  // namespace cuzk
