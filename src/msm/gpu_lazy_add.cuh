// The arithmetic of the bucket accumulation's mixed addition of a BLS12-381 point (issue 31), chosen at run
// time so that one build measures the forms side by side (bench/RESULTS.md, "Lazy reduction in the bucket
// accumulation"): CUZK_MSM_ADD for G1, CUZK_MSM_ADD_G2 for G2 (over Fp2 = Fp[u]/(u² + 1), each Fp2 product
// three base-field products by Karatsuba):
//   lazy       (the default) values kept below 2p, as the ZPrize MSMs keep them: no final subtraction after
//              a product (its result is below 2p for factors below 2p because 4p < R = 2^384), sums and
//              differences reduced by 2p, zero is 0 or p; the products on the pipe the field type uses (FP64
//              where that pipe is full rate: Hopper, B200; else the integer pipe). H100, 2^27 points: 857.6 →
//              831.6 ms with FP64 products, 1,128.6 → 1,119.9 ms with integer ones. For G2 on the FP64 pipe
//              (its Fp2 products there, where the field type keeps them on the integer pipe): 2^26 points
//              1,977 → 1,612 ms; elsewhere G2's lazy form is the field type's (see Bucket).
//   field      the field type's operations: every product, sum and difference reduced below p; for G2 the
//              Fp2 products on the integer pipe (ff/fp2.hpp says why).
//   fp64-lazy  lazy with FP64-pipe products on any GPU.
//   int        the field type's reduced arithmetic with integer-pipe products (what a consumer card runs).
//   int-lazy   lazy with integer-pipe products.
// Folding Y3 = R·(Q − X3) − Y·PPP into one double product with a single Montgomery reduction (9 reductions
// per addition instead of 10, as Matter Labs' and Yrrid's integer MSMs do) was measured on an H100 (dafac30,
// `int-lazy9`): 20 % slower than int-lazy at 2^27 (1,350 against 1,120 ms), the four-operand called product
// costing the kernel occupancy; it was removed.
// The bucket sums leave the kernel reduced below p whatever the form, so nothing after the accumulation
// changes. Other groups (BN254) always use the field type.
#pragma once

#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "ec/bls12_381.hpp"
#include "ec/point.hpp"
#include "ff/mont32.hpp"
#include "ff/mont_fp64.hpp"
#include "msm/gpu_launch.cuh"

namespace cuzk::msm::gpu {

enum class AddForm { kLazy, kField, kFp64Lazy, kInt, kIntLazy };

// The groups that have the other forms: BLS12-381's, whose base field is a 6-word prime field or its
// quadratic extension.
template <class C>
inline constexpr bool kHasAddForms =
    std::is_same_v<C, ec::bls12_381::G1Cfg> || std::is_same_v<C, ec::bls12_381::G2Cfg>;
template <class C>
inline constexpr bool kIsG2 = std::is_same_v<C, ec::bls12_381::G2Cfg>;

// The variable that picks a group's form. Unset, the form is lazy for both (for G2 on a GPU without
// full-rate FP64 that is the field type's form, see Bucket).
template <class C>
inline constexpr const char* kAddFormVariable = kIsG2<C> ? "CUZK_MSM_ADD_G2" : "CUZK_MSM_ADD";

// Each form's name in CUZK_MSM_ADD and CUZK_MSM_ADD_G2 (the first is the default).
inline constexpr std::pair<const char*, AddForm> kAddFormNames[] = {{"lazy", AddForm::kLazy},
                                                                    {"field", AddForm::kField},
                                                                    {"fp64-lazy", AddForm::kFp64Lazy},
                                                                    {"int", AddForm::kInt},
                                                                    {"int-lazy", AddForm::kIntLazy}};

// Group C's form from its variable, read at every MSM (a test or benchmark may change it between calls);
// unknown names throw.
template <class C>
inline AddForm add_form_from_env() {
  const char* v = std::getenv(kAddFormVariable<C>);
  if (!v || !*v) return kAddFormNames[0].second;
  std::string known;
  for (const auto& [name, form] : kAddFormNames) {
    if (!std::strcmp(v, name)) return form;
    known += known.empty() ? name : std::string(", ") + name;
  }
  throw std::invalid_argument(std::string(kAddFormVariable<C>) + "=" + v + ": expected one of " + known);
}

inline const char* add_form_name(AddForm form) {
  for (const auto& [name, f] : kAddFormNames)
    if (f == form) return name;
  return "?";
}

namespace lazy {

using Int = ff::BigInt<6>;
using Words = ff::mont32::Words<6>;
using ff::mont32::join;
using ff::mont32::split;

template <class Params>
__host__ __device__ constexpr Int twice_modulus() {
  const Int p = Params::modulus();
  Int r{};
  ff::bigint_add(r, p, p);  // 2p < 2^382: no carry out
  return r;
}

// Products, each a called function (one copy of the long multiply in the hot loop: mont32.hpp says why).
// Lazy ones take factors below 2p and return a product below 2p.
template <class Params>
__device__ __noinline__ Int mul_fp64_lazy(Int a, Int b) {
  Int r;
  join<6>(r.v, ff::fp64::to_words(ff::fp64::mul_lazy<Params, 0>(ff::fp64::to_limbs(split<6>(a.v)),
                                                                ff::fp64::to_limbs(split<6>(b.v)))));
  return r;
}

template <class Params>
__device__ __noinline__ Int sqr_fp64_lazy(Int a) {
  Int r;
  join<6>(r.v, ff::fp64::to_words(ff::fp64::sqr_lazy<Params>(ff::fp64::to_limbs(split<6>(a.v)))));
  return r;
}

template <class Params>
__device__ __noinline__ Int mul_int_lazy(Int a, Int b) {
  constexpr auto pinv = ff::mont32::neg_inverse32<Params>();
  Int r;
  join<6>(r.v, ff::mont32::mul_chain_lazy<6>(split<6>(a.v), split<6>(b.v),
                                             ff::mont32::modulus_words<Params, 6>(), pinv));
  return r;
}

// Arithmetic on values below `bound` (p: reduced, 2p: lazy), with Form's products.
template <class Params, AddForm Form>
struct Arith {
  static constexpr bool kLazy = Form != AddForm::kInt;

