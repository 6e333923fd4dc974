// Signed digits of an MSM's scalars on the device, keyed for the radix sort (pippenger_impl in
// msm/gpu_impl.cuh runs it once per pass); the host form of the decomposition is msm/digits.hpp.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ff/bigint.hpp"
#include "msm/digits.hpp"
#include "msm/gpu_launch.cuh"

namespace cuzk::msm::gpu {
namespace {

// A scalar s in (r/2, r) is taken as −(r − s): r·P is the identity for points of the prime-order subgroup
// (every key's points), and r − s is short when s is near r. PoRep witnesses hold many such values (r − k for
// small k: 4 % of a partition's), whose digits would otherwise fill every window, all in one bucket.
// `half_r` = (r − 1)/2; fold = false leaves every scalar as it is.
template <std::size_t N>
struct ScalarFold {
  ff::BigInt<N> r, half_r;
  bool fold = false;
};

template <class C, std::size_t N>
ScalarFold<N> scalar_fold() {
  ScalarFold<N> f{};
  if constexpr (N == C::Scalar::N) {
    f.r = C::Scalar::modulus();
    f.half_r = ff::bigint_shr(f.r, 1);
    f.fold = true;
  }
  return f;
}

// The digits kernel's scalar arithmetic with every limb at a compile-time index, so that the scalar and
// the fold's constants stay in registers. window_bits (digits.hpp) reads a limb at a run-time index, and
// bigint_less (an early return from a reversed loop) and bigint_sub were not unrolled: all of them put
// the values on the stack, in local memory, whose traffic more than doubled the kernel's writes to device
// memory (ncu at 2^27: 17.2 GB written for 6.4 GB of keys and values, 6.5 ms for a pass of six windows).
template <std::size_t N>
__device__ __forceinline__ bool less_in_registers(const ff::BigInt<N>& a, const ff::BigInt<N>& b) {
  bool less = false;  // limbs from the lowest up: the highest limb that differs decides
#pragma unroll
  for (std::size_t i = 0; i < N; ++i) less = a.v[i] < b.v[i] || (a.v[i] == b.v[i] && less);
  return less;
}

// a − b for a ≥ b.
template <std::size_t N>
__device__ __forceinline__ ff::BigInt<N> sub_in_registers(const ff::BigInt<N>& a, const ff::BigInt<N>& b) {
  ff::BigInt<N> r;
  std::uint64_t borrow = 0;
#pragma unroll
  for (std::size_t i = 0; i < N; ++i) {
    r.v[i] = a.v[i] - b.v[i] - borrow;
    borrow = (a.v[i] < b.v[i] || (a.v[i] == b.v[i] && borrow)) ? 1 : 0;
  }
  return r;
}

template <std::size_t N>
__device__ __forceinline__ std::uint32_t window_bits_in_registers(const ff::BigInt<N>& s, unsigned pos,
                                                                  unsigned c) {
  const unsigned limb = pos / 64, shift = pos % 64;
  std::uint64_t lo = 0, hi = 0;  // limbs at or past N read as 0, as in window_bits
#pragma unroll
  for (unsigned j = 0; j < N; ++j) {
    // selp in PTX: written as C++, the compiler turns these selections back into an indexed read.
    asm("{\n\t.reg .pred p;\n\tsetp.eq.u32 p, %2, %3;\n\tselp.b64 %0, %1, %0, p;\n\t}"
        : "+l"(lo)
        : "l"(s.v[j]), "r"(limb), "r"(j));
    asm("{\n\t.reg .pred p;\n\tsetp.eq.u32 p, %2, %3;\n\tselp.b64 %0, %1, %0, p;\n\t}"
        : "+l"(hi)
        : "l"(s.v[j]), "r"(limb + 1), "r"(j));
  }
  std::uint64_t v = lo >> shift;
  if (shift + c > 64) v |= hi << (64 - shift);
  return static_cast<std::uint32_t>(v & ((std::uint64_t(1) << c) - 1));
}

// Signed digits of every scalar in the slice for windows [win_begin, win_end) (the carries of the windows
// below are computed and dropped): pair ((window − win_begin)·2^(c-1) + |d|-1, point | sign) or the
// sentinel key `skip` = (win_end − win_begin)·2^(c-1) for zero digits (sorted to the end and ignored),
// window-major. The keys count from the pass's first window, so the sort reads as few bits as the pass
// needs: at c = 22 a pass of six windows sorts 24 bits in three radix passes, where keys counted from
// window 0 (25 bits for twelve windows) took four.
template <std::size_t N>
__global__ void digits_kernel(const ff::BigInt<N>* scalars, const std::uint32_t* index, std::size_t begin,
                              std::size_t count, unsigned c, unsigned win_begin, unsigned win_end,
                              ScalarFold<N> fold, std::uint32_t* keys, std::uint32_t* vals) {
  std::size_t k = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (k >= count) return;
  const std::uint32_t i = index ? index[begin + k] : static_cast<std::uint32_t>(begin + k);
  ff::BigInt<N> s = scalars[i];
  std::uint32_t negate = 0;
  if (fold.fold && less_in_registers(fold.half_r, s) && less_in_registers(s, fold.r)) {
    s = sub_in_registers(fold.r, s);
    negate = kSignBit;
  }
  const std::uint32_t half = 1u << (c - 1), skip = (win_end - win_begin) * half;
  std::uint32_t carry = 0;
  for (unsigned win = 0; win < win_end; ++win) {
    std::uint32_t d = window_bits_in_registers(s, win * c, c) + carry;
    carry = d > half ? 1 : 0;
    if (win < win_begin) continue;
    std::int32_t sd = static_cast<std::int32_t>(d) - static_cast<std::int32_t>(carry << c);
    std::size_t out = std::size_t(win - win_begin) * count + k;
    if (sd == 0) {
      keys[out] = skip;
      vals[out] = 0;
    } else {
      std::uint32_t mag = static_cast<std::uint32_t>(sd < 0 ? -sd : sd);
      keys[out] = (win - win_begin) * half + mag - 1;
      vals[out] = i | ((sd < 0 ? kSignBit : 0u) ^ negate);
    }
  }
}

}  // namespace
}  // namespace cuzk::msm::gpu
