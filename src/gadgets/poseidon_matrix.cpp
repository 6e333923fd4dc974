#include "gadgets/poseidon_matrix.hpp"

#include <stdexcept>
#include <utility>

namespace cuzk::gadgets::matrix {

FrMatrix identity(std::size_t n) {
  FrMatrix m(n, std::vector<Fr>(n, Fr::zero()));
  for (std::size_t i = 0; i < n; ++i) m[i][i] = Fr::one();
  return m;
}

FrMatrix multiply(const FrMatrix& a, const FrMatrix& b) {
  if (a.empty() || a[0].size() != b.size()) throw std::invalid_argument("matrix::multiply: shapes differ");
  const std::size_t rows = a.size(), inner = b.size(), cols = b[0].size();
  FrMatrix r(rows, std::vector<Fr>(cols, Fr::zero()));
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t k = 0; k < inner; ++k) {
      const Fr aik = a[i][k];
      for (std::size_t j = 0; j < cols; ++j) r[i][j] += aik * b[k][j];
    }
  return r;
}

std::vector<Fr> row_times(std::span<const Fr> v, const FrMatrix& m) {
  if (m.size() != v.size()) throw std::invalid_argument("matrix::row_times: shapes differ");
  std::vector<Fr> r(m.empty() ? 0 : m[0].size(), Fr::zero());
  for (std::size_t i = 0; i < m.size(); ++i)
    for (std::size_t j = 0; j < r.size(); ++j) r[j] += m[i][j] * v[i];
  return r;
}

FrMatrix minor(const FrMatrix& m, std::size_t i, std::size_t j) {
  FrMatrix r;
  r.reserve(m.size() - 1);
  for (std::size_t row = 0; row < m.size(); ++row) {
    if (row == i) continue;
    std::vector<Fr> out;
    out.reserve(m[row].size() - 1);
    for (std::size_t col = 0; col < m[row].size(); ++col)
      if (col != j) out.push_back(m[row][col]);
    r.push_back(std::move(out));
  }
  return r;
}

FrMatrix inverse(const FrMatrix& m) {
  const std::size_t n = m.size();
  for (const auto& row : m)
    if (row.size() != n) throw std::invalid_argument("matrix::inverse: not square");
  FrMatrix a = m, inv = identity(n);
  for (std::size_t col = 0; col < n; ++col) {
    std::size_t pivot = col;
    while (pivot < n && a[pivot][col].is_zero()) ++pivot;
    if (pivot == n) throw std::domain_error("matrix::inverse: singular matrix");
    std::swap(a[pivot], a[col]);
    std::swap(inv[pivot], inv[col]);
    const Fr scale = a[col][col].inverse();
    for (std::size_t j = 0; j < n; ++j) {
      a[col][j] *= scale;
      inv[col][j] *= scale;
    }
    for (std::size_t row = 0; row < n; ++row) {
      if (row == col || a[row][col].is_zero()) continue;
      const Fr factor = a[row][col];
      for (std::size_t j = 0; j < n; ++j) {
        a[row][j] -= factor * a[col][j];
        inv[row][j] -= factor * inv[col][j];
      }
    }
  }
  return inv;
}

bool is_identity(const FrMatrix& m) {
  for (std::size_t i = 0; i < m.size(); ++i) {
    if (m[i].size() != m.size()) return false;
    for (std::size_t j = 0; j < m.size(); ++j)
      if (m[i][j] != (i == j ? Fr::one() : Fr::zero())) return false;
  }
  return true;
}

}  // namespace cuzk::gadgets::matrix
