// Montgomery multiplication and squaring for 4- and 6-limb moduli in x86-64 assembly (host only).
//
// Why asm: the portable CIOS in field.hpp goes through unsigned __int128, which GCC turns into
// mul/add/adc sequences serialised on the one carry flag. BMI2's mulx (explicit destinations, flags
// untouched) with ADX's adcx/adox (carry chains on CF and on OF, independent of each other) lets the
// low halves of a row of products be added on one chain while the high halves go on the other, with no
// carry ever parked in a register. Compilers do not produce this from the _mulx_u64/_addcarryx_u64
// intrinsics (GCC 12 merges both chains into one adc chain: no faster than the portable code).
//
// Algorithm (CIOS, "no-carry" variant): for each word b_i, t += a·b_i, then m = t_0·(-p⁻¹) mod 2^64 and
// t = (t + m·p) / 2^64. With a, b < p < 2^(64N-1) (a spare top bit) t stays below 2p after each round,
// so t + a·b_i + m·p fits in N+1 words; each chain's final carry-out is then provably zero (the sum is
// exact and below 2^(64(N+1))), which is why the code drops them. The division by 2^64 is free: the
// code is fully unrolled and registers are renamed instead of moved (the word that became zero is the
// next round's top word). One conditional subtraction with cmov (no data-dependent branch) brings
// [0, 2p) to [0, p).
//
// Latency tricks in the reduction (the loop-carried path is t_0 → m → m·p → next t_0):
//  - t_0 + lo(m·p_0) ≡ 0 mod 2^64, so only its carry matters, and that carry is (t_0 ≠ 0): it comes
//    from adding -t_0 to t_0 (adcx), off the critical path, instead of waiting for lo(m·p_0).
//  - mulx with equal destinations keeps only the high half, so hi(m·p_0) costs no extra register.
//  - The high halves of m·p alternate between `hi` and the dead t_0 register so that each lands in
//    its word after the low half of the next product, shortening t_0's dependency chain.
//
// Squaring (N = 4 only): the 8-word square needs 10 products instead of 16 (cross products once,
// doubled, plus the diagonal). Only its low half L is reduced: REDC(H·2^256 + L) = H + (L + m·p)/2^256
// < p/2 + p + 1 < 2p for a < p, then the same conditional subtraction. A 12-word square does not fit
// the registers, so for N = 6 sqr() uses the multiplication.
//
// Availability: mulx needs BMI2 and adcx/adox need ADX. The asm assembles whatever the -m flags are,
// so the guard is about the CPU the binary runs on: it is enabled only when the compiler targets both
// (-march=x86-64-v3 gives BMI2; CMake adds -madx), never in device code (nvcc defines __CUDA_ARCH__ in
// its device pass), and only in optimised builds: at -O0 GCC gives every memory operand its own
// address register, which the 6-limb version cannot spare. Constant evaluation is excluded by the
// caller (std::is_constant_evaluated()). Defining CUZK_NO_X86_ASM forces the portable code.
#pragma once

#include <cstddef>

#include "ff/bigint.hpp"

#if defined(__x86_64__) && defined(__BMI2__) && defined(__ADX__) && defined(__OPTIMIZE__) && \
    !defined(__CUDA_ARCH__) && !defined(CUZK_NO_X86_ASM)
#define CUZK_FF_X86_ASM 1
#else
#define CUZK_FF_X86_ASM 0
#endif

// Field::operator* and sqr() are forced inline when they wrap the asm. GCC sizes an asm statement by
// its line count and would otherwise call them out of line; the result then comes back through
// memory as four 8-byte stores that the caller reloads as two 16-byte vector loads, which cannot be
// store-forwarded and stall for about as long as the multiplication itself (20 ns instead of 13).
#if CUZK_FF_X86_ASM
#define CUZK_FF_ASM_INLINE __attribute__((always_inline))
#else
#define CUZK_FF_ASM_INLINE
#endif

#if CUZK_FF_X86_ASM

#include <immintrin.h>

