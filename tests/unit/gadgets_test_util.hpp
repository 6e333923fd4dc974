// Shared by the gadget tests: run one circuit in every constraint-system mode and check that they agree
// (counts, matrices, density, values), that the recorded rows are satisfied by the witness, and give the
// recorded circuit and the witness back for further checks (row contents, tampering).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "gadgets/constraint_system.hpp"
#include "gadgets/evaluation_slice.hpp"

namespace cuzk::gadgets::testing {

// Whether the gadget ran against a constraint system that carries values (witness mode) rather than one
// that only records shapes.
template <class CS>
bool is_witness(const CS&) {
  return CS::kWitness;
}

struct Recorded {
  PrecompiledCircuit pc;
  std::vector<Fr> inputs, aux;  // the witness (inputs include ONE)

  std::uint64_t rows() const { return pc.shape.constraints; }
  std::uint64_t num_aux() const { return pc.shape.aux; }
  std::uint64_t num_inputs() const { return pc.shape.inputs; }
  // The first row the (possibly tampered) witness does not satisfy.
  std::optional<std::size_t> first_unsatisfied() const {
    return first_unsatisfied_row(pc.system, inputs, aux);
  }
  // The witness column of a variable.
  std::uint32_t column(Variable v) const {
    return v.is_input() ? v.index() : static_cast<std::uint32_t>(pc.shape.inputs) + v.index();
  }
  Fr& value(Variable v) { return v.is_input() ? inputs[v.index()] : aux[v.index()]; }
};

inline void expect_same_matrix(const r1cs::Csr<Fr>& x, const r1cs::Csr<Fr>& y) {
  EXPECT_EQ(x.row_start, y.row_start);
  EXPECT_EQ(x.col, y.col);
  EXPECT_TRUE(x.val == y.val);
}

inline void expect_same_shape(const Shape& x, const Shape& y) {
  EXPECT_EQ(x.inputs, y.inputs);
  EXPECT_EQ(x.aux, y.aux);
  EXPECT_EQ(x.constraints, y.constraints);
  EXPECT_EQ(x.nnz_a, y.nnz_a);
  EXPECT_EQ(x.nnz_b, y.nnz_b);
  EXPECT_EQ(x.nnz_c, y.nnz_c);
  EXPECT_TRUE(x.a_aux == y.a_aux);
  EXPECT_TRUE(x.b_input == y.b_input);
  EXPECT_TRUE(x.b_aux == y.b_aux);
}

// Evaluation mode, what a prover's synthesis runs (EvaluationSlice: combinations evaluated as they are built,
// the bit gadgets' and Poseidon's rows written as computed): the same witness, and each row's a, b, c equal
// to the recorded rows times it.
template <class Circuit>
void expect_evaluation_equals_recorded(Circuit&& circuit, const PrecompiledCircuit& pc,
                                       const std::vector<Fr>& inputs, const std::vector<Fr>& aux) {
  const std::size_t rows = pc.system.a.rows();
  std::vector<Fr> ev_inputs(inputs.size()), ev_aux(aux.size()), a(rows), b(rows), c(rows);
  ev_inputs[0] = Fr::one();
  const VariableValues values{ev_inputs.data(), ev_aux.data()};
  EvaluationScope scope(&values);
  EvaluationSlice ev(WitnessSlice(std::span<Fr>(ev_inputs).subspan(1), 1, ev_aux, 0), a, b, c);
  circuit(ev);
  EXPECT_EQ(ev.rows_written(), rows);
  EXPECT_FALSE(ev.first_unsatisfied().has_value());
  EXPECT_TRUE(ev_inputs == inputs);
  EXPECT_TRUE(ev_aux == aux);
  std::vector<Fr> w = inputs;
  w.insert(w.end(), aux.begin(), aux.end());
  EXPECT_TRUE(a == r1cs::spmv(pc.system.a, w)) << "a";
  EXPECT_TRUE(b == r1cs::spmv(pc.system.b, w)) << "b";
  EXPECT_TRUE(c == r1cs::spmv(pc.system.c, w)) << "c";
}

// `circuit` is a generic callable `(auto& cs)`; it runs in ShapeCS, RecordCS<false>, RecordCS<true>,
// WitnessCS and EvaluationSlice.
template <class Circuit>
Recorded run_all_modes(Circuit&& circuit) {
  ShapeCS shape;
  circuit(shape);
  RecordCS<false> bare;
  circuit(bare);
  RecordCS<true> rec;
  circuit(rec);
  WitnessCS wit;
  circuit(wit);

  expect_same_shape(shape.shape(), bare.shape());
  expect_same_shape(shape.shape(), rec.shape());
  EXPECT_EQ(wit.num_inputs(), shape.num_inputs());
  EXPECT_EQ(wit.num_aux(), shape.num_aux());
  EXPECT_TRUE(std::vector<Fr>(rec.aux_values().begin(), rec.aux_values().end()) ==
              std::vector<Fr>(wit.aux_values().begin(), wit.aux_values().end()));
  EXPECT_TRUE(std::vector<Fr>(rec.input_values().begin(), rec.input_values().end()) ==
              std::vector<Fr>(wit.input_values().begin(), wit.input_values().end()));
  EXPECT_TRUE(rec.is_satisfied());

  Recorded out;
  PrecompiledCircuit bare_pc = std::move(bare).finish();
  out.pc = std::move(rec).finish();
  expect_same_matrix(bare_pc.system.a, out.pc.system.a);
  expect_same_matrix(bare_pc.system.b, out.pc.system.b);
  expect_same_matrix(bare_pc.system.c, out.pc.system.c);
  out.inputs = std::move(wit).take_inputs();
  out.aux = std::move(wit).take_aux();
  EXPECT_FALSE(out.first_unsatisfied());
  expect_evaluation_equals_recorded(circuit, out.pc, out.inputs, out.aux);
  return out;
}

// A row of A, B or C as (column, coefficient) pairs, in stored order.
inline std::vector<std::pair<std::uint32_t, Fr>> row_terms(const r1cs::Csr<Fr>& m, std::size_t r) {
  std::vector<std::pair<std::uint32_t, Fr>> out;
  for (std::uint64_t k = m.row_start[r]; k < m.row_start[r + 1]; ++k) out.emplace_back(m.col[k], m.val[k]);
  return out;
}

inline Fr fr_int(std::int64_t x) {
  return x >= 0 ? Fr::from_u64(x) : -Fr::from_u64(-x);
}

// A row's expected terms, coefficients as small signed integers.
using Terms = std::vector<std::pair<std::uint32_t, Fr>>;
inline Terms terms(std::initializer_list<std::pair<std::uint32_t, std::int64_t>> t) {
  Terms out;
  for (auto [c, v] : t) out.emplace_back(c, fr_int(v));
  return out;
}
inline void expect_row(const Recorded& r, std::size_t row, const Terms& a, const Terms& b, const Terms& c) {
  EXPECT_TRUE(row_terms(r.pc.system.a, row) == a) << "A of row " << row;
  EXPECT_TRUE(row_terms(r.pc.system.b, row) == b) << "B of row " << row;
  EXPECT_TRUE(row_terms(r.pc.system.c, row) == c) << "C of row " << row;
}

// Two recordings of one circuit (in parallel parts and in one run, say): the same matrices.
inline void expect_same_matrices(const PrecompiledCircuit& x, const PrecompiledCircuit& y) {
  EXPECT_EQ(x.system.n_vars, y.system.n_vars);
  EXPECT_EQ(x.system.n_public, y.system.n_public);
  expect_same_matrix(x.system.a, y.system.a);
  expect_same_matrix(x.system.b, y.system.b);
  expect_same_matrix(x.system.c, y.system.c);
}

}  // namespace cuzk::gadgets::testing
