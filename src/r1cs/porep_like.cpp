#include "r1cs/porep_like.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <deque>
#include <random>
#include <stdexcept>

#include "ec/bls12_381.hpp"
#include "ec/bn254.hpp"
#include "ff/random.hpp"

namespace cuzk::r1cs {

PorepShape porep_shape(unsigned log_domain) {
  if (log_domain < 10 || log_domain > 27)
    throw std::invalid_argument("porep-like: log domain must be 10..27");
  const unsigned shift = 27 - log_domain;
  PorepShape s;
  s.constraints = 130278869ull >> shift;
  s.publics = std::max<std::uint64_t>(1, 328ull >> shift);
  const std::uint64_t aux = 130169893ull >> shift;
  s.booleans = aux * 254 / 1000;  // 25.4 % of aux variables appear in B: the booleans
  s.dense = aux / 200;
  s.derived = aux - s.booleans - s.dense;
  return s;
}

namespace {

enum class Kind : std::uint8_t { kXor, kAnd, kSum8, kDense };

// One derived row's structure (values come later, per witness).
struct Gate {
  Kind kind;
  std::uint32_t out, x[8], y, e, e2, dense;
};

}  // namespace

template <class Fr>
PorepLike<Fr> porep_like(unsigned log_domain, std::uint64_t seed, std::size_t witnesses) {
  const PorepShape s = porep_shape(log_domain);
  const std::uint32_t P = static_cast<std::uint32_t>(s.publics);
  const std::uint32_t bool0 = 1 + P, dense0 = bool0 + static_cast<std::uint32_t>(s.booleans),
                      derived0 = dense0 + static_cast<std::uint32_t>(s.dense),
                      n_vars = derived0 + static_cast<std::uint32_t>(s.derived);
  std::mt19937_64 rng(seed);
  auto pick = [&](std::uint32_t lo, std::uint32_t n) { return lo + static_cast<std::uint32_t>(rng() % n); };

  // Gates in definition order. Operands of the A side come first from the outputs nobody has used yet,
  // so nearly every variable appears in A; B operands are free booleans (25.4 % of aux in B).
  std::vector<Gate> gates(s.derived);
  std::deque<std::uint32_t> unused_bool, unused_other;
  std::uint32_t next_dense = 0;
  for (std::uint32_t k = 0; k < s.derived; ++k) {
    Gate& g = gates[k];
    g.out = derived0 + k;
    const unsigned roll = static_cast<unsigned>(rng() % 100);
    g.kind = roll < 40 ? Kind::kXor : roll < 60 ? Kind::kAnd : roll < 85 ? Kind::kSum8 : Kind::kDense;
    auto take = [&](std::deque<std::uint32_t>& q) {
      if (q.empty()) return pick(bool0, static_cast<std::uint32_t>(s.booleans));
      const std::uint32_t v = q.front();
      q.pop_front();
      return v;
    };
    g.y = pick(bool0, static_cast<std::uint32_t>(s.booleans));
    g.e = pick(bool0, static_cast<std::uint32_t>(s.booleans));
    g.e2 = pick(bool0, static_cast<std::uint32_t>(s.booleans));
    switch (g.kind) {
      case Kind::kXor:
      case Kind::kAnd:
        g.x[0] = take(unused_bool);
        unused_bool.push_back(g.out);
        break;
      case Kind::kSum8:
        for (auto& x : g.x) x = !unused_other.empty() ? take(unused_other) : take(unused_bool);
        unused_other.push_back(g.out);
        break;
      case Kind::kDense:
        g.dense = s.dense ? dense0 + (next_dense++ % static_cast<std::uint32_t>(s.dense)) : bool0;
        g.x[0] = take(unused_other);
        unused_other.push_back(g.out);
        break;
    }
  }

  // Rows that repeat earlier gates (the real circuit has more rows than aux variables), drawn now, in the
  // same order of draws, so that the matrices are sized once: grown entry by entry, their reallocations and
  // page faults took a third of the generation.
  std::vector<std::uint32_t> repeats;
  const std::uint64_t base_rows = s.booleans + gates.size() + P;
  for (std::uint64_t r = base_rows; r < s.constraints && !gates.empty(); ++r)
    repeats.push_back(static_cast<std::uint32_t>(rng() % gates.size()));
  struct Entries {
    std::uint64_t a = 0, b = 0, c = 0;
  };
  auto entries_of = [](Kind k) -> Entries {
    switch (k) {
      case Kind::kXor:
        return {1, 1, 3};
      case Kind::kAnd:
        return {1, 1, 1};
      case Kind::kSum8:
        return {8, 1, 3};
      case Kind::kDense:
        return {2, 1, 3};
    }
    return {};
  };
  Entries total{s.booleans + P, s.booleans + P, s.booleans + P};  // b·b = b and d·1 = public: one each
  auto count = [&](const Gate& g) {
    const Entries e = entries_of(g.kind);
    total.a += e.a, total.b += e.b, total.c += e.c;
  };
  for (const Gate& g : gates) count(g);
  for (std::uint32_t k : repeats) count(gates[k]);

  PorepLike<Fr> out;
  auto& sys = out.system;
  sys.n_vars = n_vars;
  sys.n_public = P;
  const std::size_t rows = base_rows + repeats.size();
  for (auto [m, n] : {std::pair{&sys.a, total.a}, std::pair{&sys.b, total.b}, std::pair{&sys.c, total.c}}) {
    m->row_start.reserve(rows + 1);
    m->col.reserve(n);
    m->val.reserve(n);
  }
  const Fr one = Fr::one(), two = Fr::from_u64(2), minus_one = -Fr::one();
  std::array<Fr, 8> pow2;
  for (unsigned i = 0; i < 8; ++i) pow2[i] = Fr::from_u64(1u << i);
  auto row = [&](auto&& fill_a, auto&& fill_b, auto&& fill_c) {
    fill_a(sys.a), fill_b(sys.b), fill_c(sys.c);
    sys.a.end_row(), sys.b.end_row(), sys.c.end_row();
  };
  for (std::uint32_t b = bool0; b < dense0; ++b)  // b·b = b
    row([&](Csr<Fr>& m) { m.add(b, one); }, [&](Csr<Fr>& m) { m.add(b, one); },
        [&](Csr<Fr>& m) { m.add(b, one); });
  auto gate_row = [&](const Gate& g) {
    switch (g.kind) {
      case Kind::kXor:  // (2x)·y = x + y − d
        row([&](Csr<Fr>& m) { m.add(g.x[0], two); }, [&](Csr<Fr>& m) { m.add(g.y, one); },
            [&](Csr<Fr>& m) {
              m.add(g.x[0], one);
              m.add(g.y, one);
              m.add(g.out, minus_one);
            });
        break;
      case Kind::kAnd:  // x·y = d
        row([&](Csr<Fr>& m) { m.add(g.x[0], one); }, [&](Csr<Fr>& m) { m.add(g.y, one); },
            [&](Csr<Fr>& m) { m.add(g.out, one); });
        break;
      case Kind::kSum8:  // (Σ 2^i x_i)·1 = d + e + e2
        row(
            [&](Csr<Fr>& m) {
              for (unsigned i = 0; i < 8; ++i) m.add(g.x[i], pow2[i]);
            },
            [&](Csr<Fr>& m) { m.add(0, one); },
            [&](Csr<Fr>& m) {
              m.add(g.out, one);
              m.add(g.e, one);
              m.add(g.e2, one);
            });
        break;
      case Kind::kDense:  // (dense + x)·y = d + e + e2
        row(
            [&](Csr<Fr>& m) {
              m.add(g.dense, one);
              m.add(g.x[0], one);
            },
            [&](Csr<Fr>& m) { m.add(g.y, one); },
            [&](Csr<Fr>& m) {
              m.add(g.out, one);
              m.add(g.e, one);
              m.add(g.e2, one);
            });
        break;
    }
  };
  for (const Gate& g : gates) gate_row(g);
  for (std::uint32_t p = 0; p < P; ++p)  // public p = the p-th last derived value: d·1 = public
    row([&](Csr<Fr>& m) { m.add(n_vars - 1 - p, one); }, [&](Csr<Fr>& m) { m.add(0, one); },
        [&](Csr<Fr>& m) { m.add(1 + p, one); });
  for (std::uint32_t k : repeats) gate_row(gates[k]);

  // Witnesses are independent: made in parallel (each one's gates run in order, as they depend on each
  // other).
  out.witnesses.resize(witnesses);
  tbb::parallel_for(std::size_t(0), witnesses, [&](std::size_t wi) {
    std::mt19937_64 vr(seed * 7919 + 1000 + wi);
    std::vector<Fr> w(n_vars, Fr::zero());
    w[0] = one;
    for (std::uint32_t b = bool0; b < dense0; ++b) w[b] = vr() & 1 ? one : Fr::zero();
    for (std::uint32_t d = dense0; d < derived0; ++d) w[d] = ff::random_element<Fr>(vr);
    // The gates run in order (each may use the one before's output), and their other operands are random
    // booleans: a cache miss each at PoRep scale (a 4 GB witness), so they are prefetched a few gates ahead.
    constexpr std::size_t kAhead = 48;
    for (std::size_t k = 0; k < gates.size(); ++k) {
      if (k + kAhead < gates.size()) {
        const Gate& next = gates[k + kAhead];
        for (std::uint32_t v : {next.y, next.e, next.e2, next.x[0]}) __builtin_prefetch(&w[v]);
        if (next.kind == Kind::kSum8)
          for (unsigned i = 1; i < 8; ++i) __builtin_prefetch(&w[next.x[i]]);
        if (next.kind == Kind::kDense) __builtin_prefetch(&w[next.dense]);
      }
      const Gate& g = gates[k];
      switch (g.kind) {
        case Kind::kXor:
          w[g.out] = w[g.x[0]] + w[g.y] - two * w[g.x[0]] * w[g.y];
          break;
        case Kind::kAnd:
          w[g.out] = w[g.x[0]] * w[g.y];
          break;
        case Kind::kSum8: {
          Fr acc = Fr::zero();
          for (unsigned i = 0; i < 8; ++i) acc += pow2[i] * w[g.x[i]];
          w[g.out] = acc - w[g.e] - w[g.e2];
          break;
        }
        case Kind::kDense:
          w[g.out] = (w[g.dense] + w[g.x[0]]) * w[g.y] - w[g.e] - w[g.e2];
          break;
      }
    }
    for (std::uint32_t p = 0; p < P; ++p) w[1 + p] = w[n_vars - 1 - p];
    out.witnesses[wi] = std::move(w);
  });
  return out;
}

template PorepLike<Bn254::Fr> porep_like<Bn254::Fr>(unsigned, std::uint64_t, std::size_t);
template PorepLike<Bls12_381::Fr> porep_like<Bls12_381::Fr>(unsigned, std::uint64_t, std::size_t);

}  // namespace cuzk::r1cs
