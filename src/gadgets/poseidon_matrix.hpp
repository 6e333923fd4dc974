// The small dense-matrix algebra over Fr that Poseidon's constant preprocessing needs (matrices of at most
// 37 × 37, built once per process). Matrices are lists of rows.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "gadgets/poseidon_constants.hpp"

namespace cuzk::gadgets::matrix {

FrMatrix identity(std::size_t n);

// The ordinary product a·b.
FrMatrix multiply(const FrMatrix& a, const FrMatrix& b);

// The row vector v times m: result[j] = Σ_i m[i][j]·v[i] (neptune's `apply_matrix`, the product its
// hash uses on the state).
std::vector<Fr> row_times(std::span<const Fr> v, const FrMatrix& m);

// m without row i and column j.
FrMatrix minor(const FrMatrix& m, std::size_t i, std::size_t j);

// The inverse of a square matrix by Gauss-Jordan elimination; throws std::domain_error when singular.
FrMatrix inverse(const FrMatrix& m);

bool is_identity(const FrMatrix& m);

}  // namespace cuzk::gadgets::matrix
