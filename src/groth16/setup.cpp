#include "groth16/setup.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "ec/bls12_381.hpp"
#include "ec/bn254.hpp"
#include "ff/batch_inverse.hpp"
#include "ff/random.hpp"
#include "poly/domain.hpp"

namespace cuzk::groth16 {

template <class Curve>
ToxicWaste<Curve> random_toxic_waste(bool gamma_one) {
  using Fr = typename Curve::Fr;
  auto draw = [] { return ff::random_nonzero_os<Fr>(); };
  ToxicWaste<Curve> tw{draw(), draw(), draw(), draw(), draw()};
  if (gamma_one) tw.gamma = Fr::one();
  return tw;
}

namespace {

// Work is cut into blocks of this many elements: large enough to amortise a pow or an inversion per block.
constexpr std::size_t kBlock = 1 << 14;

template <class F>
void for_blocks(std::size_t n, auto&& body) {  // body(begin, end), blocks in parallel
  tbb::parallel_for(std::size_t(0), (n + kBlock - 1) / kBlock,
                    [&](std::size_t b) { body(b * kBlock, std::min(n, (b + 1) * kBlock)); });
}

// out[i] = first·step^i.
template <class F>
std::vector<F> geometric(const F& first, const F& step, std::size_t n) {
  std::vector<F> out(n);
  for_blocks<F>(n, [&](std::size_t begin, std::size_t end) {
    F x = first * step.pow(static_cast<std::uint64_t>(begin));
    for (std::size_t i = begin; i < end; ++i, x *= step) out[i] = x;
  });
  return out;
}

template <class F>
void batch_inverse_parallel(std::vector<F>& v) {
  for_blocks<F>(v.size(), [&](std::size_t begin, std::size_t end) {
    ff::batch_inverse(v.data() + begin, end - begin);
  });
}

// out[i] = z·w_i/(τ − w_i) for the points w_i = first·step^i: the Lagrange basis of a coset at τ, with z
// the basis's common factor. Throws when τ is one of the points (a 1 in 2^250 draw: run it again).
template <class F>
std::vector<F> lagrange_like(const F& tau, const F& first, const F& step, std::size_t n, const F& z) {
  std::vector<F> w = geometric(first, step, n), out(n);
  tbb::parallel_for(std::size_t(0), n, [&](std::size_t i) { out[i] = tau - w[i]; });
  if (std::any_of(out.begin(), out.end(), [](const F& x) { return x.is_zero(); }))
    throw std::runtime_error("setup: τ landed in the evaluation domain; run it again");
  batch_inverse_parallel(out);
  tbb::parallel_for(std::size_t(0), n, [&](std::size_t i) { out[i] *= z * w[i]; });
  return out;
}

}  // namespace

// u[col] += Σ_r M[r][col]·lag[r]: the matrix's QAP polynomials evaluated at τ. Products in parallel, in
// slices that bound the scratch memory; the scatter into columns is a sequential pass of additions.
template <class F>
void accumulate_columns(const r1cs::Csr<F>& m, const std::vector<F>& lag, std::vector<F>& u) {
  constexpr std::size_t kSlice = std::size_t{1} << 24;
  std::vector<F> products(std::min(kSlice, m.nnz()));
  for (std::size_t begin = 0; begin < m.nnz(); begin += kSlice) {
    const std::size_t end = std::min(m.nnz(), begin + kSlice);
    // The row of entry k: found per block by binary search, then walked.
    for_blocks<F>(end - begin, [&](std::size_t b, std::size_t e) {
      std::size_t row =
          std::upper_bound(m.row_start.begin(), m.row_start.end(), begin + b) - m.row_start.begin() - 1;
      for (std::size_t k = begin + b; k < begin + e; ++k) {
        while (m.row_start[row + 1] <= k) ++row;
        products[k - begin] = m.val[k] * lag[row];
      }
    });
    // The sums themselves in order (the columns are scattered: a cache miss each at PoRep scale, so the
    // targets are prefetched a few entries ahead).
    constexpr std::size_t kAhead = 32;
    for (std::size_t k = begin; k < end; ++k) {
      if (k + kAhead < end) __builtin_prefetch(&u[m.col[k + kAhead]], 1);
      u[m.col[k]] += products[k - begin];
    }
  }
}

template <class Fr>
std::vector<Fr> lagrange_at(const Fr& tau, const poly::Domain<Fr>& d) {
  // L_i(τ) = (τ^n − 1)/n · ω^i/(τ − ω^i).
  const Fr z = (tau.pow(static_cast<std::uint64_t>(d.n)) - Fr::one()) * d.n_inv;
  return lagrange_like(tau, Fr::one(), d.omega, d.n, z);
}

template <class Curve>
ProvingKey<Curve> setup(const r1cs::CsrSystem<typename Curve::Fr>& cs, const ToxicWaste<Curve>& tw,
                        const FixedBaseMul<Curve>& mul) {
  using Fr = typename Curve::Fr;
  const std::size_t n_constraints = cs.a.rows();
  const std::uint32_t n_public = cs.n_public, n_vars = cs.n_vars;
  if (n_vars < n_public + 1)
    throw std::invalid_argument("setup: the R1CS has fewer wires than public signals");
  if (cs.b.rows() != n_constraints || cs.c.rows() != n_constraints)
    throw std::invalid_argument("setup: A, B and C have different numbers of rows");
  for (const auto* m : {&cs.a, &cs.b, &cs.c})
    if (!m->col.empty() && *std::max_element(m->col.begin(), m->col.end()) >= n_vars)
      throw std::invalid_argument("setup: a constraint names a wire beyond the " + std::to_string(n_vars));
  // snarkjs sizing: one extra row per public signal binds it (A-matrix rows n_constraints + s).
  const auto domain = poly::Domain<Fr>::at_least(n_constraints + n_public + 1);
  const std::vector<Fr> lag = lagrange_at(tw.tau, domain);

  ProvingKey<Curve> pk;
  pk.n_vars = n_vars;
  pk.n_public = n_public;
  pk.domain_size = static_cast<std::uint32_t>(domain.n);

  // The coefficient section, row by row (A's entries, then B's), then the public-input binding rows.
  pk.coefs.resize(cs.a.nnz() + cs.b.nnz() + n_public + 1);
  tbb::parallel_for(std::size_t(0), n_constraints, [&](std::size_t row) {
    std::size_t at = cs.a.row_start[row] + cs.b.row_start[row];
    for (const auto& [matrix, m] : {std::pair{0u, &cs.a}, std::pair{1u, &cs.b}})
      for (std::uint64_t k = m->row_start[row]; k < m->row_start[row + 1]; ++k)
        pk.coefs[at++] = {matrix, static_cast<std::uint32_t>(row), m->col[k], m->val[k]};
  });
  std::vector<Fr> a(n_vars, Fr::zero()), b(n_vars, Fr::zero()), c(n_vars, Fr::zero());
  accumulate_columns(cs.a, lag, a);
  accumulate_columns(cs.b, lag, b);
  accumulate_columns(cs.c, lag, c);
  for (std::uint32_t s = 0; s <= n_public; ++s) {
    a[s] += lag[n_constraints + s];
    pk.coefs[cs.a.nnz() + cs.b.nnz() + s] = {0, static_cast<std::uint32_t>(n_constraints + s), s, Fr::one()};
  }

  // a, b1, b2, c and h: about 4·n_vars + N products (the GPU's products read 8-bit windows).
  const std::size_t window = mul.g1 ? 8 : ec::setup_window(4 * std::size_t(n_vars) + domain.n);
  const ec::FixedBaseTable<typename Curve::G1Cfg> g1(Curve::G1Cfg::generator(), Fr::bits(), window);
  const ec::FixedBaseTable<typename Curve::G2Cfg> g2(Curve::G2Cfg::generator(), Fr::bits(), window);
  auto g1_all = [&](const std::vector<Fr>& k) { return mul.g1 ? mul.g1(g1, k) : g1.mul_all(k); };
  auto g2_all = [&](const std::vector<Fr>& k) { return mul.g2 ? mul.g2(g2, k) : g2.mul_all(k); };
  auto g1_of = [&](const Fr& k) { return g1.mul(k.to_int()).to_affine(); };
  auto g2_of = [&](const Fr& k) { return g2.mul(k.to_int()).to_affine(); };
  pk.alpha1 = g1_of(tw.alpha);
  pk.beta1 = g1_of(tw.beta);
  pk.delta1 = g1_of(tw.delta);
  pk.beta2 = g2_of(tw.beta);
  pk.gamma2 = g2_of(tw.gamma);
  pk.delta2 = g2_of(tw.delta);

  pk.a = g1_all(a);
  pk.b1 = g1_all(b);
  pk.b2 = g2_all(b);

  const Fr gamma_inv = tw.gamma.inverse(), delta_inv = tw.delta.inverse();
  std::vector<Fr> ic(n_public + 1), cq(n_vars - n_public - 1);
  tbb::parallel_for(std::uint32_t(0), n_vars, [&](std::uint32_t s) {
    const Fr k = tw.beta * a[s] + tw.alpha * b[s] + c[s];
    if (s <= n_public)
      ic[s] = k * gamma_inv;
    else
      cq[s - n_public - 1] = k * delta_inv;
  });
  a = {}, b = {}, c = {};  // large circuits: give the memory back before the last products
  pk.ic = g1.mul_all(ic);
  pk.c = g1_all(cq);

  // H_j = L^(2N)_{2j+1}(τ)/δ: Lagrange points of the odd coset of the 2N domain (snarkjs' H query).
  const poly::Domain<Fr> big(domain.log_n + 1);
  const Fr z2 = (tw.tau.pow(static_cast<std::uint64_t>(big.n)) - Fr::one()) * big.n_inv * delta_inv;
  pk.h = g1_all(lagrange_like(tw.tau, big.omega, big.omega.sqr(), domain.n, z2));
  return pk;
}

template <class Curve>
ProvingKey<Curve> setup(const r1cs::ConstraintSystem<Curve>& cs, const ToxicWaste<Curve>& tw) {
  return setup<Curve>(r1cs::to_csr(cs), tw);
}

template ToxicWaste<Bn254> random_toxic_waste<Bn254>(bool);
template ToxicWaste<Bls12_381> random_toxic_waste<Bls12_381>(bool);
#define CUZK_SETUP_INSTANTIATE(Curve)                                                                      \
  template ProvingKey<Curve> setup<Curve>(const r1cs::ConstraintSystem<Curve>&, const ToxicWaste<Curve>&); \
  template ProvingKey<Curve> setup<Curve>(const r1cs::CsrSystem<Curve::Fr>&, const ToxicWaste<Curve>&,     \
                                          const FixedBaseMul<Curve>&);
CUZK_SETUP_INSTANTIATE(Bn254)
template std::vector<Bn254::Fr> lagrange_at<Bn254::Fr>(const Bn254::Fr&, const poly::Domain<Bn254::Fr>&);
template std::vector<Bls12_381::Fr> lagrange_at<Bls12_381::Fr>(const Bls12_381::Fr&,
                                                               const poly::Domain<Bls12_381::Fr>&);
template void accumulate_columns<Bn254::Fr>(const r1cs::Csr<Bn254::Fr>&, const std::vector<Bn254::Fr>&,
                                            std::vector<Bn254::Fr>&);
template void accumulate_columns<Bls12_381::Fr>(const r1cs::Csr<Bls12_381::Fr>&,
                                                const std::vector<Bls12_381::Fr>&,
                                                std::vector<Bls12_381::Fr>&);
CUZK_SETUP_INSTANTIATE(Bls12_381)

}  // namespace cuzk::groth16
