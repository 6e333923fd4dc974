#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda/error.hpp"
#include "ec/bls12_381.hpp"
#include "ec/bn254.hpp"
#include "ntt/gpu.hpp"

namespace cuzk::ntt::gpu {

namespace {

constexpr unsigned kThreads = 256;  // simple element-wise kernels

// Multi-stage passes. A pass runs k consecutive radix-2 stages (index bits [lo, lo + k)) on groups of 2^k
// elements that are 2^lo apart. One block holds 2^kBlockLog elements in shared memory: 2^g groups of
// 2^k, where the groups are 2^g1 consecutive "lows" (so that every global access is a run of 2^g1
// adjacent elements: 4 at 2^27) and, when lo is too small for that, 2^g2 consecutive "highs".
//
// The arithmetic (the 32-bit multiply and add pipes) bounds these kernels, and what limits that is
// latency: few warps (a field element is 8 registers) with long carry chains. Measured on an H200 at
// 2^27 (BN254, forward): 8 elements per thread in registers (radix 8, 128 registers, 2 blocks per SM)
// ran 78 ms; 4 elements per thread with the round's twiddles requested before its butterflies, 63 ms;
// the same capped at 80 registers for 3 blocks per SM (64 KB of shared memory each), 61.5 ms; with the
// cheaper swizzle below and the twiddle-1 butterflies unmultiplied, 58.7 ms. ncu then shows the ALU pipe
// (the field add/sub and the multiply's carries) as the busiest and math-pipe throttling as the main stall.
constexpr unsigned kMaxPassLog = 10;  // at most 10 stages per pass: 2^27 is 9 + 9 + 9
constexpr unsigned kBlockLog = 11;    // 2^11 elements, 64 KB of shared memory per block
constexpr unsigned kRadixLog = 2;     // each thread runs up to 2 stages on 4 elements in registers
constexpr unsigned kPassThreads = 256;
constexpr unsigned kMinBlocks = 3;                // per SM: at most 80 registers per thread
constexpr unsigned kLoadBatch = 1u << kRadixLog;  // global loads in flight per thread

__device__ __forceinline__ std::size_t bitrev(std::size_t x, unsigned bits) {
  return bits == 0 ? 0 : __brevll(static_cast<unsigned long long>(x)) >> (64 - bits);
}

// Field elements move as 16-byte words (the struct alone is only 8-byte aligned, which would give 8-byte
// accesses). Every Fr array here is 32-byte aligned (device allocations, shared memory).
template <class Fr>
__device__ __forceinline__ Fr load(const Fr* p) {
  static_assert(sizeof(Fr) % 16 == 0);
  Fr r;
  const ulonglong2* q = reinterpret_cast<const ulonglong2*>(p);
  ulonglong2* d = reinterpret_cast<ulonglong2*>(&r);
#pragma unroll
  for (unsigned i = 0; i < sizeof(Fr) / 16; ++i) d[i] = q[i];
  return r;
}
template <class Fr>
__device__ __forceinline__ Fr load_ro(const Fr* p) {  // through the read-only cache (twiddle table)
  Fr r;
  const ulonglong2* q = reinterpret_cast<const ulonglong2*>(p);
  ulonglong2* d = reinterpret_cast<ulonglong2*>(&r);
#pragma unroll
  for (unsigned i = 0; i < sizeof(Fr) / 16; ++i) d[i] = __ldg(q + i);
  return r;
}
template <class Fr>
__device__ __forceinline__ void store(Fr* p, const Fr& x) {
  ulonglong2* q = reinterpret_cast<ulonglong2*>(p);
  const ulonglong2* s = reinterpret_cast<const ulonglong2*>(&x);
#pragma unroll
  for (unsigned i = 0; i < sizeof(Fr) / 16; ++i) q[i] = s[i];
}

// Shared memory, swizzled: 16-byte word U of the element array lives at U ^ fold(U >> 3), where fold
// XORs the 3-bit groups of its argument. A word's bank group (of 8, 4 banks each) is then a linear map of
// U's bits in which every bit position p reaches group bit p mod 3, so a warp whose 32 addresses differ
// in five bits of which three are adjacent (all the access patterns here: runs of adjacent elements,
// power-of-two strides, and a run plus a stride) touches each group 4 times: 4 wavefronts, none lost to
// conflicts. Unswizzled, the 32-byte elements alone cost 2x (only 4 groups per half), and strided
// patterns up to 8x more.
//
// An element's W = sizeof(Fr)/16 words (a power of two) differ only in the bits below 3, which the fold
// does not read: they lie at swizzle(W·e) ^ i, one swizzle per element. Word indices stay below 2^12
// (2^kBlockLog elements of 2 words), so three 3-bit groups make the fold.
template <class Fr>
__device__ __forceinline__ unsigned swizzle(unsigned e) {
  constexpr unsigned kW = sizeof(Fr) / 16;
  static_assert(kW == 2 || kW == 4 || kW == 8, "element words must be a power of two");
  static_assert((1u << kBlockLog) * kW <= (1u << 12), "the fold covers 12 bits");
  const unsigned u = e * kW, x = u >> 3;
  return u ^ ((x ^ (x >> 3) ^ (x >> 6)) & 7);
}
template <class Fr>
__device__ __forceinline__ Fr load_s(const Fr* s, unsigned e) {
  Fr r;
  const ulonglong2* q = reinterpret_cast<const ulonglong2*>(s);
  ulonglong2* d = reinterpret_cast<ulonglong2*>(&r);
  const unsigned w = swizzle<Fr>(e);
#pragma unroll
  for (unsigned i = 0; i < sizeof(Fr) / 16; ++i) d[i] = q[w ^ i];
  return r;
}
template <class Fr>
__device__ __forceinline__ void store_s(Fr* s, unsigned e, const Fr& x) {
  ulonglong2* q = reinterpret_cast<ulonglong2*>(s);
  const ulonglong2* d = reinterpret_cast<const ulonglong2*>(&x);
  const unsigned w = swizzle<Fr>(e);
#pragma unroll
  for (unsigned i = 0; i < sizeof(Fr) / 16; ++i) q[w ^ i] = d[i];
}

// T[i] = ω_2N^i, from the full table or the compact pair (ntt/gpu.hpp), through the read-only cache.
template <bool kCompact, class Fr>
__device__ __forceinline__ Fr table_at(const Twiddles<Fr>& t, std::size_t i) {
  if constexpr (kCompact) {
    const std::size_t mask = (std::size_t(1) << t.low_log) - 1;
    return load_ro(t.low + (i & mask)).mul_inlined(load_ro(t.high + (i >> t.low_log)));
  } else {
    return load_ro(t.full + i);
  }
}

// ω_N^(±e) from the ω_2N power table, given idx = 2e < N: ω_N^e = T[2e], ω_N^-e = -T[N - 2e].
template <bool kCompact, class Fr>
__device__ __forceinline__ Fr twiddle(const Twiddles<Fr>& t, std::size_t n, std::size_t idx, bool inv) {
  if (!inv) return table_at<kCompact>(t, idx);
  Fr w = table_at<kCompact>(t, (n - idx) & (n - 1));  // idx = 0: T[0] = 1
  return idx == 0 ? w : -w;
}

// The radix-2 butterfly: Gentleman–Sande (x+y, (x-y)·w) or Cooley–Tukey (x+yw, x-yw).
template <class Fr, bool kDif>
__device__ __forceinline__ void butterfly(Fr& x, Fr& y, const Fr& w) {
  if constexpr (kDif) {
    Fr d = x - y;
    x = x + y;
    y = d.mul_inlined(w);
  } else {
    Fr t = y.mul_inlined(w);
    y = x - t;
    x = x + t;
  }
}
template <class Fr>
__device__ __forceinline__ void butterfly_one(Fr& x, Fr& y) {  // twiddle 1, either direction
  Fr d = x - y;
  x = x + y;
  y = d;
}

// Geometry of one pass; see kBlockLog. A block's shared element e = (qh, j, ql) (ql lowest) is global
// element ((hbase·2^g2 + qh)·2^k + j)·2^lo + lb·2^g1 + ql, with blockIdx.x = hbase·2^(lo-g1) + lb.
struct Pass {
  unsigned log_n, lo, k, g1, g2;
  unsigned rounds;  // register rounds of r[i] stages each (low bits first)
  unsigned r[kMaxPassLog];
  __host__ __device__ unsigned elems_log() const { return k + g1 + g2; }
};

enum class Load { kPlain, kScale, kOddCoset };

// The stages [b, b + R) of the pass (bits of j), R at a time per thread from shared memory: each unit
// is one thread's 2^R elements j = jhigh·2^(b+R) + m·2^b + jlow of one group.
template <unsigned R, class Fr, bool kDif, bool kCompact>
__device__ __forceinline__ void radix_round(Fr* s, const Twiddles<Fr>& tw, const Pass& p, unsigned b,
                                            std::size_t low_base, bool inv) {
  const std::size_t n = std::size_t(1) << p.log_n;
  const unsigned units = 1u << (p.elems_log() - R);
  const unsigned hb = p.k - b - R;  // bits of jhigh
  // The lowest round of a pass at lo = 0 has jlow = low = 0, so each stage's first twiddle (mm = 0) is
  // ω^0 = 1: no multiply (all of stage h = 1, half of h = 2).
  const bool one_first = p.lo == 0 && b == 0;
  for (unsigned u = threadIdx.x; u < units; u += blockDim.x) {
    const unsigned ql = u & ((1u << p.g1) - 1);
    unsigned rest = u >> p.g1;
    const unsigned jlow = rest & ((1u << b) - 1);
    rest >>= b;
    const unsigned jhigh = rest & ((1u << hb) - 1);
    const unsigned qh = rest >> hb;
    const unsigned base = (qh << (p.k + p.g1)) | (jhigh << (b + R + p.g1)) | (jlow << p.g1) | ql;
    const unsigned step = 1u << (b + p.g1);
    const std::size_t low = low_base | ql;
    // Twiddle ω_N^((i mod h)·N/2h) of stage t = b + v, with i mod h = (j mod 2^t)·2^lo + low: it depends
    // on m only through m mod 2^v, so stage v has 2^v of them.
    auto tw_idx = [&](unsigned v, unsigned mm) {
      const std::size_t jmod = (std::size_t(mm) << b) | jlow;
      return ((jmod << p.lo) | low) << (p.log_n - p.lo - b - v);
    };
    // All twiddles of the round are requested before the butterflies: their L2 (or DRAM, in the pass of
    // the top stages) latency would otherwise stall each stage.
    Fr w[(1u << R) - 1];
#pragma unroll
    for (unsigned v = 0; v < R; ++v)
#pragma unroll
      for (unsigned mm = 0; mm < (1u << v); ++mm)
        w[(1u << v) - 1 + mm] = twiddle<kCompact>(tw, n, tw_idx(v, mm), inv);
    Fr x[1 << R];
#pragma unroll
    for (unsigned m = 0; m < (1u << R); ++m) x[m] = load_s(s, base + m * step);
#pragma unroll
    for (unsigned vv = 0; vv < R; ++vv) {
      const unsigned v = kDif ? R - 1 - vv : vv;  // DIF: large stages first
#pragma unroll
      for (unsigned m = 0; m < (1u << R); ++m) {
        if ((m >> v) & 1) continue;
        const unsigned mm = m & ((1u << v) - 1);
        if (mm == 0 && one_first)
          butterfly_one(x[m], x[m + (1u << v)]);
        else
          butterfly<Fr, kDif>(x[m], x[m + (1u << v)], w[(1u << v) - 1 + mm]);
      }
    }
#pragma unroll
    for (unsigned m = 0; m < (1u << R); ++m) store_s(s, base + m * step, x[m]);
  }
}

// One pass over count vectors of n elements (blockIdx.y picks the vector). DIT passes may scale what
// they load (only the first one, lo = 0, is asked to): by `scale`, or by scale·ω_2N^bitrev(pos).
template <class Fr, bool kDif, bool kCompact>
__global__ void __launch_bounds__(kPassThreads, kMinBlocks)
    pass_kernel(Fr* a, Twiddles<Fr> tw, Pass p, bool inv, Load mode, Fr scale) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  Fr* s = reinterpret_cast<Fr*>(smem_raw);
  const std::size_t n = std::size_t(1) << p.log_n;
  Fr* v = a + blockIdx.y * n;
  const unsigned elems = 1u << p.elems_log();
  const unsigned low_blocks_log = p.lo - p.g1;
  const std::size_t lb = blockIdx.x & ((std::size_t(1) << low_blocks_log) - 1);
  const std::size_t hbase = std::size_t(blockIdx.x) >> low_blocks_log;
  const std::size_t low_base = lb << p.g1;
  const unsigned jmask = (1u << p.k) - 1, qlmask = (1u << p.g1) - 1;
  auto global_index = [&](unsigned e) {
    const std::size_t group = (hbase << p.g2) + (e >> (p.k + p.g1));
    return (((group << p.k) | ((e >> p.g1) & jmask)) << p.lo) | low_base | (e & qlmask);
  };

