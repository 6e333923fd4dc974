// BN254 (alt_bn128, snarkjs "bn128") fields: Fq, Fr and the tower Fq2 ⊂ Fq6 ⊂ Fq12 with u² = -1,
// v³ = ξ = 9 + u, w² = v.
#pragma once

#include "ff/fp12.hpp"

namespace cuzk::ff::bn254 {

struct FqParams {
  static constexpr std::size_t N = 4;
  static constexpr const char* name = "bn254.Fq";
  CUZK_HD static constexpr BigInt<4> modulus() {
    return {{0x3c208c16d87cfd47ULL, 0x97816a916871ca8dULL, 0xb85045b68181585dULL, 0x30644e72e131a029ULL}};
  }
};
struct FrParams {
  static constexpr std::size_t N = 4;
  static constexpr const char* name = "bn254.Fr";
  CUZK_HD static constexpr BigInt<4> modulus() {
    return {{0x43e1f593f0000001ULL, 0x2833e84879b97091ULL, 0xb85045b68181585dULL, 0x30644e72e131a029ULL}};
  }
};

using Fq = Field<FqParams>;
using Fr = Field<FrParams>;
using Fq2 = ff::Fp2<Fq>;

struct TowerCfg {
  using Fp2 = bn254::Fq2;
  // ξ·(a0 + a1 u) = (9 a0 - a1) + (a0 + 9 a1) u
  CUZK_HD static constexpr Fq2 mul_by_xi(const Fq2& a) {
    Fq a0_8 = a.c0.dbl().dbl().dbl(), a1_8 = a.c1.dbl().dbl().dbl();
    return {a0_8 + a.c0 - a.c1, a1_8 + a.c1 + a.c0};
  }
  CUZK_HD static constexpr Fq2 xi() { return {Fq::from_u64(9), Fq::one()}; }
};

using Fq6 = ff::Fp6<TowerCfg>;
using Fq12 = ff::Fp12<TowerCfg>;

}  // namespace cuzk::ff::bn254
