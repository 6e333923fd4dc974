// One circuit description, three ways to run it (bellpepper's ConstraintSystem, without namespaces).
//
// A circuit is a function template over the constraint system `CS`. It calls
//   Variable cs.alloc(value)           an aux variable;  `value` is a callable returning Fr
//   Variable cs.alloc_input(value)     a public input;   ONE (kOne, input 0) exists before the circuit runs
//   void cs.enforce(fa, fb, fc)        a row A·B = C;  fa, fb, fc are callables void(LinearCombination&)
//                                      that add their terms to an empty combination (bellpepper's |lc| lc +
//                                      …)
// and reads `CS::kWitness`: only when it is true are values computed and `value` called; only when it is
// false are the combinations built. Gadgets therefore keep their values next to their variables and compute
// them under `if constexpr (CS::kWitness)`.
//
// The modes:
//   ShapeCS         counts and density bitmaps only (shape.hpp): the combinations are built into three
//                   reused buffers and dropped. StructuralShapeCS does the same without any field
//                   arithmetic (terms only), for circuits in which no term cancels.
//   RecordCS<>      the matrices A, B, C (CSR) and the shape: bellperson's pre-compiled circuit.
//                   RecordCS<true> also keeps the values, so a test can check every row (is_satisfied).
//   WitnessCS       the input and aux assignments only: no combination is ever built (the hot path: a
//   WitnessSlice    32 GiB PoRep partition is 130 M aux values). A slice writes into a window of arrays
//                   sized by a shape run, at the variable numbers the whole circuit gives it, so that
//                   independent parts of one circuit are synthesized in parallel.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "gadgets/linear_combination.hpp"
#include "gadgets/shape.hpp"
#include "gadgets/variable.hpp"
#include "r1cs/csr.hpp"

namespace cuzk::gadgets {

// A circuit's synthesis cannot be carried out (a value is missing or out of range, a size is not one the
// circuit supports): the message says which.
struct SynthesisError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// kIgnored: no field arithmetic at all (linear_combination.hpp, Coefficients); every term counts as
// non-zero, so a term that cancels is counted. StructuralShapeCS is exact only for circuits where no term
// cancels; for Filecoin's PoRep circuit tests show it equal to record mode (and to ShapeCS at 32 GiB).
template <Coefficients kMode>
class BasicShapeCS {
 public:
  static constexpr bool kWitness = false;
  static constexpr bool kRows = true;
  static constexpr bool kCoefficients = kMode == Coefficients::kKept;

  BasicShapeCS() = default;
  // A part of a circuit whose variables start at these numbers (Shape::part).
  BasicShapeCS(std::uint64_t first_input, std::uint64_t first_aux)
      : shape_(Shape::part(first_input, first_aux)) {}

  template <class F>
  Variable alloc(F&&) {
    shape_.on_alloc_aux();
    return Variable::aux(static_cast<std::uint32_t>(shape_.first_aux + shape_.aux - 1));
  }
  template <class F>
  Variable alloc_input(F&&) {
    shape_.on_alloc_input();
    return Variable::input(static_cast<std::uint32_t>(shape_.first_input + shape_.inputs - 1));
  }
  template <class FA, class FB, class FC>
  void enforce(FA&& fa, FB&& fb, FC&& fc) {
    a_.clear(), b_.clear(), c_.clear();
    fa(a_), fb(b_), fc(c_);
    shape_.on_enforce(a_, b_, c_);
  }

  // The part synthesized right after this (a ShapeCS constructed at next_input(), next_aux()).
  void append(const BasicShapeCS& part) { shape_.append(part.shape_); }
  std::uint64_t next_input() const { return shape_.first_input + shape_.inputs; }
  std::uint64_t next_aux() const { return shape_.first_aux + shape_.aux; }

  std::uint64_t num_inputs() const { return shape_.inputs; }
  std::uint64_t num_aux() const { return shape_.aux; }
  std::uint64_t num_constraints() const { return shape_.constraints; }
  const Shape& shape() const { return shape_; }