  // Odd coset (lo = 0, so g1 = 0): pos = group·2^k + j and bitrev(pos) = bitrev_k(j)·2^(L-k) +
  // bitrev_(L-k)(group); the group's factor scale·ω_2N^bitrev(group) is made once, in shared memory.
  Fr* gf = s + elems;
  if (mode == Load::kOddCoset) {
    for (unsigned q = threadIdx.x; q < (1u << p.g2); q += blockDim.x)
      store(gf + q, scale.mul_inlined(table_at<kCompact>(tw, bitrev((hbase << p.g2) + q, p.log_n - p.k))));
    __syncthreads();
  }
  // Global → shared, kLoadBatch loads in flight per thread before the first store.
  for (unsigned e0 = threadIdx.x; e0 < elems; e0 += kLoadBatch * blockDim.x) {
    Fr x[kLoadBatch];
#pragma unroll
    for (unsigned i = 0; i < kLoadBatch; ++i) {
      const unsigned e = e0 + i * blockDim.x;
      if (e < elems) x[i] = load(v + global_index(e));
    }
#pragma unroll
    for (unsigned i = 0; i < kLoadBatch; ++i) {
      const unsigned e = e0 + i * blockDim.x;
      if (e >= elems) continue;
      if (mode == Load::kScale) {
        x[i] = x[i].mul_inlined(scale);
      } else if (mode == Load::kOddCoset) {
        const Fr f = table_at<kCompact>(tw, bitrev(e & jmask, p.k) << (p.log_n - p.k))
                         .mul_inlined(load(gf + (e >> p.k)));
        x[i] = x[i].mul_inlined(f);
      }
      store_s(s, e, x[i]);
    }
  }
  __syncthreads();

