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

// x·y without the product where a factor is 0 or 1: most values a circuit's combinations scale are bits
// (SHA-256's packed sums, MultiEq and addmany, weigh hundreds of bits by powers of two), and so are most
// rows' a and b (booleanity, bit rows). What an evaluated combination and a row check compute.
inline Fr bit_aware_product(const Fr& x, const Fr& y) {
  if (x.is_zero() || y.is_zero()) return Fr::zero();
  if (x.is_one()) return y;
  if (y.is_one()) return x;
  return x * y;
}

struct Term {
  std::uint32_t index;  // within its kind (input or aux)
  Fr coeff;
};

// Whether a combination computes its coefficients. Shape mode needs only which variables each row has
// (counts, densities): its combinations skip every product and sum of coefficients (a MultiEq row scales
// hundreds of terms by a power of two), and count each term as non-zero. Record mode keeps them, and tests
// check that both modes give the same counts (no term of Filecoin's circuits cancels).
enum class Coefficients : bool { kKept, kIgnored };

// The values of every variable of a circuit, by the whole circuit's numbering (ONE is input 0): what an
// evaluated combination reads.
struct VariableValues {
  const Fr* inputs = nullptr;
  const Fr* aux = nullptr;
  const Fr& operator()(Variable v) const { return v.is_input() ? inputs[v.index()] : aux[v.index()]; }
};

// While one of these lives on a thread, every combination constructed on that thread is *evaluated*: instead
// of its terms it keeps only its value, Σ coeff·value(variable), over `values`. That is how a circuit's a, b
// and c (each row's A·w, B·w, C·w) are computed while its witness is (EvaluationSlice,
// constraint_system.hpp): the gadgets' combinations, MultiEq's packed sums and Num's running combination
// included, are the same code in every mode, and become sums of field elements here, with no term stored.
// Scopes nest (the previous one comes back when a scope ends), so a task that another waits for on the same
// thread keeps its own.
class EvaluationScope {
 public:
  explicit EvaluationScope(const VariableValues* values) : previous_(current_) { current_ = values; }
  ~EvaluationScope() { current_ = previous_; }
  EvaluationScope(const EvaluationScope&) = delete;
  EvaluationScope& operator=(const EvaluationScope&) = delete;
  static const VariableValues* current() { return current_; }

 private:
  const VariableValues* previous_;
  static inline thread_local const VariableValues* current_ = nullptr;
};

class LinearCombination {
 public:
  LinearCombination() = default;
  explicit LinearCombination(Coefficients c) : ignored_(c == Coefficients::kIgnored) {}
  explicit LinearCombination(Variable v, const Fr& coeff = kFrOne) { add(v, coeff); }

  bool keeps_coefficients() const { return !ignored_; }
  // Constructed under an EvaluationScope: value() is the sum, and there are no terms.
  bool evaluated() const { return values_ != nullptr; }
  const Fr& value() const { return sum_; }

  // lc + (coeff, v)
  LinearCombination& add(Variable v, const Fr& coeff = kFrOne) {
    if (values_) return accumulate((*values_)(v), coeff);
    append(v.is_input() ? inputs_ : aux_, {v.index(), ignored_ ? kFrOne : coeff});
    return *this;
  }
  // lc - (coeff, v)
  LinearCombination& sub(Variable v) { return add(v, kFrMinusOne); }
  LinearCombination& sub(Variable v, const Fr& coeff) {
    if (values_) {
      sum_ -= bit_aware_product((*values_)(v), coeff);
      return *this;
    }
    return add(v, ignored_ ? kFrOne : -coeff);
  }
  // lc + &other
  LinearCombination& add(const LinearCombination& o) {
    if (values_) {
      sum_ += o.sum_;
      return *this;
    }
    for (const Term& t : o.inputs_) append(inputs_, t);
    for (const Term& t : o.aux_) append(aux_, t);
    return *this;
  }
  LinearCombination& sub(const LinearCombination& o) {
    if (values_) {
      sum_ -= o.sum_;
      return *this;
    }
    if (ignored_) return add(o);
    for (const Term& t : o.inputs_) append(inputs_, {t.index, -t.coeff});
    for (const Term& t : o.aux_) append(aux_, {t.index, -t.coeff});
    return *this;
  }
  // lc + (coeff, &other)
  LinearCombination& add(const Fr& coeff, const LinearCombination& o) {
    if (values_) return accumulate(o.sum_, coeff);
    if (ignored_) return add(o);
    for (const Term& t : o.inputs_) append(inputs_, {t.index, t.coeff * coeff});
    for (const Term& t : o.aux_) append(aux_, {t.index, t.coeff * coeff});
    return *this;
  }
  LinearCombination& sub(const Fr& coeff, const LinearCombination& o) {
    if (values_) {
      sum_ -= o.sum_ * coeff;
      return *this;
    }
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
    sum_ = Fr::zero();
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
  // sum += value·coeff, without the product for the coefficients most terms have (±1: a bit, a difference),
  // nor for a value of 0 or 1.
  LinearCombination& accumulate(const Fr& value, const Fr& coeff) {
    if (&coeff == &kFrOne)
      sum_ += value;
    else if (&coeff == &kFrMinusOne)
      sum_ -= value;
    else
      sum_ += bit_aware_product(value, coeff);
    return *this;
  }
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
  const VariableValues* values_ = EvaluationScope::current();  // set: an evaluated combination
  Fr sum_ = Fr::zero();
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