 private:
  Shape shape_;
  LinearCombination a_{kMode}, b_{kMode}, c_{kMode};
};

using ShapeCS = BasicShapeCS<Coefficients::kKept>;
using StructuralShapeCS = BasicShapeCS<Coefficients::kIgnored>;

// The pre-compiled circuit: the synthesized rows (columns: ONE, the other inputs, then aux, as bellperson
// lays out the witness) and the shape. The prover's `input · 1 = 0` rows are not in `system`: the bellperson
// prover and setup add them (groth16/bellperson.hpp), and with_input_rows() appends them for a reader that
// wants the matrices as the prover sees them.
struct PrecompiledCircuit {
  r1cs::CsrSystem<Fr> system;  // n_vars = inputs + aux, n_public = inputs - 1
  Shape shape;

  r1cs::CsrSystem<Fr> with_input_rows() const;
};

template <bool kValues = false>
class RecordCS {
 public:
  static constexpr bool kWitness = kValues;
  static constexpr bool kRows = true;

  RecordCS() {
    if constexpr (kValues) inputs_.push_back(Fr::one());
  }
  // A part of a circuit whose variables start at these numbers, to be appended to the whole (append()).
  RecordCS(std::uint64_t first_input, std::uint64_t first_aux)
      : shape_(Shape::part(first_input, first_aux)) {}

  template <class F>
  Variable alloc(F&& value) {
    if constexpr (kValues) aux_.push_back(value());
    shape_.on_alloc_aux();
    return Variable::aux(static_cast<std::uint32_t>(shape_.first_aux + shape_.aux - 1));
  }
  template <class F>
  Variable alloc_input(F&& value) {
    if constexpr (kValues) inputs_.push_back(value());
    shape_.on_alloc_input();
    return Variable::input(static_cast<std::uint32_t>(shape_.first_input + shape_.inputs - 1));
  }
  template <class FA, class FB, class FC>
  void enforce(FA&& fa, FB&& fb, FC&& fc) {
    a_.clear(), b_.clear(), c_.clear();
    fa(a_), fb(b_), fc(c_);
    shape_.on_enforce(a_, b_, c_);
    append(a_, m_.a), append(b_, m_.b), append(c_, m_.c);
  }

  // The part synthesized right after this (a RecordCS constructed at next_input(), next_aux()): its rows
  // follow this one's.
  void append(RecordCS&& part);
  // Every part of `parts` (each numbered right after the one before), in order, the matrices' room reserved
  // first: each part is then copied once, instead of the matrices regrowing (and for a moment doubling) at
  // tens of GB.
  template <class Parts>
  void append_all(Parts& parts) {
    std::uint64_t rows = 0, a = 0, b = 0, c = 0;
    for (const RecordCS& part : parts)
      rows += part.shape_.constraints, a += part.shape_.nnz_a, b += part.shape_.nnz_b, c += part.shape_.nnz_c;
    for (auto [m, n] : {std::pair{&m_.a, a}, std::pair{&m_.b, b}, std::pair{&m_.c, c}}) {
      m->row_start.reserve(m->row_start.size() + rows);
      m->col.reserve(m->col.size() + n);
      m->val.reserve(m->val.size() + n);
    }
    for (RecordCS& part : parts) append(std::move(part));
  }
  std::uint64_t next_input() const { return shape_.first_input + shape_.inputs; }
  std::uint64_t next_aux() const { return shape_.first_aux + shape_.aux; }

  std::uint64_t num_inputs() const { return shape_.inputs; }
  std::uint64_t num_aux() const { return shape_.aux; }
  std::uint64_t num_constraints() const { return shape_.constraints; }
  const Shape& shape() const { return shape_; }
  std::span<const Fr> input_values() const requires kValues { return inputs_; }
  std::span<const Fr> aux_values() const requires kValues { return aux_; }

  // The first row A·w ∘ B·w ≠ C·w, if any (rows in synthesis order).
  std::optional<std::size_t> first_unsatisfied() const requires kValues;
  bool is_satisfied() const requires kValues { return !first_unsatisfied(); }