namespace cuzk::ff::x86 {

// Sizes that have an asm path; everything else uses the portable code.
template <std::size_t N>
inline constexpr bool kHasMontMul = N == 4 || N == 6;
template <std::size_t N>
inline constexpr bool kHasMontSqr = N == 4;

// The modulus and -p⁻¹ mod 2^64 in static storage: mulx takes no immediate, and a RIP-relative memory
// operand costs no register.
template <std::size_t N>
struct MontConsts {
  u64 p[N];
  u64 pinv;
};
template <class Params>
inline constexpr MontConsts<Params::N> kMontConsts = [] {
  MontConsts<Params::N> c{};
  for (std::size_t i = 0; i < Params::N; ++i) c.p[i] = Params::modulus().v[i];
  u64 x = 1;
  for (int i = 0; i < 7; ++i) x *= 2 - c.p[0] * x;  // Newton: p⁻¹ mod 2^64
  c.pinv = ~x + 1;
  return c;
}();

// clang-format off
// Building blocks. Operands are named: %[t0] etc. AT&T order: mulx src, lo, hi (the other factor is
// rdx); adcx/adox src, dst.
#define CUZK_MULX(src, lo, hi) "mulxq " src ", %[" #lo "], %[" #hi "]\n\t"
#define CUZK_ADCX(src, dst) "adcxq %[" #src "], %[" #dst "]\n\t"
#define CUZK_ADOX(src, dst) "adoxq %[" #src "], %[" #dst "]\n\t"
#define CUZK_ADCX_RDX(dst) "adcxq %%rdx, %[" #dst "]\n\t"
#define CUZK_ADOX_RDX(dst) "adoxq %%rdx, %[" #dst "]\n\t"
// xor of a scratch register clears CF and OF: the start of both chains.
#define CUZK_CLEAR(r) "xorl %k[" #r "], %k[" #r "]\n\t"
// rdx is free after a row's last mulx; mov (unlike xor) leaves the flags alone, so rdx can then serve
// as the zero that absorbs a chain's last carry.
#define CUZK_RDX_ZERO "movl $0, %%edx\n\t"
#define CUZK_LOAD_RDX(src) "movq " src ", %%rdx\n\t"

// Start of a reduction round: rdx = m = T0·(-p⁻¹); CF = (T0 ≠ 0), the carry of T0 + lo(m·p0); OF = 0;
// hi = hi(m·p0). T0 is dead afterwards and serves as scratch.
#define CUZK_REDC_START(T0)                                                                           \
  "movq %[" #T0 "], %[lo]\n\t"                                                                        \
  "negq %[lo]\n\t"                                                                                    \
  CUZK_LOAD_RDX("%[pinv]")                                                                            \
  "imulq %[" #T0 "], %%rdx\n\t"                                                                       \
  CUZK_CLEAR(hi)                                                                                      \
  CUZK_ADCX(T0, lo)                                                                                   \
  CUZK_MULX("%[p0]", hi, hi)

// ---- 4 limbs -----------------------------------------------------------------------------------------
// t0..t4 rotate: four words of t plus the top word.
// Row 0: t = a·b_0 (t starts at zero: one chain).
#define CUZK_M4_ROW0(T0, T1, T2, T3, T4)                                                              \
  CUZK_LOAD_RDX("0(%[b])") CUZK_CLEAR(lo)                                                             \
  CUZK_MULX("0(%[a])", T0, T1)                                                                        \
  CUZK_MULX("8(%[a])", lo, T2) CUZK_ADCX(lo, T1)                                                      \
  CUZK_MULX("16(%[a])", lo, T3) CUZK_ADCX(lo, T2)                                                     \
  CUZK_MULX("24(%[a])", lo, T4) CUZK_ADCX(lo, T3)                                                     \
  CUZK_RDX_ZERO CUZK_ADCX_RDX(T4)
// Row i > 0: t += a·b_i; low halves on OF, high halves on CF; both end in the new top word T4.
#define CUZK_M4_ROW(OFF, T0, T1, T2, T3, T4)                                                          \
  CUZK_LOAD_RDX(OFF "(%[b])") CUZK_CLEAR(lo)                                                          \
  CUZK_MULX("0(%[a])", lo, hi) CUZK_ADOX(lo, T0) CUZK_ADCX(hi, T1)                                    \
  CUZK_MULX("8(%[a])", lo, hi) CUZK_ADOX(lo, T1) CUZK_ADCX(hi, T2)                                    \
  CUZK_MULX("16(%[a])", lo, hi) CUZK_ADOX(lo, T2) CUZK_ADCX(hi, T3)                                   \
  CUZK_MULX("24(%[a])", lo, T4) CUZK_ADOX(lo, T3)                                                     \
  CUZK_RDX_ZERO CUZK_ADCX_RDX(T4) CUZK_ADOX_RDX(T4)
// t = (t + m·p) / 2^64: lows of m·p on CF, highs on OF; the result is in T1..T4.
#define CUZK_M4_REDC(T0, T1, T2, T3, T4)                                                              \
  CUZK_REDC_START(T0)                                                                                 \
  CUZK_MULX("%[p1]", lo, T0) CUZK_ADCX(lo, T1) CUZK_ADOX(hi, T1)                                      \
  CUZK_MULX("%[p2]", lo, hi) CUZK_ADCX(lo, T2) CUZK_ADOX(T0, T2)                                      \
  CUZK_MULX("%[p3]", lo, T0) CUZK_ADCX(lo, T3) CUZK_ADOX(hi, T3)                                      \
  CUZK_RDX_ZERO CUZK_ADCX_RDX(T4) CUZK_ADOX(T0, T4)
// The same when no row is pending: the top word T4 starts at zero (squaring).
#define CUZK_S4_REDC(T0, T1, T2, T3, T4)                                                              \
  CUZK_REDC_START(T0)                                                                                 \
  CUZK_MULX("%[p1]", lo, T0) CUZK_ADCX(lo, T1) CUZK_ADOX(hi, T1)                                      \
  CUZK_MULX("%[p2]", lo, hi) CUZK_ADCX(lo, T2) CUZK_ADOX(T0, T2)                                      \
  CUZK_MULX("%[p3]", lo, T4) CUZK_ADCX(lo, T3) CUZK_ADOX(hi, T3)                                      \
  CUZK_RDX_ZERO CUZK_ADCX_RDX(T4) CUZK_ADOX_RDX(T4)
// (R0..R3) -= p unless that borrows; S0..S3 are scratch ("rdx" names rdx itself).
#define CUZK_SUB_STEP(op, R, S, P) "movq %[" #R "], " S "\n\t" op " %[" #P "], " S "\n\t"
#define CUZK_CMOV_STEP(S, R) "cmovncq " S ", %[" #R "]\n\t"
#define CUZK_REG(x) "%[" #x "]"
#define CUZK_M4_FINAL(R0, R1, R2, R3, S0, S1, S2)                                                     \
  CUZK_SUB_STEP("subq", R0, CUZK_REG(S0), p0) CUZK_SUB_STEP("sbbq", R1, CUZK_REG(S1), p1)             \
  CUZK_SUB_STEP("sbbq", R2, CUZK_REG(S2), p2) CUZK_SUB_STEP("sbbq", R3, "%%rdx", p3)                  \
  CUZK_CMOV_STEP(CUZK_REG(S0), R0) CUZK_CMOV_STEP(CUZK_REG(S1), R1)                                   \
  CUZK_CMOV_STEP(CUZK_REG(S2), R2) CUZK_CMOV_STEP("%%rdx", R3)
// clang-format on

// r = a·b·2^-256 mod p for a, b < p. r may alias a or b (it is written after the asm).
__attribute__((always_inline)) inline void mont_mul_4(u64* r, const u64* a, const u64* b,
                                                      const MontConsts<4>& c) {
  u64 t0, t1, t2, t3, t4, lo, hi, d;
  asm(CUZK_M4_ROW0(t0, t1, t2, t3, t4) CUZK_M4_REDC(t0, t1, t2, t3, t4)       //
      CUZK_M4_ROW("8", t1, t2, t3, t4, t0) CUZK_M4_REDC(t1, t2, t3, t4, t0)   //
      CUZK_M4_ROW("16", t2, t3, t4, t0, t1) CUZK_M4_REDC(t2, t3, t4, t0, t1)  //
      CUZK_M4_ROW("24", t3, t4, t0, t1, t2) CUZK_M4_REDC(t3, t4, t0, t1, t2)  //
      CUZK_M4_FINAL(t4, t0, t1, t2, t3, lo, hi)
      : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4), [lo] "=&r"(lo),
        [hi] "=&r"(hi), "=&d"(d)
      : [a] "r"(a), [b] "r"(b), "m"(*(const u64(*)[4])a), "m"(*(const u64(*)[4])b), [p0] "m"(c.p[0]),
        [p1] "m"(c.p[1]), [p2] "m"(c.p[2]), [p3] "m"(c.p[3]), [pinv] "m"(c.pinv)
      : "cc");
  r[0] = t4;
  r[1] = t0;
  r[2] = t1;
  r[3] = t2;
}