  __device__ static Words bound() {
    if constexpr (kLazy) {
      constexpr Int m = twice_modulus<Params>();
      return split<6>(m.v);
    } else {
      return ff::mont32::modulus_words<Params, 6>();
    }
  }
  __device__ static Int add(const Int& a, const Int& b) {
    Int r;
    join<6>(r.v, ff::mont32::add<6>(split<6>(a.v), split<6>(b.v), bound()));
    return r;
  }
  __device__ static Int sub(const Int& a, const Int& b) {
    Int r;
    join<6>(r.v, ff::mont32::sub<6>(split<6>(a.v), split<6>(b.v), bound()));
    return r;
  }
  // kLazy's products run on the pipe the field type's do.
  static constexpr bool kFp64 =
      Form == AddForm::kFp64Lazy || (Form == AddForm::kLazy && ff::fp64::kUseFp64<Params>);

  __device__ static Int mul(const Int& a, const Int& b) {
    if constexpr (kFp64) return mul_fp64_lazy<Params>(a, b);
    if constexpr (Form == AddForm::kInt) return ff::mont32::mul<Params, 6>(a, b);  // reduced, integer pipe
    return mul_int_lazy<Params>(a, b);
  }
  __device__ static Int sqr(const Int& a) {
    if constexpr (kFp64) return sqr_fp64_lazy<Params>(a);
    return mul(a, a);
  }
  __device__ static bool is_zero(const Int& a) {
    if constexpr (kLazy) {
      constexpr Int p = Params::modulus();
      return a.is_zero() || a == p;
    } else {
      return a.is_zero();
    }
  }
  __device__ static Int canonical(const Int& a) {
    if constexpr (!kLazy) return a;
    Int r;
    join<6>(r.v, ff::mont32::reduce_once<6>(split<6>(a.v), ff::mont32::modulus_words<Params, 6>()));
    return r;
  }
};

// An Fp2 = Fp[u]/(u² + 1) element in Form's arithmetic: each coordinate as Arith keeps it (below p, or below
// 2p when lazy). A product is three base products (Karatsuba); the sums fed to them are reduced by the bound
// first, so every factor is below it.
struct Int2 {
  Int c0, c1;
};

template <class Params, AddForm Form>
struct Arith2 {
  using B = Arith<Params, Form>;
  __device__ static Int2 add(const Int2& a, const Int2& b) {
    return {B::add(a.c0, b.c0), B::add(a.c1, b.c1)};
  }
  __device__ static Int2 sub(const Int2& a, const Int2& b) {
    return {B::sub(a.c0, b.c0), B::sub(a.c1, b.c1)};
  }
  __device__ static Int2 mul(const Int2& a, const Int2& b) {
    const Int v0 = B::mul(a.c0, b.c0), v1 = B::mul(a.c1, b.c1);
    const Int s = B::mul(B::add(a.c0, a.c1), B::add(b.c0, b.c1));
    return {B::sub(v0, v1), B::sub(B::sub(s, v0), v1)};
  }
  // (a + bu)² = (a + b)(a − b) + 2ab·u: two base products.
  __device__ static Int2 sqr(const Int2& a) {
    const Int m = B::mul(a.c0, a.c1);
    return {B::mul(B::add(a.c0, a.c1), B::sub(a.c0, a.c1)), B::add(m, m)};
  }
  __device__ static bool is_zero(const Int2& a) { return B::is_zero(a.c0) && B::is_zero(a.c1); }
  __device__ static Int2 canonical(const Int2& a) { return {B::canonical(a.c0), B::canonical(a.c1)}; }
};

}  // namespace lazy

// Form's arithmetic on the group's field F, and the conversions between F and the form's elements.
template <class F>
concept ExtensionField = requires {
  typename F::Base;
};

template <class F, AddForm Form, bool kExtension = ExtensionField<F>>
struct FormOps;

template <class F, AddForm Form>
struct FormOps<F, Form, false> : lazy::Arith<typename F::params, Form> {
  using Elem = lazy::Int;
  __device__ static Elem of(const F& a) { return a.raw(); }
  __device__ static F field(const Elem& a) { return F::from_raw(FormOps::canonical(a)); }
};

template <class F, AddForm Form>
struct FormOps<F, Form, true> : lazy::Arith2<typename F::Base::params, Form> {
  using Elem = lazy::Int2;
  __device__ static Elem of(const F& a) { return {a.c0.raw(), a.c1.raw()}; }
  __device__ static F field(const Elem& a) {
    const Elem r = FormOps::canonical(a);
    return {F::Base::from_raw(r.c0), F::Base::from_raw(r.c1)};
  }
};

// A bucket's XYZZ accumulator in Form's arithmetic: madd-2008-s, as ec::XYZZ::add_affine.
template <class C, AddForm Form>
struct FormBucket {
  using F = typename C::F;
  using Ops = FormOps<F, Form>;
  using E = typename Ops::Elem;
  E X, Y, ZZ, ZZZ;

