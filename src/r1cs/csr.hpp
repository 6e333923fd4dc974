// Constraint matrices in compressed sparse row form, and a = A·w, b = B·w, c = C·w by sparse
// matrix–vector products on the CPU (oneTBB, rows in parallel). CSR is the form that scales to PoRep-size
// circuits (130 M rows, 720 M non-zeros) where per-constraint term lists would not fit.
#pragma once

#include <tbb/parallel_for.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "r1cs/system.hpp"

namespace cuzk::r1cs {

template <class Fr>
struct Csr {
  std::vector<std::uint64_t> row_start{0};  // rows + 1 entries
  std::vector<std::uint32_t> col;
  std::vector<Fr> val;

  std::size_t rows() const { return row_start.size() - 1; }
  std::size_t nnz() const { return col.size(); }
  void add(std::uint32_t c, const Fr& v) {
    col.push_back(c);
    val.push_back(v);
  }
  void end_row() { row_start.push_back(col.size()); }
};

template <class Fr>
struct CsrSystem {
  std::uint32_t n_vars = 0, n_public = 0;  // n_vars includes ONE (column 0) and the public inputs
  Csr<Fr> a, b, c;
};

// y = M·w, followed by `extra` zeros (room for rows the caller appends: resizing a 4 GB vector after the
// fact copies it). Throws std::invalid_argument when a column is outside w.
template <class Fr>
std::vector<Fr> spmv(const Csr<Fr>& m, const std::vector<Fr>& w, std::size_t extra = 0) {
  std::vector<Fr> y(m.rows() + extra);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, m.rows(), 4096), [&](const auto& range) {
    for (std::size_t r = range.begin(); r != range.end(); ++r) {
      Fr acc = Fr::zero();
      for (std::uint64_t k = m.row_start[r]; k < m.row_start[r + 1]; ++k) {
        if (m.col[k] >= w.size()) throw std::invalid_argument("spmv: column outside the witness");
        acc += m.val[k] * w[m.col[k]];
      }
      y[r] = acc;
    }
  });
  return y;
}

// The same system as per-constraint term lists (for the .r1cs writer and setup at test sizes).
template <class Curve>
ConstraintSystem<Curve> to_constraint_system(const CsrSystem<typename Curve::Fr>& s) {
  ConstraintSystem<Curve> cs;
  cs.n_wires = s.n_vars;
  cs.n_pub_out = s.n_public;
  cs.n_labels = s.n_vars;
  cs.constraints.resize(s.a.rows());
  auto lc = [](const Csr<typename Curve::Fr>& m, std::size_t r) {
    LinearCombination<Curve> out;
    for (std::uint64_t k = m.row_start[r]; k < m.row_start[r + 1]; ++k) out.push_back({m.col[k], m.val[k]});
    return out;
  };
  for (std::size_t r = 0; r < s.a.rows(); ++r) cs.constraints[r] = {lc(s.a, r), lc(s.b, r), lc(s.c, r)};
  return cs;
}

// And back: term lists as matrices (setup works on matrices).
template <class Curve>
CsrSystem<typename Curve::Fr> to_csr(const ConstraintSystem<Curve>& cs) {
  CsrSystem<typename Curve::Fr> s;
  s.n_vars = cs.n_wires;
  s.n_public = cs.n_public();
  for (const auto& con : cs.constraints)
    for (auto [lc, m] : {std::pair{&con.a, &s.a}, std::pair{&con.b, &s.b}, std::pair{&con.c, &s.c}}) {
      for (const auto& t : *lc) m->add(t.wire, t.coeff);
      m->end_row();
    }
  return s;
}

}  // namespace cuzk::r1cs