// r = a²·2^-256 mod p for a < p.
__attribute__((always_inline)) inline void mont_sqr_4(u64* r, const u64* a, const MontConsts<4>& c) {
  u64 w0, w1, w2, w3, w4, w5, w6, w7, lo, hi, d;
  // The pointer register becomes a fifth reduction word once a has been read.
  u64 x = reinterpret_cast<u64>(a);
  asm(  // clang-format off
      // Cross products a_i·a_j (i < j) into w1..w6: row a0 on CF, rows a1 and a2 on both chains.
      CUZK_LOAD_RDX("0(%[x])") CUZK_CLEAR(lo)
      CUZK_MULX("8(%[x])", w1, w2)
      CUZK_MULX("16(%[x])", lo, w3) CUZK_ADCX(lo, w2)
      CUZK_MULX("24(%[x])", lo, w4) CUZK_ADCX(lo, w3)
      CUZK_RDX_ZERO CUZK_ADCX_RDX(w4)
      CUZK_LOAD_RDX("8(%[x])")
      CUZK_MULX("16(%[x])", lo, hi) CUZK_ADOX(lo, w3) CUZK_ADCX(hi, w4)
      CUZK_MULX("24(%[x])", lo, w5) CUZK_ADOX(lo, w4)
      CUZK_RDX_ZERO CUZK_ADCX_RDX(w5)
      CUZK_LOAD_RDX("16(%[x])")
      CUZK_MULX("24(%[x])", lo, w6) CUZK_ADOX(lo, w5)
      CUZK_RDX_ZERO CUZK_ADOX_RDX(w6)
      // Double w1..w6 into w1..w7 on CF and add the squares a_i² on OF.
      CUZK_CLEAR(lo)
      CUZK_LOAD_RDX("0(%[x])") CUZK_MULX("%%rdx", w0, hi)
      CUZK_ADCX(w1, w1) CUZK_ADOX(hi, w1)
      CUZK_LOAD_RDX("8(%[x])") CUZK_MULX("%%rdx", lo, hi)
      CUZK_ADCX(w2, w2) CUZK_ADOX(lo, w2) CUZK_ADCX(w3, w3) CUZK_ADOX(hi, w3)
      CUZK_LOAD_RDX("16(%[x])") CUZK_MULX("%%rdx", lo, hi)
      CUZK_ADCX(w4, w4) CUZK_ADOX(lo, w4) CUZK_ADCX(w5, w5) CUZK_ADOX(hi, w5)
      CUZK_LOAD_RDX("24(%[x])") CUZK_MULX("%%rdx", lo, w7)
      CUZK_ADCX(w6, w6) CUZK_ADOX(lo, w6)
      CUZK_RDX_ZERO CUZK_ADCX_RDX(w7) CUZK_ADOX_RDX(w7)
      // Reduce the low half w0..w3; x seeds the rotation.
      CUZK_S4_REDC(w0, w1, w2, w3, x) CUZK_S4_REDC(w1, w2, w3, x, w0)
      CUZK_S4_REDC(w2, w3, x, w0, w1) CUZK_S4_REDC(w3, x, w0, w1, w2)
      // Add the high half: (x, w0, w1, w2) + (w4..w7) < 2p < 2^256.
      "addq %[w4], %[x]\n\t"
      "adcq %[w5], %[w0]\n\t"
      "adcq %[w6], %[w1]\n\t"
      "adcq %[w7], %[w2]\n\t"
      CUZK_M4_FINAL(x, w0, w1, w2, w3, lo, hi)
      // clang-format on
      : [w0] "=&r"(w0), [w1] "=&r"(w1), [w2] "=&r"(w2), [w3] "=&r"(w3), [w4] "=&r"(w4), [w5] "=&r"(w5),
        [w6] "=&r"(w6), [w7] "=&r"(w7), [lo] "=&r"(lo), [hi] "=&r"(hi), [x] "+r"(x), "=&d"(d)
      : "m"(*(const u64(*)[4])a), [p0] "m"(c.p[0]), [p1] "m"(c.p[1]), [p2] "m"(c.p[2]), [p3] "m"(c.p[3]),
        [pinv] "m"(c.pinv)
      : "cc");
  r[0] = x;
  r[1] = w0;
  r[2] = w1;
  r[3] = w2;
}

