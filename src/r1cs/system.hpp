// A rank-1 constraint system ⟨A_i, w⟩·⟨B_i, w⟩ = ⟨C_i, w⟩ as read from a circom .r1cs file.
#pragma once

#include <cstdint>
#include <vector>

namespace cuzk::r1cs {

template <class Curve>
struct Term {
  std::uint32_t wire;
  typename Curve::Fr coeff;
};

template <class Curve>
using LinearCombination = std::vector<Term<Curve>>;

template <class Curve>
struct Constraint {
  LinearCombination<Curve> a, b, c;
};

template <class Curve>
struct ConstraintSystem {
  std::uint32_t n_wires = 0, n_pub_out = 0, n_pub_in = 0, n_prv_in = 0;
  std::uint64_t n_labels = 0;
  std::vector<Constraint<Curve>> constraints;

  std::uint32_t n_public() const { return n_pub_out + n_pub_in; }
};

}  // namespace cuzk::r1cs
