// A synthetic circuit shaped like one Filecoin 32 GiB PoRep partition (issue 6), scaled by the FFT domain
// 2^K: at K = 27, 130,278,869 constraints and 328 public inputs as in the real circuit; per row about 2.4
// non-zeros in A, 1 in B and 2.2 in C; a witness of mostly 0/1 values (SHA-256-style booleans) with
// some dense field elements. Deterministic from the seed; several witnesses for the same matrices.
//
// Construction (every witness satisfies it by construction, evaluated in row order):
//   - boolean variables b, each with the booleanity row  b · (b − 1) = 0;
//   - dense free variables (no row of their own: they enter other rows);
//   - derived variables d, each defined by one gate row over earlier variables: XOR (2x)·y = x + y − d and
//     AND x·y = d of booleans (boolean d), an 8-bit sum (Σ 2^i x_i)·1 = d + e + e2, and a dense gate
//     (dense + x)·y = d + e + e2 (dense d); A-side operands are taken first from outputs not yet used;
//   - one row per public input, binding it to a derived value:  d · 1 = public.
#pragma once

#include <cstdint>
#include <vector>

#include "r1cs/csr.hpp"

namespace cuzk::r1cs {

struct PorepShape {
  std::uint64_t constraints = 0, publics = 0, booleans = 0, dense = 0, derived = 0;
};

// The sizes for domain 2^K (K in 10..27); constraints + publics + 1 fit the domain (snarkjs adds one
// row per public input and one for ONE).
PorepShape porep_shape(unsigned log_domain);

template <class Fr>
struct PorepLike {
  CsrSystem<Fr> system;
  std::vector<std::vector<Fr>> witnesses;  // each satisfies the system
};

template <class Fr>
PorepLike<Fr> porep_like(unsigned log_domain, std::uint64_t seed, std::size_t witnesses = 1);

}  // namespace cuzk::r1cs
