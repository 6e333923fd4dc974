// PTX carry-chain primitives on 32-bit words (device only).
//
// nvcc does not expose the carry flag to C++; these wrappers do. A chain is one `*_cc` that sets the
// flag, any number of `*c_cc` that consume and set it, and one `*c` that only consumes it. Callers keep a
// chain's instructions together: nothing that clobbers the flag may be placed between them (each
// statement is `asm volatile`, which the compiler neither reorders nor removes).
#pragma once

#include <cstdint>

#if defined(__CUDACC__)

namespace cuzk::ff::ptx {

using u32 = std::uint32_t;

__device__ __forceinline__ u32 add_cc(u32 a, u32 b) {
  u32 r;
  asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}
__device__ __forceinline__ u32 addc_cc(u32 a, u32 b) {
  u32 r;
  asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}
__device__ __forceinline__ u32 addc(u32 a, u32 b) {
  u32 r;
  asm volatile("addc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}
__device__ __forceinline__ u32 sub_cc(u32 a, u32 b) {
  u32 r;
  asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}
__device__ __forceinline__ u32 subc_cc(u32 a, u32 b) {
  u32 r;
  asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}
__device__ __forceinline__ u32 subc(u32 a, u32 b) {
  u32 r;
  asm volatile("subc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}
// lo/hi halves of a·b added to c, in a chain.
__device__ __forceinline__ u32 mad_lo_cc(u32 a, u32 b, u32 c) {
  u32 r;
  asm volatile("mad.lo.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  return r;
}
__device__ __forceinline__ u32 madc_lo_cc(u32 a, u32 b, u32 c) {
  u32 r;
  asm volatile("madc.lo.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  return r;
}
__device__ __forceinline__ u32 mad_hi_cc(u32 a, u32 b, u32 c) {
  u32 r;
  asm volatile("mad.hi.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  return r;
}
__device__ __forceinline__ u32 madc_hi_cc(u32 a, u32 b, u32 c) {
  u32 r;
  asm volatile("madc.hi.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  return r;
}
__device__ __forceinline__ u32 madc_hi(u32 a, u32 b, u32 c) {
  u32 r;
  asm volatile("madc.hi.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  return r;
}

// The whole 64-bit a·b + c (IMAD.WIDE.U32: one instruction, full rate on Hopper's integer pipe).
__device__ __forceinline__ std::uint64_t mad_wide(u32 a, u32 b, std::uint64_t c) {
  std::uint64_t r;
  asm volatile("mad.wide.u32 %0, %1, %2, %3;" : "=l"(r) : "r"(a), "r"(b), "l"(c));
  return r;
}
__device__ __forceinline__ std::uint64_t mul_wide(u32 a, u32 b) {
  std::uint64_t r;
  asm volatile("mul.wide.u32 %0, %1, %2;" : "=l"(r) : "r"(a), "r"(b));
  return r;
}
__device__ __forceinline__ u32 lo(std::uint64_t x) {
  return static_cast<u32>(x);
}
__device__ __forceinline__ u32 hi(std::uint64_t x) {
  return static_cast<u32>(x >> 32);
}

}  // namespace cuzk::ff::ptx

#endif
