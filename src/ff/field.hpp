// One generic Montgomery field, Fp for any odd modulus with a spare top bit, on the host and device.
//
// Layout: N little-endian 64-bit limbs holding x·R mod p with R = 2^(64·N). On the GPU the same bytes
// read as 2N 32-bit limbs with the same R, so data moves between host and device without conversion.
// Constants (R mod p, R² mod p, -p⁻¹ mod 2^64, exponents) are derived from the modulus at compile time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "ff/bigint.hpp"
#include "ff/x86_mont.hpp"
#if !defined(__CUDA_ARCH__)
#include "ff/safegcd.hpp"
#endif
#if defined(__CUDACC__)
#include <type_traits>

#include "ff/mont32.hpp"
#include "ff/mont_fp64.hpp"
#endif

namespace cuzk::ff {

// Params provides: static constexpr std::size_t N; static constexpr BigInt<N> modulus();
//                  static constexpr const char* name;
template <class Params>
struct Field {
  static constexpr std::size_t N = Params::N;
  using Int = BigInt<N>;
  using params = Params;

  u64 l[N];  // Montgomery form

  // ---- compile-time constants -------------------------------------------------------------------
  CUZK_HD static constexpr Int modulus() { return Params::modulus(); }
  CUZK_HD static constexpr std::size_t bits() { return modulus().num_bits(); }
  CUZK_HD static constexpr std::size_t bytes() { return N * 8; }
  // -p⁻¹ mod 2^64 by Newton iteration (each step doubles the correct low bits).
  CUZK_HD static constexpr u64 inv() {
    u64 p0 = modulus().v[0], x = 1;
    for (int i = 0; i < 7; ++i) x *= 2 - p0 * x;
    return ~x + 1;
  }
  // 2^k mod p by repeated doubling, starting from 1.
  CUZK_HD static constexpr Int pow2_mod(std::size_t k) {
    Int r = bigint_from_u64<N>(1);
    for (std::size_t i = 0; i < k; ++i) r = bigint_double_mod(r, modulus());
    return r;
  }
  CUZK_HD static constexpr Int R() { return pow2_mod(64 * N); }
  CUZK_HD static constexpr Int R2() { return pow2_mod(128 * N); }
  // p - 1 = 2^s · t with t odd.
  CUZK_HD static constexpr std::size_t two_adicity() {
    return bigint_trailing_zeros(bigint_sub_u64(modulus(), 1));
  }
  CUZK_HD static constexpr Int two_adic_cofactor() {
    return bigint_shr(bigint_sub_u64(modulus(), 1), two_adicity());
  }

  static_assert(Params::modulus().v[N - 1] < (~u64(0) >> 1) - 1,
                "the no-carry Montgomery multiply needs a spare top bit in the modulus");

  // ---- construction -----------------------------------------------------------------------------
  CUZK_HD static constexpr Field zero() { return Field{}; }
  CUZK_HD static constexpr Field one() { return from_raw(R()); }
  // Wraps limbs that are already in Montgomery form (e.g. read from a snarkjs file).
  CUZK_HD static constexpr Field from_raw(const Int& mont) {
    Field f{};
    for (std::size_t i = 0; i < N; ++i) f.l[i] = mont.v[i];
    return f;
  }
  // Converts a canonical integer (< p) into Montgomery form.
  CUZK_HD static constexpr Field from_int(const Int& canonical) {
    return from_raw(canonical) * from_raw(R2());
  }
  CUZK_HD static constexpr Field from_u64(u64 x) { return from_int(bigint_from_u64<N>(x)); }

  CUZK_HD constexpr Int raw() const {
    Int r{};
    for (std::size_t i = 0; i < N; ++i) r.v[i] = l[i];
    return r;
  }
  // The canonical integer in [0, p).
  CUZK_HD constexpr Int to_int() const { return (*this * from_raw(bigint_from_u64<N>(1))).raw(); }

