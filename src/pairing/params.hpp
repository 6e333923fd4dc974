// Per-curve pairing parameters: the Miller loop scalar, the twist type, the final exponent and, for
// BN curves, the Frobenius endomorphism on the twist. Constants: scripts/gen_constants.py.
#pragma once

#include "ec/bls12_381.hpp"
#include "ec/bn254.hpp"

namespace cuzk::pairing {

enum class Twist { D, M };

template <class Curve>
struct Params;

template <>
struct Params<Bn254> {
  static constexpr Twist twist = Twist::D;
  static constexpr bool loop_negative = false;
  static constexpr bool frobenius_correction = true;
  // 6x + 2 with x = 4965661367192848881
  static constexpr ff::BigInt<2> loop_count() { return {{0x9d797039be763ba8ULL, 0x1ULL}}; }
  // (p⁶ + 1)/r
  static constexpr ff::BigInt<20> final_exponent() {
    return {{0x5250a54036e3f812ULL, 0xa5635f1596789051ULL, 0xd1138bf54d5bd1d4ULL, 0xa8ce2533be36c7a2ULL,
             0x94f69f6b84e09bf6ULL, 0x42ad1f5e50ef3644ULL, 0x0fcc420e48c3454cULL, 0x758e4408ecc9952cULL,
             0xc901bf1887c6042cULL, 0xa733cd65b14bb3b5ULL, 0xdf6d76bdcf51b0d8ULL, 0xca64c0fd82eb59e1ULL,
             0x1d2e5726e39276a1ULL, 0xc2d1ea74a391cae9ULL, 0x07409206c82d647eULL, 0x051c6d1aa5afdd17ULL,
             0xb37f601919667af5ULL, 0x150e578c5084015bULL, 0xfbdea556c23998e4ULL, 0x000fd14cc52f5b83ULL}};
  }
  // π(x, y) = (x̄·ξ^((p-1)/3), ȳ·ξ^((p-1)/2)): the p-power Frobenius carried through the twist.
  static Bn254::G2 twist_frobenius(const Bn254::G2& q) {
    static const auto consts = [] {
      using ff::bigint_divmod_small;
      auto e = ff::bigint_sub_u64(Bn254::Fq::modulus(), 1);
      auto e3 = e, e2 = e;
      bigint_divmod_small(e3, 3);
      bigint_divmod_small(e2, 2);
      auto xi = ff::bn254::TowerCfg::xi();
      return std::pair{xi.pow(e3), xi.pow(e2)};
    }();
    return {q.x.conjugate() * consts.first, q.y.conjugate() * consts.second};
  }
};

template <>
struct Params<Bls12_381> {
  static constexpr Twist twist = Twist::M;
  static constexpr bool loop_negative = true;  // x = -0xd201000000010000
  static constexpr bool frobenius_correction = false;
  static constexpr ff::BigInt<1> loop_count() { return {{0xd201000000010000ULL}}; }
  static constexpr ff::BigInt<32> final_exponent() {
    return {{0x8739e1cdc0705d6aULL, 0x09a5256de0381a16ULL, 0x9cf0f70a61c791e2ULL, 0x3a09c4497903f76eULL,
             0x2d7271563890f133ULL, 0x224741b36fec7760ULL, 0x338259c22a12bd40ULL, 0x38ee1cd4778e0de7ULL,
             0xc3b5ef4b188a20b0ULL, 0x1d615d49e2764d7bULL, 0x816101ddd076117dULL, 0xf007c01e7ebe3afcULL,
             0x27d7bd90935021c3ULL, 0xc3b5e2f557c0b15fULL, 0x5e886c94c4f82384ULL, 0xee6a95db11e63f56ULL,
             0x2b822f514a9c4f6fULL, 0x12d6a874d21b73daULL, 0x1304275ef499dffbULL, 0x967878febcb95d1fULL,
             0x4744497f8b2f2922ULL, 0x85a2e707f0841855ULL, 0x9f0c50126c802eecULL, 0xfb46e197bd2fa489ULL,
             0x548ce0809bc5f61aULL, 0xcf56fb1573beaa8cULL, 0xad7375a3763bdf7cULL, 0xe0ec9031179bdeccULL,
             0x6579aea83c48c1daULL, 0xdbf85ae664cf5bb3ULL, 0x7b6f235c55ca7566ULL, 0x000028b314877503ULL}};
  }
};

}  // namespace cuzk::pairing