  unsigned b = kDif ? p.k : 0;
  for (unsigned i = 0; i < p.rounds; ++i) {
    const unsigned r = p.r[i];
    if (kDif) b -= r;
    switch (r) {
      case 1:
        radix_round<1, Fr, kDif, kCompact>(s, tw, p, b, low_base, inv);
        break;
      default:
        radix_round<2, Fr, kDif, kCompact>(s, tw, p, b, low_base, inv);
        break;
    }
    if (!kDif) b += r;
    __syncthreads();
  }

  for (unsigned e0 = threadIdx.x; e0 < elems; e0 += kLoadBatch * blockDim.x) {
    Fr x[kLoadBatch];
#pragma unroll
    for (unsigned i = 0; i < kLoadBatch; ++i) {
      const unsigned e = e0 + i * blockDim.x;
      if (e < elems) x[i] = load_s(s, e);
    }
#pragma unroll
    for (unsigned i = 0; i < kLoadBatch; ++i) {
      const unsigned e = e0 + i * blockDim.x;
      if (e < elems) store(v + global_index(e), x[i]);
    }
  }
}

// In-place bit reversal for log_n < 2·kTileLog (small vectors).
template <class Fr>
__global__ void bitrev_kernel(Fr* a, std::size_t n, unsigned log_n) {
  std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  Fr* v = a + blockIdx.y * n;
  std::size_t j = bitrev(i, log_n);
  if (i < j) {
    Fr x = v[i];
    v[i] = v[j];
    v[j] = x;
  }
}

// In-place bit reversal by tiles, so that every global access is a run of 2^kTileLog elements: with
// index bits (h, m, l), h and l of kTileLog bits each, the tile of middle m (all h, l) maps onto the
// tile of middle bitrev(m), transposed. The block of middle m swaps its tile with that of bitrev(m)
// (or transposes it in place when they are equal); blocks with m > bitrev(m) have nothing to do.
constexpr unsigned kTileLog = 4;
template <class Fr>
__global__ void bitrev_tile_kernel(Fr* a, unsigned log_n) {
  constexpr unsigned kTile = 1u << kTileLog, kElems = kTile * kTile;
  __shared__ __align__(16) Fr sa[kElems], sb[kElems];
  const unsigned mid_log = log_n - 2 * kTileLog;
  const std::size_t m = blockIdx.x, rm = bitrev(m, mid_log);
  if (m > rm) return;
  Fr* v = a + (std::size_t(blockIdx.y) << log_n);
  auto at = [&](std::size_t mid, unsigned e) {  // e = h·2^kTileLog + l
    return ((std::size_t(e >> kTileLog) << (mid_log + kTileLog)) | (mid << kTileLog)) | (e & (kTile - 1));
  };
  auto rev_tile = [](unsigned e) {  // (h, l) → (bitrev l, bitrev h)
    const unsigned h = e >> kTileLog, l = e & (kTile - 1);
    return unsigned(bitrev(l, kTileLog) << kTileLog) | unsigned(bitrev(h, kTileLog));
  };
  for (unsigned e = threadIdx.x; e < kElems; e += blockDim.x) {
    store_s(sa, e, load(v + at(m, e)));
    if (m != rm) store_s(sb, e, load(v + at(rm, e)));
  }
  __syncthreads();
  for (unsigned e = threadIdx.x; e < kElems; e += blockDim.x) {
    store(v + at(rm, e), load_s(sa, rev_tile(e)));
    if (m != rm) store(v + at(m, e), load_s(sb, rev_tile(e)));
  }
}

// table[k·B + j] = base[k]·small[j]
template <class Fr>
__global__ void powers_kernel(Fr* out, const Fr* big, const Fr* small, std::size_t n, unsigned lb) {
  std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  out[i] = big[i >> lb] * small[i & ((std::size_t(1) << lb) - 1)];
}

dim3 grid_for(std::size_t items, std::size_t count) {
  return dim3(static_cast<unsigned>((items + kThreads - 1) / kThreads), static_cast<unsigned>(count));
}

template <class Fr>
void bit_reverse(Fr* data, std::size_t count, unsigned log_n, cudaStream_t stream) {
  if (log_n >= 2 * kTileLog) {
    dim3 grid(1u << (log_n - 2 * kTileLog), static_cast<unsigned>(count));
    bitrev_tile_kernel<Fr><<<grid, kThreads, 0, stream>>>(data, log_n);
  } else {
    bitrev_kernel<Fr><<<grid_for(std::size_t(1) << log_n, count), kThreads, 0, stream>>>(
        data, std::size_t(1) << log_n, log_n);
  }
  cuda::check_last_launch("ntt bitrev");
}

// Stage counts per pass, low bits first: as even as possible, the larger ones at low bits (where
// lo = 0 needs no runs of adjacent lows for coalescing).
std::vector<unsigned> split_passes(unsigned log_n) {
  const unsigned passes = (log_n + kMaxPassLog - 1) / kMaxPassLog;
  std::vector<unsigned> ks(passes, log_n / passes);
  for (unsigned i = 0; i < log_n % passes; ++i) ++ks[i];
  return ks;
}

Pass make_pass(unsigned log_n, unsigned lo, unsigned k) {
  Pass p{};
  p.log_n = log_n;
  p.lo = lo;
  p.k = k;
  const unsigned g = std::min(kBlockLog - std::min(k, kBlockLog), log_n - k);
  p.g1 = std::min(g, lo);
  p.g2 = g - p.g1;
  p.rounds = (k + kRadixLog - 1) / kRadixLog;
  for (unsigned i = 0; i < p.rounds; ++i) p.r[i] = k / p.rounds + (i < k % p.rounds ? 1 : 0);
  return p;
}

template <class Fr, bool kDif, bool kCompact>
void launch_pass(dim3 grid, unsigned threads, std::size_t smem, Fr* data, const Tables<Fr>& t, const Pass& p,
                 bool inv, Load mode, const Fr& scale, cudaStream_t stream) {
  // Above the default 48 KB; set on every call (a microsecond), so that it holds on whichever device.
  CUZK_CUDA_CHECK(
      cudaFuncSetAttribute(pass_kernel<Fr, kDif, kCompact>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                           int(((std::size_t(1) << kBlockLog) + (1u << kBlockLog)) * sizeof(Fr))));
  pass_kernel<Fr, kDif, kCompact><<<grid, threads, smem, stream>>>(data, t.twiddles(), p, inv, mode, scale);
}

template <class Fr, bool kDif>
void run_pass(Fr* data, std::size_t count, const Tables<Fr>& t, const Pass& p, bool inv, Load mode,
              const Fr& scale, cudaStream_t stream) {
  const unsigned elems_log = p.elems_log();
  const unsigned max_r = *std::max_element(p.r, p.r + p.rounds);
  const unsigned threads = std::max(1u, std::min(kPassThreads, 1u << (elems_log - max_r)));
  const std::size_t smem =
      ((std::size_t(1) << elems_log) + (mode == Load::kOddCoset ? (1u << p.g2) : 0)) * sizeof(Fr);
  dim3 grid(static_cast<unsigned>(t.n() >> elems_log), static_cast<unsigned>(count));
  if (t.layout() == TableLayout::kCompact)
    launch_pass<Fr, kDif, true>(grid, threads, smem, data, t, p, inv, mode, scale, stream);
  else
    launch_pass<Fr, kDif, false>(grid, threads, smem, data, t, p, inv, mode, scale, stream);
  cuda::check_last_launch(kDif ? "ntt dif pass" : "ntt dit pass");
}

// DIF: natural → bit-reversed, high bits first.
template <class Fr>
void dif(Fr* data, std::size_t count, const Tables<Fr>& t, bool inv, cudaStream_t stream) {
  const unsigned log_n = static_cast<unsigned>(t.log_n());
  if (log_n == 0) return;
  const auto ks = split_passes(log_n);
  unsigned lo = log_n;
  for (std::size_t i = ks.size(); i-- > 0;) {
    lo -= ks[i];
    run_pass<Fr, true>(data, count, t, make_pass(log_n, lo, ks[i]), inv, Load::kPlain, Fr::one(), stream);
  }
}

// DIT: bit-reversed → natural, low bits first; the first pass applies `mode` to what it loads.
template <class Fr>
void dit(Fr* data, std::size_t count, const Tables<Fr>& t, bool inv, Load mode, const Fr& scale,
         cudaStream_t stream) {
  const unsigned log_n = static_cast<unsigned>(t.log_n());
  if (log_n == 0) return;  // n = 1: identity, and both scalings are 1 (n^-1 = ω_2^0 = 1)
  unsigned lo = 0;
  for (unsigned k : split_passes(log_n)) {
    run_pass<Fr, false>(data, count, t, make_pass(log_n, lo, k), inv, lo == 0 ? mode : Load::kPlain, scale,
                        stream);
    lo += k;
  }
}

}  // namespace