  // ---- predicates -------------------------------------------------------------------------------
  CUZK_HD constexpr bool is_zero() const { return raw().is_zero(); }
  CUZK_HD constexpr bool is_one() const { return raw() == R(); }
  CUZK_HD constexpr bool operator==(const Field& o) const { return raw() == o.raw(); }
  CUZK_HD constexpr bool operator!=(const Field& o) const { return !(*this == o); }
  // True when the stored limbs are a valid (reduced) representative.
  CUZK_HD constexpr bool is_reduced() const { return bigint_less(raw(), modulus()); }

  // ---- arithmetic -------------------------------------------------------------------------------
  CUZK_HD CUZK_FF_ASM_INLINE constexpr Field operator+(const Field& b) const {
#if defined(__CUDA_ARCH__)
    // Device: 32-bit PTX carry chains; the 64-bit form below would emulate every carry.
    if (!std::is_constant_evaluated()) return from_raw(mont32::add_int<Params, N>(raw(), b.raw()));
#endif
#if CUZK_FF_X86_ASM
    if (!std::is_constant_evaluated()) {  // x86_mont.hpp: adc chain, no branch
      Field r;
      x86::mod_add(r.l, l, b.l, x86::kMontConsts<Params>);
      return r;
    }
#endif
    Field r{};
    u64 carry = 0;
    for (std::size_t i = 0; i < N; ++i) {
      u128 t = static_cast<u128>(l[i]) + b.l[i] + carry;
      r.l[i] = static_cast<u64>(t);
      carry = static_cast<u64>(t >> 64);
    }
    r.reduce_once();
    return r;
  }
  CUZK_HD CUZK_FF_ASM_INLINE constexpr Field operator-(const Field& b) const {
#if defined(__CUDA_ARCH__)
    if (!std::is_constant_evaluated()) return from_raw(mont32::sub_int<Params, N>(raw(), b.raw()));
#endif
#if CUZK_FF_X86_ASM
    if (!std::is_constant_evaluated()) {
      Field r;
      x86::mod_sub(r.l, l, b.l, x86::kMontConsts<Params>);
      return r;
    }
#endif
    Field r{};
    u64 borrow = 0;
    for (std::size_t i = 0; i < N; ++i) {
      u128 t = static_cast<u128>(l[i]) - b.l[i] - borrow;
      r.l[i] = static_cast<u64>(t);
      borrow = static_cast<u64>(t >> 64) & 1;
    }
    if (borrow) {
      constexpr Int p = modulus();
      u64 carry = 0;
      for (std::size_t i = 0; i < N; ++i) {
        u128 t = static_cast<u128>(r.l[i]) + p.v[i] + carry;
        r.l[i] = static_cast<u64>(t);
        carry = static_cast<u64>(t >> 64);
      }
    }
    return r;
  }
  CUZK_HD constexpr Field operator-() const {
    return zero() - *this;
  }
  CUZK_HD constexpr Field dbl() const {
    return *this + *this;
  }

