// Neptune v11.0.0's legacy Poseidon circuit (src/circuit.rs `poseidon_hash`), the one Filecoin's circuits
// call for every Poseidon hash (filecoin-hashers hash2_circuit / hash_multi_leaf_circuit, porep
// hash_single_column): the same variables allocated and the same rows enforced in the same order, with
// bellpepper's linear combinations, so that a circuit built from it matches Filecoin's parameters.
//
// The hash is neptune's optimised permutation (compressed round constants, sparse partial-round matrices:
// gadgets/poseidon_constants.hpp). State elements are either allocated variables or linear combinations
// (neptune's Elt::Allocated / Elt::Num); the linear layers only combine, and an S-box first allocates a
// combination it is given (one row `lc · 1 = x`), then x², x⁴ and x⁵ + key (one row each). The domain tag's
// first S-box is a constant. The digest is the state's second element, allocated the same way.
// 3(t·R_F + R_P − 1) + (t·R_F + R_P − arity) rows and as many aux variables: 311, 505, 598 for arity 2, 8,
// 11. docs/porting/poseidon-circuit.md lists the rows.
#pragma once

#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "ff/sum_of_products.hpp"
#include "gadgets/constraint_system.hpp"
#include "gadgets/poseidon_constants.hpp"

namespace cuzk::gadgets {

// The digest as an allocated number: its variable and, when CS::kWitness, its value.
struct PoseidonDigest {
  Variable variable;
  Fr value;
};

namespace poseidon_detail {

// Whether a constraint system reads the rows' combinations (shape and record mode) or ignores them (the
// witness modes): the state's combinations are carried between rows, so they are built only when read. A
// constraint system may say so with `static constexpr bool kRows` (as gadgets/boolean.hpp's kBuildsRows).
template <class CS>
constexpr bool cs_builds_rows() {
  if constexpr (requires { CS::kRows; })
    return static_cast<bool>(CS::kRows);
  else
    return !std::is_same_v<CS, WitnessCS> && !std::is_same_v<CS, WitnessSlice>;
}

// Whether a constraint system evaluates the rows' combinations as they are built (EvaluationSlice: an
// evaluated combination is only its value, linear_combination.hpp).
template <class CS>
constexpr bool cs_evaluates_rows() {
  if constexpr (requires { CS::kEvaluates; })
    return static_cast<bool>(CS::kEvaluates);
  else
    return false;
}

template <class CS>
class LegacyCircuit {
  static constexpr bool kValues = CS::kWitness;
  static constexpr bool kRows = cs_builds_rows<CS>();
  // The state's combinations are carried only where rows are built from their terms. Evaluated, a
  // combination's value is the element's value, which the state keeps anyway: carrying both computed every
  // linear layer twice (a third of a 32 GiB WindowPoSt partition's synthesis), so a row that reads an
  // element's combination reads that value instead (as ONE scaled by it).
  static constexpr bool kEvaluates = cs_evaluates_rows<CS>();
  static constexpr bool kCarriesLc = kRows && !kEvaluates;
  static_assert(!kEvaluates || kValues, "an evaluating constraint system has the witness values");

  struct NoLc {};  // the witness modes carry no combinations

  // neptune's Elt: an allocated variable, or a linear combination (with its value when kValues).
  struct Elt {
    bool allocated = false;
    Variable var;
    [[no_unique_address]] std::conditional_t<kCarriesLc, LinearCombination, NoLc> lc;
    Fr value = Fr::zero();
  };

 public:
  LegacyCircuit(CS& cs, const PoseidonConstants& c) : cs_(cs), c_(c) {}

  PoseidonDigest hash(std::span<const Variable> preimage, std::span<const Fr> values) {
    const std::size_t t = c_.width;
    if (preimage.size() != c_.arity)
      throw SynthesisError("poseidon circuit: " + std::to_string(preimage.size()) + " inputs for arity " +
                           std::to_string(c_.arity));
    if (kValues && values.size() != preimage.size())
      throw SynthesisError("poseidon circuit: the preimage's values are missing");
    state_.assign(t, Elt{});
    state_[0] = constant(c_.domain_tag);
    for (std::size_t i = 0; i < c_.arity; ++i) {
      state_[i + 1].allocated = true;
      state_[i + 1].var = preimage[i];
      if constexpr (kValues) state_[i + 1].value = values[i];
    }

    full_round(true, false);
    for (std::size_t r = 1; r < c_.half_full_rounds; ++r) full_round(false, false);
    for (std::size_t r = 0; r < c_.partial_rounds; ++r) partial_round();
    for (std::size_t r = 1; r < c_.half_full_rounds; ++r) full_round(false, false);
    full_round(false, true);

    const Elt out = ensure_allocated(state_[1]);
    return {out.var, out.value};
  }

