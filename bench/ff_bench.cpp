// Arithmetic micro-benchmarks: prime-field mul/sqr/inverse, Fp2 and Fp12 products, the XYZZ mixed
// addition that MSM buckets use, and pairings. `cuzk-bench --benchmark_filter='^(ff|ec|pairing)/'`.
//
// Every loop is a dependent chain (each result feeds the next operation) and the result goes through
// benchmark::DoNotOptimize, so the compiler can neither hoist nor drop the work; one operation per
// iteration, so the reported time is the latency of one operation.
#include <benchmark/benchmark.h>
#include <tbb/task_arena.h>

#include <random>
#include <utility>
#include <vector>

#include "ec/batch_affine.hpp"
#include "ec/batch_normalize.hpp"
#include "ec/bls12_381.hpp"
#include "ec/bn254.hpp"
#include "ec/fixed_base.hpp"
#include "ec/scalar_mul.hpp"
#include "ff/encoding.hpp"
#include "ff/sum_of_products.hpp"
#include "msm/cpu.hpp"
#include "pairing/pairing.hpp"

namespace {

using namespace cuzk;
using Rng = std::mt19937_64;

template <class F>
F rand_field(Rng& rng) {
  F x = ff::random_element<F>(rng);
  benchmark::DoNotOptimize(x);
  return x;
}
template <class F2>
F2 rand_fp2(Rng& rng) {
  using B = typename F2::Base;
  return {rand_field<B>(rng), rand_field<B>(rng)};
}
template <class F12>
F12 rand_fp12(Rng& rng) {
  using F6 = typename F12::F6;
  using F2 = typename F6::F2;
  auto f6 = [&] { return F6{rand_fp2<F2>(rng), rand_fp2<F2>(rng), rand_fp2<F2>(rng)}; };
  F6 a = f6(), b = f6();
  return {a, b};
}

// ---- prime fields ---------------------------------------------------------------------------------
template <class F>
void BM_FieldMul(benchmark::State& state) {
  Rng rng(1);
  F x = rand_field<F>(rng);
  const F y = rand_field<F>(rng);
  for (auto _ : state) {
    x = x * y;
    benchmark::DoNotOptimize(x);
  }
}
template <class F>
void BM_FieldSqr(benchmark::State& state) {
  Rng rng(2);
  F x = rand_field<F>(rng);
  for (auto _ : state) {
    x = x.sqr();
    benchmark::DoNotOptimize(x);
  }
}
template <class F>
void BM_FieldAdd(benchmark::State& state) {
  Rng rng(3);
  F x = rand_field<F>(rng);
  const F y = rand_field<F>(rng);
  for (auto _ : state) {
    x = x + y;
    benchmark::DoNotOptimize(x);
  }
}
template <class F>
void BM_FieldInverse(benchmark::State& state) {
  Rng rng(4);
  F x = rand_field<F>(rng);
  for (auto _ : state) {
    x = x.inverse();
    benchmark::DoNotOptimize(x);
  }
}

#define CUZK_FIELD_BENCH(F, NAME)                  \
  BENCHMARK(BM_FieldMul<F>)->Name("ff/mul/" NAME); \
  BENCHMARK(BM_FieldSqr<F>)->Name("ff/sqr/" NAME); \
  BENCHMARK(BM_FieldAdd<F>)->Name("ff/add/" NAME); \
  BENCHMARK(BM_FieldInverse<F>)->Name("ff/inverse/" NAME)->Unit(benchmark::kMicrosecond);

// Σ a_i·b_i over `range(0)` terms (a Poseidon state times a matrix column): one product and one modular
// addition per term, against ff::sum_of_products (products added as integers, one reduction). The sum feeds
// the next iteration's first term, so each iteration is one dependent sum.
template <class F, bool kReducedOnce>
void BM_SumOfProducts(benchmark::State& state) {
  Rng rng(5);
  const auto n = static_cast<std::size_t>(state.range(0));
  std::vector<F> a(n), b(n);
  for (std::size_t i = 0; i < n; ++i) a[i] = rand_field<F>(rng), b[i] = rand_field<F>(rng);
  for (auto _ : state) {
    F sum;
    if constexpr (kReducedOnce) {
      sum = ff::sum_of_products<F>(
          n, [&](std::size_t i) -> const F& { return a[i]; },
          [&](std::size_t i) -> const F& { return b[i]; });
    } else {
      sum = F::zero();
      for (std::size_t i = 0; i < n; ++i) sum += a[i] * b[i];
    }
    a[0] = sum;
    benchmark::DoNotOptimize(a[0]);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
}
BENCHMARK(BM_SumOfProducts<ff::bls12_381::Fr, false>)
    ->Name("ff/products_added/bls12_381_Fr")
    ->Arg(9)
    ->Arg(12);
BENCHMARK(BM_SumOfProducts<ff::bls12_381::Fr, true>)
    ->Name("ff/sum_of_products/bls12_381_Fr")
    ->Arg(9)
    ->Arg(12);

CUZK_FIELD_BENCH(ff::bn254::Fq, "bn254_Fq")
CUZK_FIELD_BENCH(ff::bn254::Fr, "bn254_Fr")
CUZK_FIELD_BENCH(ff::bls12_381::Fq, "bls12_381_Fq")
CUZK_FIELD_BENCH(ff::bls12_381::Fr, "bls12_381_Fr")
#undef CUZK_FIELD_BENCH

// ---- extension fields -----------------------------------------------------------------------------
template <class F2>
void BM_Fp2Mul(benchmark::State& state) {
  Rng rng(5);
  F2 x = rand_fp2<F2>(rng);
  const F2 y = rand_fp2<F2>(rng);
  for (auto _ : state) {
    x = x * y;
    benchmark::DoNotOptimize(x);
  }
}
template <class F2>
void BM_Fp2Sqr(benchmark::State& state) {
  Rng rng(6);
  F2 x = rand_fp2<F2>(rng);
  for (auto _ : state) {
    x = x.sqr();
    benchmark::DoNotOptimize(x);
  }
}
template <class F12>
void BM_Fp12Mul(benchmark::State& state) {
  Rng rng(7);
  F12 x = rand_fp12<F12>(rng);
  const F12 y = rand_fp12<F12>(rng);
  for (auto _ : state) {
    x = x * y;
    benchmark::DoNotOptimize(x);
  }
}
template <class F12>
void BM_Fp12Sqr(benchmark::State& state) {
  Rng rng(8);
  F12 x = rand_fp12<F12>(rng);
  for (auto _ : state) {
    x = x.sqr();
    benchmark::DoNotOptimize(x);
  }
}

BENCHMARK(BM_Fp2Mul<ff::bn254::Fq2>)->Name("ff/fp2_mul/bn254");
BENCHMARK(BM_Fp2Mul<ff::bls12_381::Fq2>)->Name("ff/fp2_mul/bls12_381");
BENCHMARK(BM_Fp2Sqr<ff::bn254::Fq2>)->Name("ff/fp2_sqr/bn254");
BENCHMARK(BM_Fp2Sqr<ff::bls12_381::Fq2>)->Name("ff/fp2_sqr/bls12_381");
BENCHMARK(BM_Fp12Mul<ff::bn254::Fq12>)->Name("ff/fp12_mul/bn254");
BENCHMARK(BM_Fp12Mul<ff::bls12_381::Fq12>)->Name("ff/fp12_mul/bls12_381");
BENCHMARK(BM_Fp12Sqr<ff::bn254::Fq12>)->Name("ff/fp12_sqr/bn254");
BENCHMARK(BM_Fp12Sqr<ff::bls12_381::Fq12>)->Name("ff/fp12_sqr/bls12_381");

// ---- curve points ---------------------------------------------------------------------------------
// n distinct affine points of the subgroup (1024 by default): a random walk Q_i = Q_{i-1} + R from a random
// start.
template <class C>
std::vector<ec::Affine<C>> random_points(Rng& rng, std::size_t n = 1024) {
  using J = ec::Jacobian<C>;
  const auto g = C::generator();
  J q = ec::scalar_mul(g, ff::random_element<typename C::Scalar>(rng).to_int());
  const J r = ec::scalar_mul(g, ff::random_element<typename C::Scalar>(rng).to_int());
  std::vector<J> jac(n);
  for (auto& p : jac) {
    p = q;
    q += r;
  }
  return ec::batch_to_affine(jac);
}

// acc ← acc + P_i (XYZZ += affine), the MSM bucket accumulation.
template <class C>
void BM_XyzzAddAffine(benchmark::State& state) {
  Rng rng(9);
  const auto pts = random_points<C>(rng);
  auto acc = ec::XYZZ<C>::from_affine(C::generator());
  std::size_t i = 0;
  for (auto _ : state) {
    acc = acc.add_affine(pts[i++ & 1023]);
    benchmark::DoNotOptimize(acc);
  }
}
template <class C>
void BM_JacobianAddAffine(benchmark::State& state) {
  Rng rng(10);
  const auto pts = random_points<C>(rng);
  auto acc = ec::Jacobian<C>::from_affine(C::generator());
  std::size_t i = 0;
  for (auto _ : state) {
    acc = acc.add_affine(pts[i++ & 1023]);
    benchmark::DoNotOptimize(acc);
  }
}
template <class C>
void BM_JacobianDbl(benchmark::State& state) {
  auto acc = ec::Jacobian<C>::from_affine(C::generator());
  for (auto _ : state) {
    acc = acc.dbl();
    benchmark::DoNotOptimize(acc);
  }
}

// acc_k ← acc_k + P for 1024 independent sums per batch, one shared inversion (ec/batch_affine.hpp): the
// affine MSM buckets' and fixed-base products' addition. Time per addition.
template <class C>
void BM_BatchAffineAdd(benchmark::State& state) {
  Rng rng(11);
  const auto pts = random_points<C>(rng);
  std::vector<ec::Affine<C>> acc(pts.rbegin(), pts.rend());
  ec::BatchAffineAdder<C> adder(acc.size());
  std::size_t shift = 1;
  for (auto _ : state) {
    for (std::size_t k = 0; k < acc.size(); ++k) adder.add(&acc[k], pts[(k + shift) & 1023]);
    adder.flush();
    ++shift;
    benchmark::DoNotOptimize(acc.data());
  }
  state.SetItemsProcessed(state.iterations() * acc.size());
}

// scalars[i]·G from the fixed-base table of range(0)-bit windows (test-only setup): one product at a time
// with XYZZ additions (mul), or 4,096 products whose additions share inversions (mul_all), on one thread.
// Time per product.
template <class C, bool Batched>
void BM_FixedBase(benchmark::State& state) {
  using Fr = typename C::Scalar;
  Rng rng(13);
  const ec::FixedBaseTable<C> table(C::generator(), Fr::bits(), static_cast<std::size_t>(state.range(0)));
  std::vector<Fr> k(4096);
  for (auto& x : k) x = ff::random_element<Fr>(rng);
  tbb::task_arena one(1);
  for (auto _ : state) {
    one.execute([&] {
      if constexpr (Batched) {
        benchmark::DoNotOptimize(table.mul_all(k).data());
      } else {
        for (const Fr& x : k) benchmark::DoNotOptimize(table.mul(x.to_int()));
      }
    });
  }
  state.SetItemsProcessed(state.iterations() * k.size());
}

// Building the fixed-base table of range(0)-bit windows (each setup makes one of G1 and one of G2), on the
// machine's threads.
template <class C>
void BM_FixedBaseTable(benchmark::State& state) {
  for (auto _ : state) {
    const ec::FixedBaseTable<C> table(C::generator(), C::Scalar::bits(),
                                      static_cast<std::size_t>(state.range(0)));
    benchmark::DoNotOptimize(table.table().data());
  }
}

// One window's bucket accumulation and reduction for 2^20 distinct points (c = 16, one thread, as each of a
// 2-core machine's chunks of a 2^21-point MSM): XYZZ buckets against affine buckets with batched
// inversions (msm/cpu.hpp).
template <class C, bool Affine>
void BM_BucketWindow(benchmark::State& state) {
  Rng rng(12);
  const std::size_t n = std::size_t(1) << 20, c = static_cast<std::size_t>(state.range(0));
  const auto pts = random_points<C>(rng, n);
  std::vector<std::int32_t> digits(n);
  for (auto& d : digits) d = static_cast<std::int32_t>(rng() % (1u << c)) - (1 << (c - 1));
  std::vector<ec::XYZZ<C>> sums(1);
  for (auto _ : state) {
    if constexpr (Affine)
      msm::detail::affine_buckets_windows<C>(pts.data(), nullptr, digits.data(), n, c, 1, sums);
    else
      msm::detail::xyzz_buckets_windows<C>(pts.data(), nullptr, digits.data(), n, c, 1, sums);
    benchmark::DoNotOptimize(sums.data());
  }
  state.SetItemsProcessed(state.iterations() * n);
}

BENCHMARK(BM_XyzzAddAffine<ec::bn254::G1Cfg>)->Name("ec/g1_xyzz_add_affine/bn254");
BENCHMARK(BM_XyzzAddAffine<ec::bls12_381::G1Cfg>)->Name("ec/g1_xyzz_add_affine/bls12_381");
BENCHMARK(BM_XyzzAddAffine<ec::bn254::G2Cfg>)->Name("ec/g2_xyzz_add_affine/bn254");
BENCHMARK(BM_XyzzAddAffine<ec::bls12_381::G2Cfg>)->Name("ec/g2_xyzz_add_affine/bls12_381");
BENCHMARK(BM_BatchAffineAdd<ec::bls12_381::G1Cfg>)->Name("ec/g1_batch_affine_add/bls12_381");
BENCHMARK(BM_BatchAffineAdd<ec::bls12_381::G2Cfg>)->Name("ec/g2_batch_affine_add/bls12_381");
BENCHMARK(BM_FixedBase<ec::bls12_381::G1Cfg, false>)
    ->Name("ec/g1_fixed_base_mul/bls12_381")
    ->Arg(8)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FixedBase<ec::bls12_381::G1Cfg, true>)
    ->Name("ec/g1_fixed_base_mul_all/bls12_381")
    ->Arg(8)
    ->Arg(12)
    ->Arg(16)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FixedBaseTable<ec::bls12_381::G1Cfg>)
    ->Name("ec/g1_fixed_base_table/bls12_381")
    ->Arg(8)
    ->Arg(16)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FixedBaseTable<ec::bls12_381::G2Cfg>)
    ->Name("ec/g2_fixed_base_table/bls12_381")
    ->Arg(8)
    ->Arg(16)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FixedBase<ec::bls12_381::G2Cfg, true>)
    ->Name("ec/g2_fixed_base_mul_all/bls12_381")
    ->Arg(8)
    ->Arg(12)
    ->Arg(16)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BucketWindow<ec::bls12_381::G1Cfg, false>)
    ->Name("msm/cpu_window_xyzz/bls12_381_G1/2^20")
    ->Arg(12)
    ->Arg(16)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BucketWindow<ec::bls12_381::G1Cfg, true>)
    ->Name("msm/cpu_window_affine/bls12_381_G1/2^20")
    ->Arg(12)
    ->Arg(16)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_JacobianAddAffine<ec::bn254::G1Cfg>)->Name("ec/g1_jacobian_add_affine/bn254");
