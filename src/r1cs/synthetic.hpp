// Synthetic R1CS circuits built in code, with satisfying witnesses, for tests and benchmarks.
#pragma once

#include <random>
#include <vector>

#include "ff/encoding.hpp"
#include "r1cs/system.hpp"

namespace cuzk::r1cs {

template <class Curve>
struct CircuitWithWitness {
  ConstraintSystem<Curve> cs;
  std::vector<typename Curve::Fr> witness;
};

// mulchain(n): wires [1, out, x, y, s_0 … s_{n-1}]; s_0 = x·y, s_i = s_{i-1}·x + i, out = s_{n-1}.
// Public: out (output) and x (input). Constraints: s_0 = x·y; (s_{i-1})·(x) = s_i - i; out = s_{n-1}.
template <class Curve>
CircuitWithWitness<Curve> mulchain(std::size_t n, std::uint64_t seed = 1) {
  using Fr = typename Curve::Fr;
  std::mt19937_64 rng(seed);
  CircuitWithWitness<Curve> r;
  auto& cs = r.cs;
  cs.n_pub_out = 1;
  cs.n_pub_in = 1;
  cs.n_prv_in = 1;
  cs.n_wires = static_cast<std::uint32_t>(4 + n);
  cs.n_labels = cs.n_wires;
  const std::uint32_t ONE = 0, OUT = 1, X = 2, Y = 3, S0 = 4;
  Fr x = ff::random_element<Fr>(rng), y = ff::random_element<Fr>(rng);
  std::vector<Fr> s(n);
  s[0] = x * y;
  cs.constraints.push_back({{{X, Fr::one()}}, {{Y, Fr::one()}}, {{S0, Fr::one()}}});
  for (std::size_t i = 1; i < n; ++i) {
    s[i] = s[i - 1] * x + Fr::from_u64(i);
    auto si = static_cast<std::uint32_t>(S0 + i), sp = static_cast<std::uint32_t>(S0 + i - 1);
    cs.constraints.push_back(
        {{{sp, Fr::one()}}, {{X, Fr::one()}}, {{si, Fr::one()}, {ONE, -Fr::from_u64(i)}}});
  }
  auto last = static_cast<std::uint32_t>(S0 + n - 1);
  cs.constraints.push_back({{{last, Fr::one()}}, {{ONE, Fr::one()}}, {{OUT, Fr::one()}}});
  r.witness = {Fr::one(), s[n - 1], x, y};
  r.witness.insert(r.witness.end(), s.begin(), s.end());
  return r;
}

// mulchain(m) plus k boolean wires b_j (constraints b_j·b_j = b_j), about half of them 1: a witness
// with the 0/1 values that dominate real circuits, for the split MSMs (batch-add the ones, skip zeros).
template <class Curve>
CircuitWithWitness<Curve> with_booleans(std::size_t m, std::size_t k, std::uint64_t seed = 1) {
  using Fr = typename Curve::Fr;
  CircuitWithWitness<Curve> r = mulchain<Curve>(m, seed);
  std::mt19937_64 rng(seed + 1);
  for (std::size_t j = 0; j < k; ++j) {
    const auto wire = static_cast<std::uint32_t>(r.cs.n_wires++);
    r.cs.constraints.push_back({{{wire, Fr::one()}}, {{wire, Fr::one()}}, {{wire, Fr::one()}}});
    r.witness.push_back(rng() & 1 ? Fr::one() : Fr::zero());
  }
  r.cs.n_labels = r.cs.n_wires;
  return r;
}

// True when every constraint holds for w.
template <class Curve>
bool satisfied(const ConstraintSystem<Curve>& cs, const std::vector<typename Curve::Fr>& w) {
  using Fr = typename Curve::Fr;
  auto eval = [&](const LinearCombination<Curve>& lc) {
    Fr acc = Fr::zero();
    for (const auto& t : lc) acc += t.coeff * w[t.wire];
    return acc;
  };
  for (const auto& c : cs.constraints)
    if (eval(c.a) * eval(c.b) != eval(c.c)) return false;
  return true;
}

}  // namespace cuzk::r1cs