template <class Fr>
Tables<Fr>::Tables(std::size_t log_n, cudaStream_t stream, TableLayout layout)
    : Tables(log_n, poly::root_of_unity<Fr>(log_n + 1), stream, layout) {}

template <class Fr>
Tables<Fr>::Tables(std::size_t log_n, const Fr& g, cudaStream_t stream, TableLayout layout)
    : log_n_(log_n), layout_(layout), n_inv_(Fr::from_u64(std::size_t(1) << log_n).inverse()) {
  const std::size_t n = std::size_t(1) << log_n;
  // Order exactly 2N: g^N = −1 (then g^2N = 1, and no smaller power of two is 1).
  if (g.pow(static_cast<std::uint64_t>(n)) != -Fr::one())
    throw std::invalid_argument("NTT tables: the root given has not order 2^" + std::to_string(log_n + 1));
  // The compact pair, made on the host; the full table is their products, made on the device from them.
  const unsigned lb = compact_low_log(log_n);
  const std::size_t low_n = std::size_t(1) << lb, high_n = n >> lb;
  std::vector<Fr> low(low_n), high(high_n);
  Fr x = Fr::one();
  for (std::size_t i = 0; i < low_n; ++i, x *= g) low[i] = x;
  const Fr step = x;  // g^(2^lb)
  Fr y = Fr::one();
  for (std::size_t k = 0; k < high_n; ++k, y *= step) high[k] = y;
  low_ = cuda::DeviceBuffer<Fr>(low_n);
  high_ = cuda::DeviceBuffer<Fr>(high_n);
  low_.upload(low.data(), low_n, stream);
  high_.upload(high.data(), high_n, stream);
  if (layout == TableLayout::kFull) {
    full_ = cuda::DeviceBuffer<Fr>(n);
    powers_kernel<Fr>
        <<<grid_for(n, 1), kThreads, 0, stream>>>(full_.data(), high_.data(), low_.data(), n, lb);
    cuda::check_last_launch("ntt powers_kernel");
  }
  CUZK_CUDA_CHECK(cudaStreamSynchronize(stream));  // the host vectors die here
  if (layout == TableLayout::kFull) {
    low_ = {};
    high_ = {};
  }
}