// ---- 6 limbs -------------------------------------------------------------------------------------------
// The same schedule with seven rotating words t0..t6.
// clang-format off
#define CUZK_M6_ROW0(T0, T1, T2, T3, T4, T5, T6)                                                      \
  CUZK_LOAD_RDX("0(%[b])") CUZK_CLEAR(lo)                                                             \
  CUZK_MULX("0(%[a])", T0, T1)                                                                        \
  CUZK_MULX("8(%[a])", lo, T2) CUZK_ADCX(lo, T1)                                                      \
  CUZK_MULX("16(%[a])", lo, T3) CUZK_ADCX(lo, T2)                                                     \
  CUZK_MULX("24(%[a])", lo, T4) CUZK_ADCX(lo, T3)                                                     \
  CUZK_MULX("32(%[a])", lo, T5) CUZK_ADCX(lo, T4)                                                     \
  CUZK_MULX("40(%[a])", lo, T6) CUZK_ADCX(lo, T5)                                                     \
  CUZK_RDX_ZERO CUZK_ADCX_RDX(T6)
#define CUZK_M6_ROW(OFF, T0, T1, T2, T3, T4, T5, T6)                                                  \
  CUZK_LOAD_RDX(OFF "(%[b])") CUZK_CLEAR(lo)                                                          \
  CUZK_MULX("0(%[a])", lo, hi) CUZK_ADOX(lo, T0) CUZK_ADCX(hi, T1)                                    \
  CUZK_MULX("8(%[a])", lo, hi) CUZK_ADOX(lo, T1) CUZK_ADCX(hi, T2)                                    \
  CUZK_MULX("16(%[a])", lo, hi) CUZK_ADOX(lo, T2) CUZK_ADCX(hi, T3)                                   \
  CUZK_MULX("24(%[a])", lo, hi) CUZK_ADOX(lo, T3) CUZK_ADCX(hi, T4)                                   \
  CUZK_MULX("32(%[a])", lo, hi) CUZK_ADOX(lo, T4) CUZK_ADCX(hi, T5)                                   \
  CUZK_MULX("40(%[a])", lo, T6) CUZK_ADOX(lo, T5)                                                     \
  CUZK_RDX_ZERO CUZK_ADCX_RDX(T6) CUZK_ADOX_RDX(T6)
