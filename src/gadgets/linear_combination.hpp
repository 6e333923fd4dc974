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

// Whether a combination computes its coefficients. Shape mode needs only which variables each row has
// (counts, densities): its combinations skip every product and sum of coefficients (a MultiEq row scales
// hundreds of terms by a power of two), and count each term as non-zero. Record mode keeps them, and tests
// check that both modes give the same counts (no term of Filecoin's circuits cancels).
enum class Coefficients : bool { kKept, kIgnored };

class LinearCombination {
 public:
  LinearCombination() = default;
  explicit LinearCombination(Coefficients c) : ignored_(c == Coefficients::kIgnored) {}
  explicit LinearCombination(Variable v, const Fr& coeff = kFrOne) { add(v, coeff); }

  bool keeps_coefficients() const { return !ignored_; }

  // lc + (coeff, v)
  LinearCombination& add(Variable v, const Fr& coeff = kFrOne) {
    append(v.is_input() ? inputs_ : aux_, {v.index(), ignored_ ? kFrOne : coeff});
    return *this;
  }
  // lc - (coeff, v)
  LinearCombination& sub(Variable v) { return add(v, kFrMinusOne); }
  LinearCombination& sub(Variable v, const Fr& coeff) { return add(v, ignored_ ? kFrOne : -coeff); }
  // lc + &other
  LinearCombination& add(const LinearCombination& o) {
    for (const Term& t : o.inputs_) append(inputs_, t);
    for (const Term& t : o.aux_) append(aux_, t);
    return *this;
  }
  LinearCombination& sub(const LinearCombination& o) {
    if (ignored_) return add(o);
    for (const Term& t : o.inputs_) append(inputs_, {t.index, -t.coeff});
    for (const Term& t : o.aux_) append(aux_, {t.index, -t.coeff});
    return *this;
  }
  // lc + (coeff, &other)
  LinearCombination& add(const Fr& coeff, const LinearCombination& o) {
    if (ignored_) return add(o);
    for (const Term& t : o.inputs_) append(inputs_, {t.index, t.coeff * coeff});
    for (const Term& t : o.aux_) append(aux_, {t.index, t.coeff * coeff});
    return *this;
  }
  LinearCombination& sub(const Fr& coeff, const LinearCombination& o) {
    if (ignored_) return add(o);
    for (const Term& t : o.inputs_) append(inputs_, {t.index, -(t.coeff * coeff)});
    for (const Term& t : o.aux_) append(aux_, {t.index, -(t.coeff * coeff)});
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
    sorted_ = true;
  }
  // The merged terms, each kind sorted by index (bellpepper's Indexer order).
  std::size_t size() const { return inputs().size() + aux().size(); }
  bool empty() const { return inputs_.empty() && aux_.empty(); }
  std::span<const Term> inputs() const {
    normalize();
    return inputs_;
  }
  std::span<const Term> aux() const {
    normalize();
    return aux_;
  }

  // The same sum merged or not.
  Fr eval(std::span<const Fr> input_values, std::span<const Fr> aux_values) const {
    Fr acc = Fr::zero();
    for (const Term& t : inputs_) acc += input_values[t.index] * t.coeff;
    for (const Term& t : aux_) acc += aux_values[t.index] * t.coeff;
    return acc;
  }

 private:
  // Terms are appended as they come and merged when first read: bellpepper inserts each into its sorted place
  // (a shift of the tail per term, quadratic in a MultiEq row's hundreds of terms); sorting once and adding
  // up repeated indices gives the same terms and sums.
  void append(std::vector<Term>& terms, const Term& t) {
    if (!terms.empty() && terms.back().index >= t.index) {
      if (terms.back().index == t.index) {
        if (!ignored_) terms.back().coeff += t.coeff;
        return;
      }
      sorted_ = false;
    }
    terms.push_back(t);
  }
  void normalize() const {
    if (sorted_) return;
    merge(inputs_, ignored_);
    merge(aux_, ignored_);
    sorted_ = true;
  }
  static void merge(std::vector<Term>& terms, bool ignored) {
    auto by_index = [](const Term& a, const Term& b) { return a.index < b.index; };
    if (std::is_sorted(terms.begin(), terms.end(), by_index)) return;
    std::sort(terms.begin(), terms.end(), by_index);  // equal indices are summed: their order is free
    std::size_t out = 0;
    for (std::size_t i = 0; i < terms.size(); ++i) {
      if (out > 0 && terms[out - 1].index == terms[i].index) {
        if (!ignored) terms[out - 1].coeff += terms[i].coeff;
      } else {
        terms[out++] = terms[i];
      }
    }
    terms.resize(out);
  }

  mutable std::vector<Term> inputs_, aux_;
  mutable bool sorted_ = true;
  bool ignored_ = false;
};

// The coefficients a constraint system's combinations keep: every system's but one that declares
// `static constexpr bool kCoefficients = false` (shape mode).
template <class CS>
inline constexpr Coefficients kCoefficientsOf = [] {
  if constexpr (requires { CS::kCoefficients; })
    return CS::kCoefficients ? Coefficients::kKept : Coefficients::kIgnored;
  else
    return Coefficients::kKept;
}();

using LC = LinearCombination;

}  // namespace cuzk::gadgets
