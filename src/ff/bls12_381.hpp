// BLS12-381 fields: Fq (381 bits), Fr (255 bits) and the tower Fq2 ⊂ Fq6 ⊂ Fq12 with u² = -1,
// v³ = ξ = 1 + u, w² = v.
#pragma once

#include "ff/fp12.hpp"

namespace cuzk::ff::bls12_381 {

struct FqParams {
  static constexpr std::size_t N = 6;
  static constexpr const char* name = "bls12_381.Fq";
  CUZK_HD static constexpr BigInt<6> modulus() {
    return {{0xb9feffffffffaaabULL, 0x1eabfffeb153ffffULL, 0x6730d2a0f6b0f624ULL, 0x64774b84f38512bfULL,
             0x4b1ba7b6434bacd7ULL, 0x1a0111ea397fe69aULL}};
  }
};
struct FrParams {
  static constexpr std::size_t N = 4;
  static constexpr const char* name = "bls12_381.Fr";
  CUZK_HD static constexpr BigInt<4> modulus() {
    return {{0xffffffff00000001ULL, 0x53bda402fffe5bfeULL, 0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL}};
  }
};

using Fq = Field<FqParams>;
using Fr = Field<FrParams>;
using Fq2 = ff::Fp2<Fq>;

struct TowerCfg {
  using Fp2 = bls12_381::Fq2;
  // ξ·(a0 + a1 u) = (a0 - a1) + (a0 + a1) u
  CUZK_HD static constexpr Fq2 mul_by_xi(const Fq2& a) { return {a.c0 - a.c1, a.c0 + a.c1}; }
  CUZK_HD static constexpr Fq2 xi() { return {Fq::one(), Fq::one()}; }
};

using Fq6 = ff::Fp6<TowerCfg>;
using Fq12 = ff::Fp12<TowerCfg>;

}  // namespace cuzk::ff::bls12_381