BENCHMARK(BM_JacobianAddAffine<ec::bls12_381::G1Cfg>)->Name("ec/g1_jacobian_add_affine/bls12_381");
BENCHMARK(BM_JacobianDbl<ec::bn254::G1Cfg>)->Name("ec/g1_jacobian_dbl/bn254");
BENCHMARK(BM_JacobianDbl<ec::bls12_381::G1Cfg>)->Name("ec/g1_jacobian_dbl/bls12_381");

// ---- pairings -------------------------------------------------------------------------------------
// Pairings of fixed inputs are independent of each other; DoNotOptimize on the inputs (they may have
// changed) and on the result keeps each evaluation from being hoisted or elided.
template <class Curve>
void BM_Pairing(benchmark::State& state) {
  Rng rng(11);
  auto p = ec::scalar_mul(Curve::G1Cfg::generator(), ff::random_element<typename Curve::Fr>(rng).to_int())
               .to_affine();
  auto q = ec::scalar_mul(Curve::G2Cfg::generator(), ff::random_element<typename Curve::Fr>(rng).to_int())
               .to_affine();
  for (auto _ : state) {
    benchmark::DoNotOptimize(p);
    benchmark::DoNotOptimize(q);
    auto e = pairing::pairing<Curve>(p, q);
    benchmark::DoNotOptimize(e);
  }
}
template <class Curve>
void BM_MillerLoop(benchmark::State& state) {
  Rng rng(12);
  using Pair = std::pair<typename Curve::G1, typename Curve::G2>;
  std::vector<Pair> pairs = {
      {ec::scalar_mul(Curve::G1Cfg::generator(), ff::random_element<typename Curve::Fr>(rng).to_int())
           .to_affine(),
       ec::scalar_mul(Curve::G2Cfg::generator(), ff::random_element<typename Curve::Fr>(rng).to_int())
           .to_affine()}};
  for (auto _ : state) {
    benchmark::DoNotOptimize(pairs.data());
    auto f = pairing::miller_loop<Curve>(std::span<const Pair>(pairs));
    benchmark::DoNotOptimize(f);
  }
}
template <class Curve>
void BM_FinalExponentiation(benchmark::State& state) {
  Rng rng(13);
  auto f = rand_fp12<typename Curve::Fq12>(rng);
  for (auto _ : state) {
    f = pairing::final_exponentiation<Curve>(f);
    benchmark::DoNotOptimize(f);
  }
}
// A Groth16 verification: one shared Miller loop over 4 pairs, one final exponentiation.
template <class Curve>
void BM_PairingProduct4(benchmark::State& state) {
  Rng rng(14);
  using Pair = std::pair<typename Curve::G1, typename Curve::G2>;
  std::vector<Pair> pairs;
  for (int i = 0; i < 4; ++i)
    pairs.push_back(
        {ec::scalar_mul(Curve::G1Cfg::generator(), ff::random_element<typename Curve::Fr>(rng).to_int())
             .to_affine(),
         ec::scalar_mul(Curve::G2Cfg::generator(), ff::random_element<typename Curve::Fr>(rng).to_int())
             .to_affine()});
  for (auto _ : state) {
    benchmark::DoNotOptimize(pairs.data());
    bool one = pairing::pairing_product_is_one<Curve>(std::span<const Pair>(pairs));
    benchmark::DoNotOptimize(one);
  }
}

BENCHMARK(BM_Pairing<Bn254>)->Name("pairing/pairing/bn254")->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Pairing<Bls12_381>)->Name("pairing/pairing/bls12_381")->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MillerLoop<Bn254>)->Name("pairing/miller_loop/bn254")->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MillerLoop<Bls12_381>)->Name("pairing/miller_loop/bls12_381")->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FinalExponentiation<Bn254>)->Name("pairing/final_exp/bn254")->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FinalExponentiation<Bls12_381>)
    ->Name("pairing/final_exp/bls12_381")
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PairingProduct4<Bn254>)->Name("pairing/product4/bn254")->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PairingProduct4<Bls12_381>)->Name("pairing/product4/bls12_381")->Unit(benchmark::kMillisecond);

}  // namespace