#define CUZK_M6_REDC(T0, T1, T2, T3, T4, T5, T6)                                                      \
  CUZK_REDC_START(T0)                                                                                 \
  CUZK_MULX("%[p1]", lo, T0) CUZK_ADCX(lo, T1) CUZK_ADOX(hi, T1)                                      \
  CUZK_MULX("%[p2]", lo, hi) CUZK_ADCX(lo, T2) CUZK_ADOX(T0, T2)                                      \
  CUZK_MULX("%[p3]", lo, T0) CUZK_ADCX(lo, T3) CUZK_ADOX(hi, T3)                                      \
  CUZK_MULX("%[p4]", lo, hi) CUZK_ADCX(lo, T4) CUZK_ADOX(T0, T4)                                      \
  CUZK_MULX("%[p5]", lo, T0) CUZK_ADCX(lo, T5) CUZK_ADOX(hi, T5)                                      \
  CUZK_RDX_ZERO CUZK_ADCX_RDX(T6) CUZK_ADOX(T0, T6)
#define CUZK_M6_FINAL(R0, R1, R2, R3, R4, R5, S0, S1, S2, S3, S4)                                     \
  CUZK_SUB_STEP("subq", R0, CUZK_REG(S0), p0) CUZK_SUB_STEP("sbbq", R1, CUZK_REG(S1), p1)             \
  CUZK_SUB_STEP("sbbq", R2, CUZK_REG(S2), p2) CUZK_SUB_STEP("sbbq", R3, CUZK_REG(S3), p3)             \
  CUZK_SUB_STEP("sbbq", R4, CUZK_REG(S4), p4) CUZK_SUB_STEP("sbbq", R5, "%%rdx", p5)                  \
  CUZK_CMOV_STEP(CUZK_REG(S0), R0) CUZK_CMOV_STEP(CUZK_REG(S1), R1)                                   \
  CUZK_CMOV_STEP(CUZK_REG(S2), R2) CUZK_CMOV_STEP(CUZK_REG(S3), R3)                                   \
  CUZK_CMOV_STEP(CUZK_REG(S4), R4) CUZK_CMOV_STEP("%%rdx", R5)