 private:
  Elt constant(const Fr& value) {
    Elt e;
    e.value = value;
    if constexpr (kCarriesLc) e.lc.add(kOne, value);
    return e;
  }

  Variable alloc(const Fr& value) {
    return cs_.alloc([&] { return value; });
  }

  // A row whose c the hash computed as a·b from these values: an evaluating constraint system takes the
  // values as they are (EvaluationSlice::enforce_computed: its check would only redo the product c was
  // made from, a multiplication per S-box row), every other system builds the row from its combinations.
  template <class FA, class FB, class FC>
  void enforce_row(const Fr& va, const Fr& vb, const Fr& vc, FA&& fa, FB&& fb, FC&& fc) {
    if constexpr (kEvaluates && requires { cs_.enforce_computed(va, vb, vc); })
      cs_.enforce_computed(va, vb, vc);
    else
      cs_.enforce(std::forward<FA>(fa), std::forward<FB>(fb), std::forward<FC>(fc));
  }

  // An allocated variable for e: e itself, or a new variable v with the row  e.lc · 1 = v.
  Elt ensure_allocated(const Elt& e) {
    if (e.allocated) return e;
    Elt out;
    out.allocated = true;
    if constexpr (kValues) out.value = e.value;
    out.var = alloc(out.value);
    enforce_row(
        out.value, kFrOne, out.value,
        [&](LC& a) {
          if constexpr (kCarriesLc)
            a.add(e.lc);
          else if constexpr (kEvaluates)
            a.add(kOne, e.value);
        },
        [&](LC& b) { b.add(kOne); }, [&](LC& c) { c.add(out.var); });
    return out;
  }

  // x² as a new variable, with the row  x · x = x².
  Elt square(const Elt& x) {
    Elt out;
    out.allocated = true;
    if constexpr (kValues) out.value = x.value.sqr();
    out.var = alloc(out.value);
    enforce_row(
        x.value, x.value, out.value, [&](LC& a) { a.add(x.var); }, [&](LC& b) { b.add(x.var); },
        [&](LC& c) { c.add(out.var); });
    return out;
  }

  // neptune's mul_sum(a = x4, b = x, pre, post): (x + pre)·x4 + post as a new variable, with the row
  // (x + pre·1) · x4 = out − post·1 (terms for absent keys left out).
  Elt mul_sum(const Elt& x4, const Elt& x, const Fr* pre, const Fr* post) {
    Elt out;
    out.allocated = true;
    Fr row_a{}, row_c{};  // the row's a = x + pre and c = out − post
    if constexpr (kValues) {
      row_a = x.value;
      if (pre) row_a += *pre;
      row_c = row_a * x4.value;
      out.value = post ? row_c + *post : row_c;
    }
    out.var = alloc(out.value);
    enforce_row(
        row_a, x4.value, row_c,
        [&](LC& a) {
          a.add(x.var);
          if (pre) a.add(kOne, *pre);
        },
        [&](LC& b) { b.add(x4.var); },
        [&](LC& c) {
          c.add(out.var);
          if (post) c.add(kOne, -*post);
        });
    return out;
  }

  // neptune's quintic_s_box: x = allocated e, then x², x⁴, x⁵ + post.
  Elt sbox(const Elt& e, const Fr* post) {
    const Elt x = ensure_allocated(e);
    const Elt x2 = square(x);
    const Elt x4 = square(x2);
    return mul_sum(x4, x, nullptr, post);
  }

  // neptune's quintic_s_box_pre_add (first round, preimage elements, already allocated): (x + pre)² by
  // square_sum, its square, then (x + pre)·x⁴ + post.
  Elt sbox_pre_add(const Elt& e, const Fr& pre, const Fr& post) {
    const Elt x = ensure_allocated(e);
    Elt x2;
    x2.allocated = true;
    Fr shifted{};  // x + pre, the row's a and b
    if constexpr (kValues) {
      shifted = x.value + pre;
      x2.value = shifted.sqr();
    }
    x2.var = alloc(x2.value);
    enforce_row(
        shifted, shifted, x2.value, [&](LC& a) { a.add(x.var).add(kOne, pre); },
        [&](LC& b) { b.add(x.var).add(kOne, pre); }, [&](LC& c) { c.add(x2.var); });
    const Elt x4 = square(x2);
    return mul_sum(x4, x, &pre, &post);
  }

