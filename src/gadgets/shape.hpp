// What a circuit's synthesis produces apart from its values and its matrices: the counts and the density
// bitmaps bellperson's prover derives (groth16/prover/mod.rs ProvingAssignment): a_aux (aux variables in some
// A row), b_input and b_aux (inputs and aux variables in some B row), each set only for a term whose
// coefficient is not zero (lc.rs eval_with_trackers). Shape and record mode both keep one.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "gadgets/bitmap.hpp"
#include "gadgets/linear_combination.hpp"

namespace cuzk::gadgets {

// Terms whose coefficient is not zero: what the matrices store (the original daemon's recorder drops a term
// that cancelled, and bellperson's prover skips it).
inline std::uint64_t nonzero_terms(const LinearCombination& lc) {
  if (!lc.keeps_coefficients()) return lc.size();
  std::uint64_t n = 0;
  for (const Term& t : lc.inputs()) n += !t.coeff.is_zero();
  for (const Term& t : lc.aux()) n += !t.coeff.is_zero();
  return n;
}

struct Shape {
  // What this describes: a whole circuit (first_input = first_aux = 0, `inputs` counting ONE), or a part of
  // one synthesized on its own (part()): the variables it allocates are numbered from first_input and
  // first_aux, and the bitmaps cover those; the variables before it that its rows use are listed in outer_*.
  std::uint64_t first_input = 0, first_aux = 0;
  std::uint64_t inputs = 1;  // ONE
  std::uint64_t aux = 0;
  std::uint64_t constraints = 0;  // synthesized; the prover adds one per input
  std::uint64_t nnz_a = 0, nnz_b = 0, nnz_c = 0;
  Bitmap a_aux, b_input, b_aux;  // bit i: variable first_* + i
  std::vector<std::uint32_t> outer_a_aux, outer_b_input, outer_b_aux;

  Shape() { b_input.push_back_zero(); }
  static Shape part(std::uint64_t first_input, std::uint64_t first_aux) {
    Shape s;
    s.first_input = first_input, s.first_aux = first_aux, s.inputs = 0;
    s.b_input = {};
    return s;
  }

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
    nnz_a += nonzero_terms(a);
    nnz_b += nonzero_terms(b);
    nnz_c += nonzero_terms(c);
    mark(a.aux(), a.keeps_coefficients(), first_aux, a_aux, outer_a_aux);
    mark(b.inputs(), b.keeps_coefficients(), first_input, b_input, outer_b_input);
    mark(b.aux(), b.keeps_coefficients(), first_aux, b_aux, outer_b_aux);
  }

  // The part synthesized right after what this describes (part.first_* = this one's next variables).
  void append(const Shape& part);

 private:
  static void mark(std::span<const Term> terms, bool coefficients, std::uint64_t first, Bitmap& bits,
                   std::vector<std::uint32_t>& outer) {
    for (const Term& t : terms) {
      if (coefficients && t.coeff.is_zero()) continue;
      if (t.index >= first)
        bits.set(t.index - first);
      else
        outer.push_back(t.index);
    }
  }
};

}  // namespace cuzk::gadgets