  // Montgomery product a·b·R⁻¹. On x86-64 hosts with BMI2/ADX, 4- and 6-limb fields use the asm in
  // x86_mont.hpp; constant evaluation, device code and other sizes use the portable CIOS below.
  CUZK_HD CUZK_FF_ASM_INLINE constexpr Field operator*(const Field& b) const {
#if defined(__CUDA_ARCH__)
    // The GPU has no fast 64-bit multiply: the 381-bit field multiplies on the FP64 pipe (mont_fp64.hpp),
    // the others run the same CIOS on 32-bit limbs of the same bytes.
    if (!std::is_constant_evaluated()) {
      if constexpr (fp64::kUseFp64<Params>) return from_raw(fp64::mul<Params>(raw(), b.raw()));
      return from_raw(mont32::mul<Params, N>(raw(), b.raw()));
    }
#endif
#if CUZK_FF_X86_ASM
    if constexpr (x86::kHasMontMul<N>) {
      if (!std::is_constant_evaluated()) {
        Field r;
        x86::mont_mul(r.l, l, b.l, x86::kMontConsts<Params>);
        return r;
      }
    }
#endif
    return mul_portable(b);
  }
  // The product on the device's integer pipe (mont32), whatever the field's default: Fp2 multiplies
  // with it, because the G2 kernels sit at the 255-register limit, where the FP64 form's extra
  // registers spill (BLS12-381 G2 MSM 2^24 on an H200: 563 → 636 ms with it).
  CUZK_HD constexpr Field mul_integer_pipe(const Field& b) const {
#if defined(__CUDA_ARCH__)
    if (!std::is_constant_evaluated()) return from_raw(mont32::mul<Params, N>(raw(), b.raw()));
#endif
    return *this * b;
  }
  // The product with the device multiply inlined: for kernels whose inner loop is one or two
  // multiplications (NTT butterflies), where the call costs more than it saves in code size.
  CUZK_HD constexpr Field mul_inlined(const Field& b) const {
#if defined(__CUDA_ARCH__)
    if (!std::is_constant_evaluated()) {
      Field r;
      mont32::mul_into<Params, N>(r.l, l, b.l);
      return r;
    }
#endif
    return *this * b;
  }
  // On the device the 381-bit field squares on the FP64 pipe (fp64::sqr, 100 products against the
  // multiply's 128); the other fields square by multiplying: mont32::sqr_chain alone runs 14% faster
  // than the multiply, but as a second called function it raised the MSM kernels' register footprint
  // and made the BLS12-381 G1 MSM 12% slower (2^24: 192 → 214 ms).
  CUZK_HD CUZK_FF_ASM_INLINE constexpr Field sqr() const {
#if defined(__CUDA_ARCH__)
    if (!std::is_constant_evaluated()) {
      if constexpr (fp64::kUseFp64<Params> && CUZK_FP64_SQR) return from_raw(fp64::sqr<Params>(raw()));
    }
#endif
#if CUZK_FF_X86_ASM
    if constexpr (x86::kHasMontSqr<N>) {
      if (!std::is_constant_evaluated()) {
        Field r;
        x86::mont_sqr(r.l, l, x86::kMontConsts<Params>);
        return r;
      }
    }
#endif
    return *this * *this;
  }
  // The portable Montgomery product (CIOS). The modulus' spare top bit lets the two carry chains share
  // the top word without an extra limb ("no-carry" variant).
  CUZK_HD constexpr Field mul_portable(const Field& b) const {
    constexpr Int p = modulus();
    constexpr u64 pinv = inv();
    u64 t[N] = {};
    for (std::size_t i = 0; i < N; ++i) {
      u128 acc = static_cast<u128>(l[0]) * b.l[i] + t[0];
      u64 a_carry = static_cast<u64>(acc >> 64);
      u64 t0 = static_cast<u64>(acc);
      u64 m = t0 * pinv;
      u128 red = static_cast<u128>(m) * p.v[0] + t0;
      u64 c_carry = static_cast<u64>(red >> 64);
      for (std::size_t j = 1; j < N; ++j) {
        acc = static_cast<u128>(l[j]) * b.l[i] + t[j] + a_carry;
        a_carry = static_cast<u64>(acc >> 64);
        red = static_cast<u128>(m) * p.v[j] + static_cast<u64>(acc) + c_carry;
        c_carry = static_cast<u64>(red >> 64);
        t[j - 1] = static_cast<u64>(red);
      }
      t[N - 1] = a_carry + c_carry;
    }
    Field r{};
    for (std::size_t i = 0; i < N; ++i) r.l[i] = t[i];
    r.reduce_once();
    return r;
  }
  CUZK_HD CUZK_FF_ASM_INLINE constexpr Field& operator+=(const Field& b) {
    return *this = *this + b;
  }
  CUZK_HD CUZK_FF_ASM_INLINE constexpr Field& operator-=(const Field& b) {
    return *this = *this - b;
  }
  CUZK_HD CUZK_FF_ASM_INLINE constexpr Field& operator*=(const Field& b) {
    return *this = *this * b;
  }