template <class Fr>
Tables<Fr> Tables<Fr>::expanded(cudaStream_t stream) const {
  if (layout_ != TableLayout::kCompact) throw std::invalid_argument("NTT tables: only compact tables expand");
  Tables out(log_n_, TableLayout::kFull, n_inv_);
  const std::size_t n = this->n();
  out.full_ = cuda::DeviceBuffer<Fr>(n, stream);
  powers_kernel<Fr><<<grid_for(n, 1), kThreads, 0, stream>>>(out.full_.data(), high_.data(), low_.data(), n,
                                                             compact_low_log(log_n_));
  cuda::check_last_launch("ntt powers_kernel (expanded)");
  return out;
}

template <class Fr>
Twiddles<Fr> Tables<Fr>::twiddles() const {
  if (layout_ == TableLayout::kFull) return Twiddles<Fr>{full_.data(), nullptr, nullptr, 0};
  return Twiddles<Fr>{nullptr, low_.data(), high_.data(), compact_low_log(log_n_)};
}

template <class Fr>
void forward(Fr* data, const Tables<Fr>& t, cudaStream_t stream) {
  bit_reverse(data, 1, static_cast<unsigned>(t.log_n()), stream);
  dit(data, 1, t, false, Load::kPlain, Fr::one(), stream);
}

