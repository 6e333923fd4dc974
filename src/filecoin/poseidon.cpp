#include "filecoin/poseidon.hpp"

#include <array>
#include <stdexcept>
#include <string>

#include "ff/sum_of_products.hpp"

namespace cuzk::filecoin {
namespace {

// The state lives on the stack: hashing allocates nothing.
using State = std::array<Fr, kPoseidonMaxArity + 1>;

Fr quintic(const Fr& x) {
  return x.sqr().sqr() * x;
}

State initial_state(const PoseidonConstants& c, std::span<const Fr> preimage) {
  if (preimage.size() != c.arity)
    throw std::invalid_argument("poseidon: preimage of " + std::to_string(preimage.size()) +
                                " elements for arity " + std::to_string(c.arity));
  State s{};
  s[0] = c.domain_tag;
  for (std::size_t i = 0; i < c.arity; ++i) s[i + 1] = preimage[i];
  return s;
}

// s ← s·m (new[j] = Σ_i m[i][j]·s[i]), each new element one sum of products reduced once.
void times_matrix(State& s, const gadgets::FrMatrix& m, std::size_t t) {
  State r{};
  for (std::size_t j = 0; j < t; ++j)
    r[j] = ff::sum_of_products<Fr>(
        t, [&](std::size_t i) -> const Fr& { return m[i][j]; },
        [&](std::size_t i) -> const Fr& { return s[i]; });
  s = r;
}

// s ← s·M'' for a sparse M'': the dense first column gives new[0], the first row and the identity the
// rest.
void times_sparse(State& s, const gadgets::PoseidonSparseMatrix& m, std::size_t t) {
  const Fr first = ff::sum_of_products<Fr>(
      t, [&](std::size_t i) -> const Fr& { return m.w_hat[i]; },
      [&](std::size_t i) -> const Fr& { return s[i]; });
  for (std::size_t j = 1; j < t; ++j) s[j] += m.v_rest[j - 1] * s[0];
  s[0] = first;
}

}  // namespace

Fr poseidon_hash(std::span<const Fr> preimage) {
  return poseidon_hash(poseidon_constants(preimage.size()), preimage);
}

Fr poseidon_hash(const PoseidonConstants& c, std::span<const Fr> preimage) {
  State s = initial_state(c, preimage);
  const std::size_t t = c.width, half = c.half_full_rounds;
  const Fr* key = c.compressed_round_constants.data();
  std::size_t round = 0;
  // The linear layer after round `round`: M, except the pre-sparse matrix after the last first-half full
  // round and a sparse matrix after each partial round.
  auto mix = [&] {
    if (round + 1 == half)
      times_matrix(s, c.pre_sparse_matrix, t);
    else if (round >= half && round < half + c.partial_rounds)
      times_sparse(s, c.sparse_matrices[round - half], t);
    else
      times_matrix(s, c.mds, t);
    ++round;
  };
  auto full_round = [&](bool add_keys) {
    for (std::size_t i = 0; i < t; ++i) {
      s[i] = quintic(s[i]);
      if (add_keys) s[i] += *key++;
    }
    mix();
  };

  for (std::size_t i = 0; i < t; ++i) s[i] += *key++;
  for (std::size_t r = 0; r < half; ++r) full_round(true);
  for (std::size_t r = 0; r < c.partial_rounds; ++r) {
    s[0] = quintic(s[0]) + *key++;
    mix();
  }
  for (std::size_t r = 1; r < half; ++r) full_round(true);
  full_round(false);  // the terminal round adds nothing: its constants were pulled forward
  return s[1];
}

Fr poseidon_hash_correct(const PoseidonConstants& c, std::span<const Fr> preimage) {
  State s = initial_state(c, preimage);
  const std::size_t t = c.width;
  const Fr* key = c.round_constants.data();
  auto full_round = [&] {
    for (std::size_t i = 0; i < t; ++i) s[i] = quintic(s[i] + *key++);
    times_matrix(s, c.mds, t);
  };
  for (std::size_t r = 0; r < c.half_full_rounds; ++r) full_round();
  for (std::size_t r = 0; r < c.partial_rounds; ++r) {
    for (std::size_t i = 0; i < t; ++i) s[i] += *key++;
    s[0] = quintic(s[0]);
    times_matrix(s, c.mds, t);
  }
  for (std::size_t r = 0; r < c.half_full_rounds; ++r) full_round();
  return s[1];
}

}  // namespace cuzk::filecoin