// clang-format on

// r = a·b·2^-384 mod p for a, b < p. Twelve registers are live; the pointer registers double as scratch
// for the final subtraction.
__attribute__((always_inline)) inline void mont_mul_6(u64* r, const u64* a, const u64* b,
                                                      const MontConsts<6>& c) {
  u64 t0, t1, t2, t3, t4, t5, t6, lo, hi, d;
  const u64 *pa = a, *pb = b;
  asm(CUZK_M6_ROW0(t0, t1, t2, t3, t4, t5, t6) CUZK_M6_REDC(t0, t1, t2, t3, t4, t5, t6)       //
      CUZK_M6_ROW("8", t1, t2, t3, t4, t5, t6, t0) CUZK_M6_REDC(t1, t2, t3, t4, t5, t6, t0)   //
      CUZK_M6_ROW("16", t2, t3, t4, t5, t6, t0, t1) CUZK_M6_REDC(t2, t3, t4, t5, t6, t0, t1)  //
      CUZK_M6_ROW("24", t3, t4, t5, t6, t0, t1, t2) CUZK_M6_REDC(t3, t4, t5, t6, t0, t1, t2)  //
      CUZK_M6_ROW("32", t4, t5, t6, t0, t1, t2, t3) CUZK_M6_REDC(t4, t5, t6, t0, t1, t2, t3)  //
      CUZK_M6_ROW("40", t5, t6, t0, t1, t2, t3, t4) CUZK_M6_REDC(t5, t6, t0, t1, t2, t3, t4)  //
      CUZK_M6_FINAL(t6, t0, t1, t2, t3, t4, t5, lo, hi, a, b)
      : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4), [t5] "=&r"(t5),
        [t6] "=&r"(t6), [lo] "=&r"(lo), [hi] "=&r"(hi), "=&d"(d), [a] "+r"(pa), [b] "+r"(pb)
      : "m"(*(const u64(*)[6])a), "m"(*(const u64(*)[6])b), [p0] "m"(c.p[0]), [p1] "m"(c.p[1]),
        [p2] "m"(c.p[2]), [p3] "m"(c.p[3]), [p4] "m"(c.p[4]), [p5] "m"(c.p[5]), [pinv] "m"(c.pinv)
      : "cc");
  r[0] = t6;
  r[1] = t0;
  r[2] = t1;
  r[3] = t2;
  r[4] = t3;
  r[5] = t4;
}

// acc += a·b for a, b of four words and a nine-word accumulator (ff/sum_of_products.hpp: a sum of products
// reduced once). The 512-bit product is formed in eight registers by the multiply's rows without their
// reductions (row i adds a·b_i into words i..i+3 and makes word i+4), then added into acc on one carry chain.
// The caller keeps acc below 2^576 (no carry leaves its top word).
__attribute__((always_inline)) inline void mul_wide_add_4(u64* acc, const u64* a, const u64* b) {
  u64 w0, w1, w2, w3, w4, w5, w6, w7, lo, hi, d;
  asm(CUZK_M4_ROW0(w0, w1, w2, w3, w4)       //
      CUZK_M4_ROW("8", w1, w2, w3, w4, w5)   //
      CUZK_M4_ROW("16", w2, w3, w4, w5, w6)  //
      CUZK_M4_ROW("24", w3, w4, w5, w6, w7)  //
      "addq %[w0], 0(%[acc])\n\t"            //
      "adcq %[w1], 8(%[acc])\n\t"            //
      "adcq %[w2], 16(%[acc])\n\t"           //
      "adcq %[w3], 24(%[acc])\n\t"           //
      "adcq %[w4], 32(%[acc])\n\t"           //
      "adcq %[w5], 40(%[acc])\n\t"           //
      "adcq %[w6], 48(%[acc])\n\t"           //
      "adcq %[w7], 56(%[acc])\n\t"           //
      "adcq $0, 64(%[acc])\n\t"
      : [w0] "=&r"(w0), [w1] "=&r"(w1), [w2] "=&r"(w2), [w3] "=&r"(w3), [w4] "=&r"(w4), [w5] "=&r"(w5),
        [w6] "=&r"(w6), [w7] "=&r"(w7), [lo] "=&r"(lo), [hi] "=&r"(hi), "=&d"(d), "+m"(*(u64(*)[9])acc)
      : [a] "r"(a), [b] "r"(b), [acc] "r"(acc), "m"(*(const u64(*)[4])a), "m"(*(const u64(*)[4])b)
      : "cc");
}