  // Remaps the columns now that the input count is final; the recorder is left empty.
  PrecompiledCircuit finish() &&;

 private:
  // Columns as raw variable numbers (the input bit set for inputs) until finish(); a term that cancelled to
  // zero is not stored (it adds nothing to the row, and the prover's densities skip it).
  static void append(const LinearCombination& lc, r1cs::Csr<Fr>& m) {
    for (const Term& t : lc.inputs())
      if (!t.coeff.is_zero()) m.add(Variable::input(t.index).raw(), t.coeff);
    for (const Term& t : lc.aux())
      if (!t.coeff.is_zero()) m.add(Variable::aux(t.index).raw(), t.coeff);
    m.end_row();
  }
  Fr value_of(std::uint32_t raw) const requires kValues {
    return (raw & Variable::kInputBit) ? inputs_[raw & ~Variable::kInputBit] : aux_[raw];
  }
  static void append_rows(r1cs::Csr<Fr>& to, r1cs::Csr<Fr>&& from) {
    const std::uint64_t base = to.col.size();
    to.col.insert(to.col.end(), from.col.begin(), from.col.end());
    to.val.insert(to.val.end(), from.val.begin(), from.val.end());
    for (std::size_t r = 1; r < from.row_start.size(); ++r) to.row_start.push_back(base + from.row_start[r]);
    from = {};
  }

  Shape shape_;
  LinearCombination a_, b_, c_;
  struct {
    r1cs::Csr<Fr> a, b, c;
  } m_;
  std::vector<Fr> inputs_, aux_;
};

// The assignments of a whole circuit (ONE first), or of a part of one whose variables start at given
// numbers, grown as it allocates.
class WitnessCS {
 public:
  static constexpr bool kWitness = true;
  static constexpr bool kRows = false;

  WitnessCS() { inputs_.push_back(Fr::one()); }
  WitnessCS(std::uint64_t first_input, std::uint64_t first_aux)
      : first_input_(first_input), first_aux_(first_aux) {}
  // Room for a circuit whose sizes a shape run gave: no reallocation on the way.
  void reserve(std::size_t inputs, std::size_t aux) {
    inputs_.reserve(inputs);
    aux_.reserve(aux);
  }

  template <class F>
  Variable alloc(F&& value) {
    aux_.push_back(value());
    return Variable::aux(static_cast<std::uint32_t>(first_aux_ + aux_.size() - 1));
  }
  template <class F>
  Variable alloc_input(F&& value) {
    inputs_.push_back(value());
    return Variable::input(static_cast<std::uint32_t>(first_input_ + inputs_.size() - 1));
  }
  template <class FA, class FB, class FC>
  void enforce(FA&&, FB&&, FC&&) {}

  std::uint64_t first_input() const { return first_input_; }
  std::uint64_t first_aux() const { return first_aux_; }
  std::uint64_t next_input() const { return first_input_ + inputs_.size(); }
  std::uint64_t next_aux() const { return first_aux_ + aux_.size(); }
  std::uint64_t num_inputs() const { return inputs_.size(); }
  std::uint64_t num_aux() const { return aux_.size(); }
  std::span<const Fr> input_values() const { return inputs_; }
  std::span<const Fr> aux_values() const { return aux_; }
  std::vector<Fr> take_inputs() && { return std::move(inputs_); }
  std::vector<Fr> take_aux() && { return std::move(aux_); }

 private:
  std::uint64_t first_input_ = 0, first_aux_ = 0;
  std::vector<Fr> inputs_, aux_;
};

// A window [first, first + capacity) of the input and aux arrays of a whole circuit: the part of it one
// thread synthesizes. Variables are numbered as in the whole circuit, so values allocated before the window
// (a shared replica id, say) are referred to as they are; allocating past the window is a SynthesisError
// (the shape run that sized it disagrees with this run).
class WitnessSlice {
 public:
  static constexpr bool kWitness = true;
  static constexpr bool kRows = false;

