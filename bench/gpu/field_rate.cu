// `cuzk-bench kernels … field`: device Montgomery multiply throughput (G mul/s) for the 381-bit and
// 255-bit fields, each variant of src/ff/mont32.hpp, inlined and as the called form the curve formulas
// use. Every thread runs two independent chains x ← x·y; a sample of results is checked on the host.
#include <cstdio>
#include <random>
#include <vector>

#include "cuda/device.hpp"
#include "cuda/device_buffer.hpp"
#include "cuda/event.hpp"
#include "ec/bls12_381.hpp"
#include "ec/bn254.hpp"
#include "ff/mont_fp64.hpp"
#include "ff/random.hpp"

namespace cuzk::bench {

namespace {

enum class Variant {
  kWide,
  kChain,
  kWideCc,
  kSqrWideCc,
  kSqrChain,
  kCalled,
  kCalledSqr,
  kAdd,
  kFp64,
  kFp64Limbs,
  kFp64Sqr,
  kFp64SqrLimbs,
  kFp64Half,
  kFp64Int,
  kWarpMix2,
  kWarpMix4
};

constexpr int kIters = 1000;

template <class F, Variant V>
__global__ void rate_kernel(const F* in, const F* y_in, F* out) {
  using Params = typename F::params;
  constexpr std::size_t N = F::N;
  const std::size_t t = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  F x0 = in[2 * t], x1 = in[2 * t + 1];
  const F y = *y_in;
  constexpr std::uint32_t pinv = ff::mont32::neg_inverse32<Params>();
  const auto p = ff::mont32::modulus_words<Params, N>();
  auto w0 = ff::mont32::split<N>(x0.l), w1 = ff::mont32::split<N>(x1.l);
  const auto wy = ff::mont32::split<N>(y.l);
  constexpr bool kInLimbs = V == Variant::kFp64Limbs || V == Variant::kFp64SqrLimbs;
  [[maybe_unused]] ff::fp64::Limbs l0{}, l1{}, ly{};
  if constexpr (kInLimbs && N == 6) {
    l0 = ff::fp64::to_limbs(w0);
    l1 = ff::fp64::to_limbs(w1);
    ly = ff::fp64::to_limbs(wy);
  }
  for (int i = 0; i < kIters; ++i) {
    if constexpr (V == Variant::kWide) {
      w0 = ff::mont32::mul_wide<N>(w0, wy, p, pinv);
      w1 = ff::mont32::mul_wide<N>(w1, wy, p, pinv);
    } else if constexpr (V == Variant::kChain) {
      w0 = ff::mont32::mul_chain<N>(w0, wy, p, pinv);
      w1 = ff::mont32::mul_chain<N>(w1, wy, p, pinv);
    } else if constexpr (V == Variant::kWideCc) {
      w0 = ff::mont32::mul_wide_cc<N>(w0, wy, p, pinv);
      w1 = ff::mont32::mul_wide_cc<N>(w1, wy, p, pinv);
    } else if constexpr (V == Variant::kSqrWideCc) {
      w0 = ff::mont32::sqr_wide_cc<N>(w0, p, pinv);
      w1 = ff::mont32::sqr_wide_cc<N>(w1, p, pinv);
    } else if constexpr (V == Variant::kSqrChain) {
      w0 = ff::mont32::sqr_chain<N>(w0, p, pinv);
      w1 = ff::mont32::sqr_chain<N>(w1, p, pinv);
    } else if constexpr (V == Variant::kFp64 || V == Variant::kFp64Half || V == Variant::kFp64Int) {
      if constexpr (N == 6) {
        constexpr int kInt = V == Variant::kFp64 ? 0 : V == Variant::kFp64Half ? 4 : 8;
        w0 = ff::fp64::mul_words<Params, kInt>(w0, wy, p);
        w1 = ff::fp64::mul_words<Params, kInt>(w1, wy, p);
      }
    } else if constexpr (V == Variant::kFp64Limbs || V == Variant::kFp64SqrLimbs) {
      // The chain stays in 48-bit limbs (values < 2p) and converts once, after the loop: what a curve
      // formula kept in limb form would pay per product, against kFp64's conversion of both operands and
      // the result (and the canonical subtraction) every time.
      if constexpr (N == 6) {
        if constexpr (V == Variant::kFp64Limbs) {
          l0 = ff::fp64::mul_lazy<Params, 0>(l0, ly);
          l1 = ff::fp64::mul_lazy<Params, 0>(l1, ly);
        } else {
          l0 = ff::fp64::sqr_lazy<Params>(l0);
          l1 = ff::fp64::sqr_lazy<Params>(l1);
        }
      }
    } else if constexpr (V == Variant::kFp64Sqr) {
      if constexpr (N == 6) {
        w0 = ff::fp64::sqr_words<Params>(w0, p);
        w1 = ff::fp64::sqr_words<Params>(w1, p);
      }
    } else if constexpr (V == Variant::kWarpMix2 || V == Variant::kWarpMix4) {
      // Whole warps on the integer form, the rest on the FP64 form: both pipes busy at once, each warp on
      // one of them (no second chain's registers in any thread, as pairing two forms in one thread needs).
      if constexpr (N == 6) {
        const unsigned warp = threadIdx.x >> 5;
        if ((V == Variant::kWarpMix2 ? warp & 1u : warp & 3u) == 1) {
          w0 = ff::mont32::mul_chain<N>(w0, wy, p, pinv);
          w1 = ff::mont32::mul_chain<N>(w1, wy, p, pinv);
        } else {
          w0 = ff::fp64::mul_words<Params, 0>(w0, wy, p);
          w1 = ff::fp64::mul_words<Params, 0>(w1, wy, p);
        }
      }
    } else if constexpr (V == Variant::kCalled) {
      x0 = x0 * y;
      x1 = x1 * y;
    } else if constexpr (V == Variant::kCalledSqr) {
      x0 = x0.sqr();
      x1 = x1.sqr();
    } else {
      w0 = ff::mont32::add<N>(w0, wy, p);
      w1 = ff::mont32::add<N>(w1, wy, p);
    }
  }
  if constexpr (kInLimbs && N == 6) {
    w0 = ff::mont32::reduce_once<N>(ff::fp64::to_words(l0), p);
    w1 = ff::mont32::reduce_once<N>(ff::fp64::to_words(l1), p);
  }
  if constexpr (V != Variant::kCalled && V != Variant::kCalledSqr) {
    ff::mont32::join<N>(x0.l, w0);
    ff::mont32::join<N>(x1.l, w1);
  }
  out[2 * t] = x0;
  out[2 * t + 1] = x1;
}

template <class F, Variant V>
void measure(const char* field, const char* variant, cudaStream_t stream) {
  const auto info = cuda::device_info(0);
  const std::size_t threads = 256, blocks = std::size_t(info.sm_count) * 4, total = threads * blocks;
  std::mt19937_64 rng(7);
  std::vector<F> h(2 * total);
  for (auto& x : h) x = ff::random_element<F>(rng);
  const F y = ff::random_element<F>(rng);
  cuda::DeviceBuffer<F> d_in(2 * total), d_out(2 * total), d_y(1);
  d_in.upload(h.data(), h.size(), stream);
  d_y.upload(&y, 1, stream);
  auto launch = [&] {
    rate_kernel<F, V>
        <<<static_cast<unsigned>(blocks), threads, 0, stream>>>(d_in.data(), d_y.data(), d_out.data());
    cuda::check_last_launch("field rate_kernel");
  };
  launch();  // warm-up
  cuda::Event a, b;
  a.record(stream);
  launch();
  b.record(stream);
  b.synchronize();
  const double ms = cuda::Event::elapsed_ms(a, b);
  std::vector<F> got(2 * total);
  d_out.download(got.data(), got.size(), stream);
  CUZK_CUDA_CHECK(cudaStreamSynchronize(stream));
  bool ok = true;
  for (std::size_t k = 0; k < got.size(); k += 4099) {
    F x = h[k];
    for (int i = 0; i < kIters; ++i) {
      if constexpr (V == Variant::kAdd)
        x = x + y;
      else if constexpr (V == Variant::kSqrWideCc || V == Variant::kSqrChain || V == Variant::kFp64Sqr ||
                         V == Variant::kFp64SqrLimbs || V == Variant::kCalledSqr)
        x = x.sqr();
      else
        x = x * y;
    }
    ok = ok && x == got[k];
  }
  const double ops = double(total) * 2 * kIters;
  std::printf("| %-14s | %-22s | %8.2f G/s | %s\n", field, variant, ops / ms / 1e6, ok ? "ok" : "WRONG");
  std::fflush(stdout);
}

template <class F>
void measure_all(const char* field, cudaStream_t stream) {
  measure<F, Variant::kWide>(field, "mul wide (inlined)", stream);
  measure<F, Variant::kChain>(field, "mul chain (inlined)", stream);
  measure<F, Variant::kWideCc>(field, "mul wide+cc (inlined)", stream);
  measure<F, Variant::kSqrChain>(field, "sqr chain (inlined)", stream);
  measure<F, Variant::kSqrWideCc>(field, "sqr wide+cc (inlined)", stream);
  if constexpr (F::N == 6) {
    measure<F, Variant::kFp64>(field, "mul fp64 (inlined)", stream);
    measure<F, Variant::kFp64Limbs>(field, "mul fp64 kept in limbs", stream);
    measure<F, Variant::kFp64Sqr>(field, "sqr fp64 (inlined)", stream);
    measure<F, Variant::kFp64SqrLimbs>(field, "sqr fp64 kept in limbs", stream);
    measure<F, Variant::kFp64Half>(field, "mul fp64 half-int", stream);
    measure<F, Variant::kFp64Int>(field, "mul fp64 int-acc", stream);
    measure<F, Variant::kWarpMix2>(field, "fp64, 1/2 warps int", stream);
    measure<F, Variant::kWarpMix4>(field, "fp64, 1/4 warps int", stream);
  }
  measure<F, Variant::kCalled>(field, "mul (called form)", stream);
  measure<F, Variant::kCalledSqr>(field, "sqr (called form)", stream);
  measure<F, Variant::kAdd>(field, "add", stream);
}

}  // namespace

void bench_field_rates(cudaStream_t stream) {
  std::printf("| field          | variant                | throughput   | check\n|---|---|---|---|\n");
  measure_all<Bls12_381::Fq>("BLS12-381 Fp", stream);
  measure_all<Bls12_381::Fr>("BLS12-381 Fr", stream);
  measure_all<Bn254::Fq>("BN254 Fp", stream);
}

}  // namespace cuzk::bench
