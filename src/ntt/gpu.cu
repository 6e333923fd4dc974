#include <vector>

#include "cuda/error.hpp"
#include "ec/bls12_381.hpp"
#include "ec/bn254.hpp"
#include "ntt/gpu.hpp"

namespace cuzk::ntt::gpu {

namespace {

constexpr unsigned kSharedLog = 10;  // stages with half-size < 2^10 run in shared memory
constexpr unsigned kThreads = 256;

__device__ __forceinline__ std::size_t bitrev(std::size_t x, unsigned bits) {
  return __brevll(static_cast<unsigned long long>(x)) >> (64 - bits);
}

// ω_N^(±e) from the ω_2N power table.
template <class Fr>
__device__ __forceinline__ Fr twiddle(const Fr* t, std::size_t n, std::size_t e, bool inv) {
  if (e == 0) return Fr::one();
  return inv ? -t[n - 2 * e] : t[2 * e];
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

// One radix-2 stage with half-size h over the whole vector (h ≥ 2^kSharedLog).
template <class Fr, bool kDif>
__global__ void stage_kernel(Fr* a, const Fr* t, std::size_t n, std::size_t h, bool inv) {
  std::size_t tid = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (tid >= n / 2) return;
  Fr* v = a + blockIdx.y * n;
  std::size_t k = tid % h, i = (tid / h) * 2 * h + k, j = i + h;
  Fr w = twiddle(t, n, k * (n / (2 * h)), inv);
  Fr x = v[i], y = v[j];
  butterfly<Fr, kDif>(x, y, w);
  v[i] = x;
  v[j] = y;
}

// All stages with half-size h < min(n, 2^kSharedLog), on blocks of B = 2^lb contiguous elements.
// DIF runs them from large h to small (it comes after the global stages); DIT from small to large.
template <class Fr, bool kDif>
__global__ void shared_kernel(Fr* a, const Fr* t, std::size_t n, unsigned lb, bool inv) {
  extern __shared__ unsigned char smem_raw[];
  Fr* s = reinterpret_cast<Fr*>(smem_raw);
  const std::size_t b = std::size_t(1) << lb;
  Fr* v = a + blockIdx.y * n + blockIdx.x * b;
  for (std::size_t i = threadIdx.x; i < b; i += blockDim.x) s[i] = v[i];
  __syncthreads();
  for (unsigned st = 0; st < lb; ++st) {
    const std::size_t h = kDif ? (b >> (st + 1)) : (std::size_t(1) << st);
    for (std::size_t tid = threadIdx.x; tid < b / 2; tid += blockDim.x) {
      std::size_t k = tid % h, i = (tid / h) * 2 * h + k, j = i + h;
      Fr w = twiddle(t, n, k * (n / (2 * h)), inv);
      Fr x = s[i], y = s[j];
      butterfly<Fr, kDif>(x, y, w);
      s[i] = x;
      s[j] = y;
    }
    __syncthreads();
  }
  for (std::size_t i = threadIdx.x; i < b; i += blockDim.x) v[i] = s[i];
}

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

// d[pos] *= scale·T[bitrev(pos)]·(coset ? 1 : …): with coset = false multiplies by scale only.
template <class Fr>
__global__ void scale_kernel(Fr* a, const Fr* t, std::size_t n, unsigned log_n, Fr scale, bool coset) {
  std::size_t pos = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (pos >= n) return;
  Fr* v = a + blockIdx.y * n;
  Fr f = coset ? scale * t[bitrev(pos, log_n)] : scale;
  v[pos] = v[pos].mul_inlined(f);
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

template <class Fr, bool kDif>
void run_shared(Fr* data, std::size_t count, const Tables<Fr>& t, bool inv, cudaStream_t stream) {
  const unsigned lb = static_cast<unsigned>(std::min<std::size_t>(t.log_n(), kSharedLog));
  const std::size_t b = std::size_t(1) << lb;
  const unsigned threads = static_cast<unsigned>(std::min<std::size_t>(b / 2, 512));
  dim3 grid(static_cast<unsigned>(t.n() / b), static_cast<unsigned>(count));
  shared_kernel<Fr, kDif>
      <<<grid, std::max(threads, 1u), b * sizeof(Fr), stream>>>(data, t.omega2n_powers(), t.n(), lb, inv);
  cuda::check_last_launch("ntt shared_kernel");
}

// DIF: natural → bit-reversed.
template <class Fr>
void dif(Fr* data, std::size_t count, const Tables<Fr>& t, bool inv, cudaStream_t stream) {
  const std::size_t n = t.n();
  if (n < 2) return;
  for (std::size_t h = n / 2; h >= (std::size_t(1) << kSharedLog); h /= 2) {
    stage_kernel<Fr, true>
        <<<grid_for(n / 2, count), kThreads, 0, stream>>>(data, t.omega2n_powers(), n, h, inv);
    cuda::check_last_launch("ntt dif stage");
  }
  run_shared<Fr, true>(data, count, t, inv, stream);
}

// DIT: bit-reversed → natural.
template <class Fr>
void dit(Fr* data, std::size_t count, const Tables<Fr>& t, bool inv, cudaStream_t stream) {
  const std::size_t n = t.n();
  if (n < 2) return;
  run_shared<Fr, false>(data, count, t, inv, stream);
  for (std::size_t h = std::size_t(1) << kSharedLog; h < n; h *= 2) {
    stage_kernel<Fr, false>
        <<<grid_for(n / 2, count), kThreads, 0, stream>>>(data, t.omega2n_powers(), n, h, inv);
    cuda::check_last_launch("ntt dit stage");
  }
}

}  // namespace

template <class Fr>
Tables<Fr>::Tables(std::size_t log_n, cudaStream_t stream)
    : log_n_(log_n),
      powers_(std::size_t(1) << log_n),
      n_inv_(Fr::from_u64(std::size_t(1) << log_n).inverse()) {
  const std::size_t n = std::size_t(1) << log_n;
  const Fr g = poly::root_of_unity<Fr>(log_n + 1);
  const unsigned lb = static_cast<unsigned>(std::min<std::size_t>(log_n, 10));
  const std::size_t small_n = std::size_t(1) << lb, big_n = n >> lb;
  std::vector<Fr> small(small_n), big(big_n);
  Fr x = Fr::one();
  for (std::size_t i = 0; i < small_n; ++i, x *= g) small[i] = x;
  const Fr step = x;  // g^B
  Fr y = Fr::one();
  for (std::size_t k = 0; k < big_n; ++k, y *= step) big[k] = y;
  cuda::DeviceBuffer<Fr> d_small(small_n), d_big(big_n);
  d_small.upload(small.data(), small_n, stream);
  d_big.upload(big.data(), big_n, stream);
  powers_kernel<Fr>
      <<<grid_for(n, 1), kThreads, 0, stream>>>(powers_.data(), d_big.data(), d_small.data(), n, lb);
  cuda::check_last_launch("ntt powers_kernel");
  CUZK_CUDA_CHECK(cudaStreamSynchronize(stream));  // the staging buffers die here
}

template <class Fr>
void forward(Fr* data, const Tables<Fr>& t, cudaStream_t stream) {
  bitrev_kernel<Fr>
      <<<grid_for(t.n(), 1), kThreads, 0, stream>>>(data, t.n(), static_cast<unsigned>(t.log_n()));
  cuda::check_last_launch("ntt bitrev");
  dit(data, 1, t, false, stream);
}

template <class Fr>
void inverse(Fr* data, const Tables<Fr>& t, cudaStream_t stream) {
  dif(data, 1, t, true, stream);
  bitrev_kernel<Fr>
      <<<grid_for(t.n(), 1), kThreads, 0, stream>>>(data, t.n(), static_cast<unsigned>(t.log_n()));
  cuda::check_last_launch("ntt bitrev");
  scale_kernel<Fr><<<grid_for(t.n(), 1), kThreads, 0, stream>>>(
      data, t.omega2n_powers(), t.n(), static_cast<unsigned>(t.log_n()), t.n_inv(), false);
  cuda::check_last_launch("ntt scale");
}

template <class Fr>
void to_odd_coset(Fr* data, std::size_t count, const Tables<Fr>& t, cudaStream_t stream) {
  dif(data, count, t, true, stream);  // coefficients, bit-reversed, times n
  scale_kernel<Fr><<<grid_for(t.n(), count), kThreads, 0, stream>>>(
      data, t.omega2n_powers(), t.n(), static_cast<unsigned>(t.log_n()), t.n_inv(), true);
  cuda::check_last_launch("ntt coset scale");
  dit(data, count, t, false, stream);  // evaluations at ω_2N·ω_N^i, natural
}

#define CUZK_NTT_INSTANTIATE(Fr)                                   \
  template class Tables<Fr>;                                       \
  template void forward<Fr>(Fr*, const Tables<Fr>&, cudaStream_t); \
  template void inverse<Fr>(Fr*, const Tables<Fr>&, cudaStream_t); \
  template void to_odd_coset<Fr>(Fr*, std::size_t, const Tables<Fr>&, cudaStream_t);
CUZK_NTT_INSTANTIATE(Bn254::Fr)
CUZK_NTT_INSTANTIATE(Bls12_381::Fr)

}  // namespace cuzk::ntt::gpu
