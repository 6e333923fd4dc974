// BN254 groups: G1: y² = x³ + 3 over Fq; G2: the D-type sextic twist y² = x³ + 3/ξ over Fq2.
#pragma once

#include "ec/point.hpp"
#include "ff/bn254.hpp"

namespace cuzk::ec::bn254 {

using namespace cuzk::ff::bn254;
using ff::bigint_from_dec;

struct G1Cfg {
  using F = Fq;
  using Scalar = Fr;
  CUZK_HD static constexpr F b() { return F::from_u64(3); }
  static constexpr Affine<G1Cfg> generator() { return {F::from_u64(1), F::from_u64(2)}; }
};

struct G2Cfg {
  using F = Fq2;
  using Scalar = Fr;
  CUZK_HD static constexpr F b() {
    return {Fq::from_int(bigint_from_dec<4>(
                "19485874751759354771024239261021720505790618469301721065564631296452457478373")),
            Fq::from_int(bigint_from_dec<4>(
                "266929791119991161246907387137283842545076965332900288569378510910307636690"))};
  }
  static constexpr Affine<G2Cfg> generator() {
    return {{Fq::from_int(bigint_from_dec<4>(
                 "10857046999023057135944570762232829481370756359578518086990519993285655852781")),
             Fq::from_int(bigint_from_dec<4>(
                 "11559732032986387107991004021392285783925812861821192530917403151452391805634"))},
            {Fq::from_int(bigint_from_dec<4>(
                 "8495653923123431417604973247489272438418190587263600148770280649306958101930")),
             Fq::from_int(bigint_from_dec<4>(
                 "4082367875863433681332203403145435568316851327593401208105741076214120093531"))}};
  }
};

}  // namespace cuzk::ec::bn254

namespace cuzk {

// Everything generic code needs to know about one curve.
struct Bn254 {
  static constexpr const char* snarkjs_name = "bn128";
  static constexpr const char* display_name = "BN254";
  using Fq = ff::bn254::Fq;
  using Fr = ff::bn254::Fr;
  using Fq2 = ff::bn254::Fq2;
  using Fq12 = ff::bn254::Fq12;
  using G1Cfg = ec::bn254::G1Cfg;
  using G2Cfg = ec::bn254::G2Cfg;
  using G1 = ec::Affine<G1Cfg>;
  using G2 = ec::Affine<G2Cfg>;
  using G1Jac = ec::Jacobian<G1Cfg>;
  using G2Jac = ec::Jacobian<G2Cfg>;
};

}  // namespace cuzk