  __device__ static FormBucket from(const Xyzz<C>& p) {
    return {Ops::of(p.X), Ops::of(p.Y), Ops::of(p.ZZ), Ops::of(p.ZZZ)};
  }
  __device__ static FormBucket infinity() { return from(Xyzz<C>::infinity()); }
  __device__ Xyzz<C> to_xyzz() const {
    return {Ops::field(X), Ops::field(Y), Ops::field(ZZ), Ops::field(ZZZ)};
  }
  __device__ FormBucket add_affine(const ec::Affine<C>& q) const {
    if (q.is_infinity()) return *this;  // q comes from memory, reduced
    if (Ops::is_zero(ZZ)) return from(Xyzz<C>::from_affine(q));
    const E p = Ops::sub(Ops::mul(Ops::of(q.x), ZZ), X);
    const E r = Ops::sub(Ops::mul(Ops::of(q.y), ZZZ), Y);
    if (Ops::is_zero(p)) return Ops::is_zero(r) ? from(Xyzz<C>::dbl_affine(q)) : infinity();
    const E pp = Ops::sqr(p);
    if constexpr (kIsG2<C>) {
      // G2's kernel sits at the 255-register limit, so its products are ordered for the fewest values live
      // across each called product (six Fp2 elements, against eight in the order below): ZZ and ZZZ are
      // scaled as soon as PP and PPP exist, and Y·PPP is taken before R². ptxas (sm_90): the FP64 product's
      // spill 120 → 40 bytes. G1's kernel keeps the order below: this one, although it spilled less there
      // too (60 → 16 bytes), made the 2^27 G1 MSM 2 % slower on an H100 (828 → 845 ms; bench/RESULTS.md).
      const E zz3 = Ops::mul(ZZ, pp);
      const E ppp = Ops::mul(p, pp);
      const E zzz3 = Ops::mul(ZZZ, ppp);
      const E qq = Ops::mul(X, pp);
      const E yppp = Ops::mul(Y, ppp);
      const E x3 = Ops::sub(Ops::sub(Ops::sqr(r), ppp), Ops::add(qq, qq));
      return {x3, Ops::sub(Ops::mul(r, Ops::sub(qq, x3)), yppp), zz3, zzz3};
    } else {
      const E ppp = Ops::mul(p, pp), qq = Ops::mul(X, pp);
      const E x3 = Ops::sub(Ops::sub(Ops::sqr(r), ppp), Ops::add(qq, qq));
      return {x3, Ops::sub(Ops::mul(r, Ops::sub(qq, x3)), Ops::mul(Y, ppp)), Ops::mul(ZZ, pp),
              Ops::mul(ZZZ, ppp)};
    }
  }
};

// The field type's own addition behind the same interface.
template <class C>
struct FieldBucket {
  Xyzz<C> acc;
  __device__ static FieldBucket infinity() { return {Xyzz<C>::infinity()}; }
  __device__ Xyzz<C> to_xyzz() const { return acc; }
  __device__ FieldBucket add_affine(const ec::Affine<C>& q) const { return {acc.add_affine(q)}; }
};

// G2's lazy form is the FP64 one where that pipe is full rate, and the field type's elsewhere: on the integer
// pipe the lazy Fp2 form measured 1 % slower than the field type's (H100, 2^26: 1,994 against 1,977 ms),
// where on the FP64 pipe it is 18 % faster (1,612 ms). A device-side choice: kFullRateFp64 is per
// architecture.
template <class C, AddForm Form>
using Bucket = std::conditional_t<Form == AddForm::kField ||
                                      (kIsG2<C> && Form == AddForm::kLazy && !ff::fp64::kFullRateFp64),
                                  FieldBucket<C>, FormBucket<C, Form>>;

}  // namespace cuzk::msm::gpu
