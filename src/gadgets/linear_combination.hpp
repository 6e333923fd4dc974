// bellpepper-core's LinearCombination: Σ coeff·variable with the inputs and the aux variables each kept
// sorted by index, a repeated variable merged into one term by adding its coefficients (lc.rs,
// Indexer::insert_or_update). A coefficient that sums to zero stays as a term, as in bellpepper; the prover's
// density trackers skip it (bellperson lc.rs eval_with_trackers). Term order inside a row never changes a
// proof, but the merging decides the matrices' non-zero counts, which are checked against Filecoin's.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "gadgets/variable.hpp"

namespace cuzk::gadgets {

struct Term {
  std::uint32_t index;  // within its kind (input or aux)
  Fr coeff;
};

class LinearCombination {
 public:
  LinearCombination() = default;
  explicit LinearCombination(Variable v, const Fr& coeff = Fr::one()) { add(v, coeff); }

  // lc + (coeff, v)
  LinearCombination& add(Variable v, const Fr& coeff = Fr::one()) {
    insert_or_update(v.is_input() ? inputs_ : aux_, v.index(), coeff);
    return *this;
  }
  // lc - (coeff, v)
  LinearCombination& sub(Variable v, const Fr& coeff = Fr::one()) { return add(v, -coeff); }
  // lc + &other
  LinearCombination& add(const LinearCombination& o) {
    for (const Term& t : o.inputs_) insert_or_update(inputs_, t.index, t.coeff);
    for (const Term& t : o.aux_) insert_or_update(aux_, t.index, t.coeff);
    return *this;
  }
  LinearCombination& sub(const LinearCombination& o) {
    for (const Term& t : o.inputs_) insert_or_update(inputs_, t.index, -t.coeff);
    for (const Term& t : o.aux_) insert_or_update(aux_, t.index, -t.coeff);
    return *this;
  }
  // lc + (coeff, &other)
  LinearCombination& add(const Fr& coeff, const LinearCombination& o) {
    for (const Term& t : o.inputs_) insert_or_update(inputs_, t.index, t.coeff * coeff);
    for (const Term& t : o.aux_) insert_or_update(aux_, t.index, t.coeff * coeff);
    return *this;
  }
  LinearCombination& sub(const Fr& coeff, const LinearCombination& o) {
    for (const Term& t : o.inputs_) insert_or_update(inputs_, t.index, -(t.coeff * coeff));
    for (const Term& t : o.aux_) insert_or_update(aux_, t.index, -(t.coeff * coeff));
    return *this;
  }

  LinearCombination& operator+=(Variable v) { return add(v); }
  LinearCombination& operator-=(Variable v) { return sub(v); }
  LinearCombination& operator+=(const LinearCombination& o) { return add(o); }
  LinearCombination& operator-=(const LinearCombination& o) { return sub(o); }

  // Keeps the capacity: the constraint systems reuse three of these for every row.
  void clear() {
    inputs_.clear();
    aux_.clear();
  }
  std::size_t size() const { return inputs_.size() + aux_.size(); }
  bool empty() const { return inputs_.empty() && aux_.empty(); }
  std::span<const Term> inputs() const { return inputs_; }
  std::span<const Term> aux() const { return aux_; }

  Fr eval(std::span<const Fr> input_values, std::span<const Fr> aux_values) const {
    Fr acc = Fr::zero();
    for (const Term& t : inputs_) acc += input_values[t.index] * t.coeff;
    for (const Term& t : aux_) acc += aux_values[t.index] * t.coeff;
    return acc;
  }

 private:
  static void insert_or_update(std::vector<Term>& terms, std::uint32_t index, const Fr& coeff) {
    // Gadgets mostly add variables in increasing order: the common case is an append.
    if (terms.empty() || terms.back().index < index) {
      terms.push_back({index, coeff});
      return;
    }
    auto it = std::lower_bound(terms.begin(), terms.end(), index,
                               [](const Term& t, std::uint32_t i) { return t.index < i; });
    if (it != terms.end() && it->index == index)
      it->coeff += coeff;
    else
      terms.insert(it, {index, coeff});
  }

  std::vector<Term> inputs_, aux_;
};

using LC = LinearCombination;

}  // namespace cuzk::gadgets