  WitnessSlice(std::span<Fr> inputs, std::uint64_t first_input, std::span<Fr> aux, std::uint64_t first_aux)
      : inputs_(inputs), aux_(aux), first_input_(first_input), first_aux_(first_aux) {}

  template <class F>
  Variable alloc(F&& value) {
    if (next_aux_ == aux_.size()) overflow("aux");
    aux_[next_aux_] = value();
    return Variable::aux(static_cast<std::uint32_t>(first_aux_ + next_aux_++));
  }
  template <class F>
  Variable alloc_input(F&& value) {
    if (next_input_ == inputs_.size()) overflow("input");
    inputs_[next_input_] = value();
    return Variable::input(static_cast<std::uint32_t>(first_input_ + next_input_++));
  }
  template <class FA, class FB, class FC>
  void enforce(FA&&, FB&&, FC&&) {}

  std::uint64_t inputs_written() const { return next_input_; }
  std::uint64_t aux_written() const { return next_aux_; }

 private:
  [[noreturn]] void overflow(const char* kind) const {
    throw SynthesisError(std::string("witness slice: more ") + kind +
                         " variables than the circuit's shape gives this part");
  }
  std::span<Fr> inputs_, aux_;
  std::uint64_t first_input_, first_aux_;
  std::uint64_t next_input_ = 0, next_aux_ = 0;
};

// The first row of `system` that w = (inputs ‖ aux) does not satisfy, if any (rows in parallel).
std::optional<std::size_t> first_unsatisfied_row(const r1cs::CsrSystem<Fr>& system,
                                                 std::span<const Fr> inputs, std::span<const Fr> aux);

// --- RecordCS's out-of-line members ---

template <bool kValues>
std::optional<std::size_t> RecordCS<kValues>::first_unsatisfied() const requires kValues {
  auto row_value = [&](const r1cs::Csr<Fr>& m, std::size_t r) {
    Fr acc = Fr::zero();
    for (std::uint64_t k = m.row_start[r]; k < m.row_start[r + 1]; ++k) acc += value_of(m.col[k]) * m.val[k];
    return acc;
  };
  for (std::size_t r = 0; r < m_.a.rows(); ++r)
    if (row_value(m_.a, r) * row_value(m_.b, r) != row_value(m_.c, r)) return r;
  return std::nullopt;
}

template <bool kValues>
void RecordCS<kValues>::append(RecordCS&& part) {
  shape_.append(part.shape_);
  append_rows(m_.a, std::move(part.m_.a));
  append_rows(m_.b, std::move(part.m_.b));
  append_rows(m_.c, std::move(part.m_.c));
  if constexpr (kValues) {
    inputs_.insert(inputs_.end(), part.inputs_.begin(), part.inputs_.end());
    aux_.insert(aux_.end(), part.aux_.begin(), part.aux_.end());
  }
  part = RecordCS(part.next_input(), part.next_aux());
}

template <bool kValues>
PrecompiledCircuit RecordCS<kValues>::finish() && {
  if (shape_.first_input != 0 || shape_.first_aux != 0)
    throw SynthesisError("record: only a whole circuit can be finished, not a part");
  const auto n_inputs = static_cast<std::uint32_t>(shape_.inputs);
  for (r1cs::Csr<Fr>* m : {&m_.a, &m_.b, &m_.c})
    for (std::uint32_t& col : m->col)
      col = (col & Variable::kInputBit) ? (col & ~Variable::kInputBit) : n_inputs + col;
  PrecompiledCircuit out;
  out.system.n_vars = static_cast<std::uint32_t>(shape_.inputs + shape_.aux);
  out.system.n_public = n_inputs - 1;
  out.system.a = std::move(m_.a);
  out.system.b = std::move(m_.b);
  out.system.c = std::move(m_.c);
  out.shape = std::move(shape_);
  m_ = {};
  shape_ = {};
  return out;
}

}  // namespace cuzk::gadgets