  void full_round(bool first, bool last) {
    const std::size_t t = c_.width;
    const Fr* pre = nullptr;
    if (first) {
      pre = &c_.compressed_round_constants[offset_];
      offset_ += t;
    }
    const Fr* post = nullptr;
    if (first || !last) {
      post = &c_.compressed_round_constants[offset_];
      offset_ += t;
    }
    for (std::size_t i = 0; i < t; ++i) {
      if (first && i == 0) {
        // The domain tag is a constant: its first S-box is computed, not constrained.
        const Fr x = state_[0].value + pre[0];
        state_[0] = constant(x.sqr().sqr() * x + post[0]);
      } else if (first) {
        state_[i] = sbox_pre_add(state_[i], pre[i], post[i]);
      } else {
        state_[i] = sbox(state_[i], post ? &post[i] : nullptr);
      }
    }
    mix();
  }

  void partial_round() {
    const Fr& key = c_.compressed_round_constants[offset_++];
    state_[0] = sbox(state_[0], &key);
    mix();
  }

  // The linear layer after round `round_`, as in the hash (filecoin/poseidon.cpp).
  void mix() {
    const std::size_t half = c_.half_full_rounds;
    if (round_ + 1 == half)
      times_matrix(c_.pre_sparse_matrix);
    else if (round_ >= half && round_ < half + c_.partial_rounds)
      times_sparse(c_.sparse_matrices[round_ - half]);
    else
      times_matrix(c_.mds);
    ++round_;
  }

  // acc.lc += s·e (neptune's Elt::scale then Num::add), where combinations are carried.
  static void add_scaled_lc(Elt& acc, const Elt& e, const Fr& s) {
    if constexpr (kCarriesLc) {
      if (e.allocated)
        acc.lc.add(e.var, s);
      else
        acc.lc.add(s, e.lc);
    }
  }

  // Σ_i coeff(i)·state[i].value, reduced once (ff/sum_of_products.hpp): the linear layers are most of a
  // Poseidon-heavy synthesis (WindowPoSt, SnapDeals).
  template <class Coeff>
  Fr state_dot(Coeff&& coeff) const {
    return ff::sum_of_products<Fr>(state_.size(), std::forward<Coeff>(coeff),
                                   [&](std::size_t i) -> const Fr& { return state_[i].value; });
  }

  // new[j] = Σ_i m[i][j]·state[i] (neptune's scalar_product over column j).
  void times_matrix(const FrMatrix& m) {
    const std::size_t t = c_.width;
    next_.assign(t, Elt{});
    for (std::size_t j = 0; j < t; ++j) {
      if constexpr (kValues) next_[j].value = state_dot([&](std::size_t i) -> const Fr& { return m[i][j]; });
      for (std::size_t i = 0; i < t; ++i) add_scaled_lc(next_[j], state_[i], m[i][j]);
    }
    std::swap(state_, next_);
  }

  // new[0] = Σ_i w_hat[i]·state[i]; new[j] = state[j] + v_rest[j-1]·state[0] (neptune requires state[j]
  // to be a combination there, and it always is).
  void times_sparse(const PoseidonSparseMatrix& m) {
    const std::size_t t = c_.width;
    Elt first;
    if constexpr (kValues) first.value = state_dot([&](std::size_t i) -> const Fr& { return m.w_hat[i]; });
    for (std::size_t i = 0; i < t; ++i) add_scaled_lc(first, state_[i], m.w_hat[i]);
    for (std::size_t j = 1; j < t; ++j) {
      if (state_[j].allocated)
        throw std::logic_error("poseidon circuit: sparse layer on an allocated element");
      if constexpr (kValues) state_[j].value += state_[0].value * m.v_rest[j - 1];
      add_scaled_lc(state_[j], state_[0], m.v_rest[j - 1]);
    }
    state_[0] = std::move(first);
  }

  CS& cs_;
  const PoseidonConstants& c_;
  std::vector<Elt> state_, next_;
  std::size_t offset_ = 0;  // into the compressed round constants
  std::size_t round_ = 0;   // linear layers applied so far
};

}  // namespace poseidon_detail

// The Poseidon digest of `preimage` (arity = preimage.size(), constants poseidon_constants) as
// neptune's legacy `poseidon_hash` synthesizes it. `values` are the preimage's values, read only when
// CS::kWitness (pass an empty span otherwise).
template <class CS>
PoseidonDigest poseidon_hash_circuit(CS& cs, std::span<const Variable> preimage, std::span<const Fr> values) {
  return poseidon_detail::LegacyCircuit<CS>(cs, poseidon_constants(preimage.size())).hash(preimage, values);
}

template <class CS>
PoseidonDigest poseidon_hash_circuit(CS& cs, const PoseidonConstants& constants,
                                     std::span<const Variable> preimage, std::span<const Fr> values) {
  return poseidon_detail::LegacyCircuit<CS>(cs, constants).hash(preimage, values);
}

}  // namespace cuzk::gadgets
