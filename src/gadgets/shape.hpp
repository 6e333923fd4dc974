// What a circuit's synthesis produces apart from its values and its matrices: the counts and the density
// bitmaps bellperson's prover derives (groth16/prover/mod.rs ProvingAssignment): a_aux (aux variables in some
// A row), b_input and b_aux (inputs and aux variables in some B row), each set only for a term whose
// coefficient is not zero (lc.rs eval_with_trackers). Shape and record mode both keep one.
#pragma once

#include <cstdint>

#include "gadgets/bitmap.hpp"
#include "gadgets/linear_combination.hpp"

namespace cuzk::gadgets {

struct Shape {
  std::uint64_t inputs = 1;  // ONE
  std::uint64_t aux = 0;
  std::uint64_t constraints = 0;  // synthesized; the prover adds one per input
  std::uint64_t nnz_a = 0, nnz_b = 0, nnz_c = 0;
  Bitmap a_aux, b_input, b_aux;

  Shape() { b_input.push_back_zero(); }

  // As bellperson's prover counts them: a row `input · 1 = 0` per input follows the circuit's (A only).
  std::uint64_t prover_constraints() const { return constraints + inputs; }
  std::uint64_t prover_nnz_a() const { return nnz_a + inputs; }

  void on_alloc_aux() {
    ++aux;
    a_aux.push_back_zero();
    b_aux.push_back_zero();
  }
  void on_alloc_input() {
    ++inputs;
    b_input.push_back_zero();
  }
  void on_enforce(const LinearCombination& a, const LinearCombination& b, const LinearCombination& c) {
    ++constraints;
    nnz_a += a.size();
    nnz_b += b.size();
    nnz_c += c.size();
    for (const Term& t : a.aux())
      if (!t.coeff.is_zero()) a_aux.set(t.index);
    for (const Term& t : b.inputs())
      if (!t.coeff.is_zero()) b_input.set(t.index);
    for (const Term& t : b.aux())
      if (!t.coeff.is_zero()) b_aux.set(t.index);
  }
};

}  // namespace cuzk::gadgets