  // x^e for an exponent given as limbs (little-endian), left-to-right square and multiply.
  template <std::size_t M>
  CUZK_HD constexpr Field pow(const BigInt<M>& e) const {
    Field r = one();
    for (std::size_t i = e.num_bits(); i-- > 0;) {
      r = r.sqr();
      if (e.bit(i)) r *= *this;
    }
    return r;
  }
  CUZK_HD constexpr Field pow(u64 e) const {
    return pow(bigint_from_u64<1>(e));
  }

  // Multiplicative inverse; inverse of zero is zero. On the host: Bernstein–Yang safegcd
  // (safegcd.hpp), 7-23× faster than exponentiation but variable-time: its running time depends on x.
  // Where that matters (secrets on a machine shared with an observer), use inverse_fermat(). Constant
  // evaluation and device code use Fermat, x^(p-2).
  CUZK_HD constexpr Field inverse() const {
#if !defined(__CUDA_ARCH__)
    if (!std::is_constant_evaluated()) {
      // The GCD inverts the raw limbs: (xR)⁻¹. One Montgomery product with R³ gives x⁻¹·R.
      constexpr Field r3 = from_raw(R2()).mul_portable(from_raw(R2()));
      return from_raw(safegcd_inverse(raw(), kSafeGcdModulus<Params>)) * r3;
    }
#endif
    return inverse_fermat();
  }
  CUZK_HD constexpr Field inverse_fermat() const {
    return pow(bigint_sub_u64(modulus(), 2));
  }

  // Legendre symbol: 1 for a non-zero square, -1 for a non-square, 0 for zero.
  CUZK_HD constexpr int legendre() const {
    if (is_zero()) return 0;
    Field e = pow(bigint_shr(bigint_sub_u64(modulus(), 1), 1));
    return e.is_one() ? 1 : -1;
  }

  // Square root (Tonelli-Shanks; the p ≡ 3 mod 4 shortcut when it applies). Returns false when x is
  // not a square. Which of the two roots is returned is unspecified.
  CUZK_HD constexpr bool sqrt(Field& out) const {
    if (is_zero()) {
      out = zero();
      return true;
    }
    if (legendre() != 1) return false;
    constexpr Int p = modulus();
    if ((p.v[0] & 3) == 3) {
      out = pow(bigint_shr(bigint_add_u64(p, 1), 2));
      return true;
    }
    // Tonelli-Shanks with the smallest non-residue z.
    Field z = from_u64(2);
    while (z.legendre() != -1) z += one();
    std::size_t m = two_adicity();
    Int t = two_adic_cofactor();
    Field c = z.pow(t);
    Field r = pow(bigint_shr(bigint_add_u64(t, 1), 1));
    Field tt = pow(t);
    while (!tt.is_one()) {
      std::size_t i = 0;
      Field t2 = tt;
      while (!t2.is_one()) {
        t2 = t2.sqr();
        ++i;
      }
      Field b = c;
      for (std::size_t j = 0; j + i + 1 < m; ++j) b = b.sqr();
      m = i;
      c = b.sqr();
      tt *= c;
      r *= b;
    }
    out = r;
    return true;
  }

 private:
  CUZK_HD constexpr void reduce_once() {
    constexpr Int p = modulus();
    u64 tmp[N] = {};
    u64 borrow = 0;
    for (std::size_t i = 0; i < N; ++i) {
      u128 t = static_cast<u128>(l[i]) - p.v[i] - borrow;
      tmp[i] = static_cast<u64>(t);
      borrow = static_cast<u64>(t >> 64) & 1;
    }
    if (!borrow)
      for (std::size_t i = 0; i < N; ++i) l[i] = tmp[i];
  }
};

}  // namespace cuzk::ff