#undef CUZK_MULX
#undef CUZK_ADCX
#undef CUZK_ADOX
#undef CUZK_ADCX_RDX
#undef CUZK_ADOX_RDX
#undef CUZK_CLEAR
#undef CUZK_RDX_ZERO
#undef CUZK_LOAD_RDX
#undef CUZK_REDC_START
#undef CUZK_M4_ROW0
#undef CUZK_M4_ROW
#undef CUZK_M4_REDC
#undef CUZK_S4_REDC
#undef CUZK_SUB_STEP
#undef CUZK_CMOV_STEP
#undef CUZK_REG
#undef CUZK_M4_FINAL
#undef CUZK_M6_ROW0
#undef CUZK_M6_ROW
#undef CUZK_M6_REDC
#undef CUZK_M6_FINAL

template <std::size_t N>
__attribute__((always_inline)) inline void mont_mul(u64* r, const u64* a, const u64* b,
                                                    const MontConsts<N>& c) {
  if constexpr (N == 4)
    mont_mul_4(r, a, b, c);
  else
    mont_mul_6(r, a, b, c);
}
template <std::size_t N>
__attribute__((always_inline)) inline void mont_sqr(u64* r, const u64* a, const MontConsts<N>& c) {
  static_assert(N == 4, "squaring asm exists for 4 limbs only");
  mont_sqr_4(r, a, c);
}

// (a + b) mod p and (a − b) mod p for reduced a, b (p has a spare top bit, so a + b < 2p never carries out
// of N words): one adc/sbb chain and a masked correction, no data-dependent branch, forced inline for the
// same reason as the products. The portable code's unsigned __int128 sums compiled to out-of-line calls
// whose branch on the comparison with p went each way about half the time: additions took 30 % of a
// WindowPoSt partition's synthesis, more than its multiplications.
template <std::size_t N>
__attribute__((always_inline)) inline void mod_add(u64* r, const u64* a, const u64* b,
                                                   const MontConsts<N>& c) {
  unsigned long long s[N], d[N];
  unsigned char carry = 0, borrow = 0;
  for (std::size_t i = 0; i < N; ++i) carry = _addcarry_u64(carry, a[i], b[i], &s[i]);
  for (std::size_t i = 0; i < N; ++i) borrow = _subborrow_u64(borrow, s[i], c.p[i], &d[i]);
  const u64 keep = u64{0} - borrow;  // all ones when s < p: s is the result
  for (std::size_t i = 0; i < N; ++i) {
    u64 v = (s[i] & keep) | (d[i] & ~keep);
    // Kept in a general register: vectorised, the select stored the limbs and reloaded them as one 32-byte
    // load, which store forwarding cannot serve (a stall as long as the addition).
    asm("" : "+r"(v));
    r[i] = v;
  }
}
template <std::size_t N>
__attribute__((always_inline)) inline void mod_sub(u64* r, const u64* a, const u64* b,
                                                   const MontConsts<N>& c) {
  unsigned long long d[N];
  unsigned char borrow = 0, carry = 0;
  for (std::size_t i = 0; i < N; ++i) borrow = _subborrow_u64(borrow, a[i], b[i], &d[i]);
  const u64 add_p = u64{0} - borrow;  // all ones when a < b: p goes back on
  for (std::size_t i = 0; i < N; ++i) {
    unsigned long long out;
    carry = _addcarry_u64(carry, d[i], c.p[i] & add_p, &out);
    r[i] = out;
  }
}

}  // namespace cuzk::ff::x86

#endif  // CUZK_FF_X86_ASM