// Bit-reverse, then DIT with ω_N^-1 twiddles whose first pass scales by n^-1 as it loads.
template <class Fr>
void inverse(Fr* data, const Tables<Fr>& t, cudaStream_t stream) {
  bit_reverse(data, 1, static_cast<unsigned>(t.log_n()), stream);
  dit(data, 1, t, true, Load::kScale, t.n_inv(), stream);
}

template <class Fr>
void to_odd_coset(Fr* data, std::size_t count, const Tables<Fr>& t, cudaStream_t stream) {
  dif(data, count, t, true, stream);  // coefficients, bit-reversed, times n
  // The first DIT pass scales position pos by n^-1·ω_2N^bitrev(pos) as it loads: evaluations at
  // ω_2N·ω_N^i, natural order.
  dit(data, count, t, false, Load::kOddCoset, t.n_inv(), stream);
}

#define CUZK_NTT_INSTANTIATE(Fr)                                   \
  template class Tables<Fr>;                                       \
  template void forward<Fr>(Fr*, const Tables<Fr>&, cudaStream_t); \
  template void inverse<Fr>(Fr*, const Tables<Fr>&, cudaStream_t); \
  template void to_odd_coset<Fr>(Fr*, std::size_t, const Tables<Fr>&, cudaStream_t);
CUZK_NTT_INSTANTIATE(Bn254::Fr)
CUZK_NTT_INSTANTIATE(Bls12_381::Fr)

}  // namespace cuzk::ntt::gpu
