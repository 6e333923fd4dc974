#include "groth16/bellperson.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <string>

#include "ec/fixed_base.hpp"
#include "groth16/prover.hpp"
#include "io/error.hpp"
#include "io/zcash_codec.hpp"
#include "msm/cpu.hpp"
#include "msm/plain_scalars.hpp"
#include "ntt/cpu.hpp"
#include "poly/domain.hpp"

namespace cuzk::groth16::bellperson {

namespace {

poly::Domain<Fr> domain_of(std::size_t m) {
  if (m < 2 || !std::has_single_bit(m))
    throw Error("the domain size " + std::to_string(m) + " is not a power of two");
  const std::size_t log_m = static_cast<std::size_t>(std::countr_zero(m));
  return poly::Domain<Fr>(log_m, poly::root_of_unity_from<Fr>(kGenerator, log_m));
}

// Set bits of `density` among its first `n`, in the 64-bit words [first, last).
std::size_t set_bits(const Density& density, std::size_t n, std::size_t first, std::size_t last) {
  std::size_t count = 0;
  for (std::size_t k = first; k < last; ++k) {
    std::uint64_t word = density.words[k];
    if (64 * (k + 1) > n) word &= (std::uint64_t{1} << (n - 64 * k)) - 1;  // bits past n do not count
    count += static_cast<std::size_t>(std::popcount(word));
  }
  return count;
}

// The values of `all` whose bit is set in `density` (or every value when density is null), after `head`
// (the few inputs). At PoRep scale `all` is 130 M values and this runs in the GPU region, so it is parallel:
// blocks of whole density words are counted, then each is copied to its offset.
std::vector<Fr> select(std::span<const Fr> head, const Density* head_density, std::span<const Fr> all,
                       const Density& density) {
  std::vector<Fr> out;
  for (std::size_t i = 0; i < head.size(); ++i)
    if (!head_density || head_density->test(i)) out.push_back(head[i]);
  constexpr std::size_t kWordsPerBlock = 1024;  // 65,536 values
  const std::size_t n = all.size(), words = (n + 63) / 64,
                    blocks = (words + kWordsPerBlock - 1) / kWordsPerBlock;
  std::vector<std::size_t> offset(blocks + 1, out.size());
  tbb::parallel_for(std::size_t(0), blocks, [&](std::size_t b) {
    offset[b + 1] = set_bits(density, n, b * kWordsPerBlock, std::min(words, (b + 1) * kWordsPerBlock));
  });
  for (std::size_t b = 0; b < blocks; ++b) offset[b + 1] += offset[b];
  out.resize(offset[blocks]);
  tbb::parallel_for(std::size_t(0), blocks, [&](std::size_t b) {
    std::size_t at = offset[b];
    for (std::size_t k = b * kWordsPerBlock; k < std::min(words, (b + 1) * kWordsPerBlock); ++k)
      for (std::uint64_t word = density.words[k]; word != 0; word &= word - 1) {
        const std::size_t i = 64 * k + static_cast<std::size_t>(std::countr_zero(word));
        if (i >= n) break;  // bits past the values
        out[at++] = all[i];
      }
  });
  return out;
}

// Witness-side MSMs take the split form (zeros skipped, ones batch-added: most PoRep values are bits);
// the quotient's dense coefficients take plain Pippenger.
template <class Cfg>
ec::Jacobian<Cfg> msm_of(std::span<const ec::Affine<Cfg>> bases, std::span<const Fr> scalars,
                         bool witness = true) {
  const auto plain = msm::plain_scalars(scalars.data(), scalars.size());
  return witness ? msm::split_msm<Cfg>(bases.data(), plain.data(), scalars.size())
                 : msm::pippenger<Cfg>(bases.data(), plain.data(), scalars.size());
}

// Which columns have a non-zero coefficient somewhere in m.
Density columns_used(const r1cs::Csr<Fr>& m, std::size_t first, std::size_t count) {
  Density d = Density::of_size(count);
  // Entries in parallel (309 M in A at PoRep scale), the bits set atomically: OR is order-free.
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, m.nnz(), std::size_t(1) << 16),
                    [&](const auto& range) {
                      for (std::size_t k = range.begin(); k != range.end(); ++k) {
                        const std::size_t c = m.col[k];
                        if (c < first || c >= first + count || m.val[k].is_zero()) continue;
                        const std::uint64_t bit = std::uint64_t{1} << ((c - first) % 64);
                        std::atomic_ref<std::uint64_t> word(d.words[(c - first) / 64]);
                        if (!(word.load(std::memory_order_relaxed) & bit))
                          word.fetch_or(bit, std::memory_order_relaxed);
                      }
                    });
  return d;
}

}  // namespace

std::size_t Density::popcount() const {
  std::size_t n = 0;
  for (std::uint64_t w : words) n += static_cast<std::size_t>(std::popcount(w));
  return n;
}

namespace {
void need(bool ok, const std::string& what) {
  if (!ok) throw Error(what);
}
}  // namespace

void check_sizes(const io::bellperson::Params& p, std::size_t abc, std::size_t inputs, std::size_t aux) {
  const auto n = p.lengths();
  const std::size_t m = n.h + 1;
  need(inputs == p.vk.ic.size(), "the assignment has " + std::to_string(inputs) +
                                     " inputs (ONE included) but the key's ic has " +
                                     std::to_string(p.vk.ic.size()));
  need(aux == n.l, "the assignment has " + std::to_string(aux) + " aux values but the key's l has " +
                       std::to_string(n.l));
  need(abc >= inputs, "a, b and c must include one input constraint per input");
  need(abc <= m, std::to_string(abc) + " constraints do not fit the key's domain of " + std::to_string(m));
}

void check(const io::bellperson::Params& p, const Assignment& w) {
  need(!w.inputs.empty() && w.inputs[0].is_one(), "the input assignment must start with ONE (1)");
  need(w.a.size() == w.b.size() && w.b.size() == w.c.size(), "a, b and c have different lengths");
  check_sizes(p, w.a.size(), w.inputs.size(), w.aux.size());
  need(w.a_aux.bits == w.aux.size() && w.b_aux.bits == w.aux.size() && w.b_inputs.bits == w.inputs.size(),
       "a density bitmap's length differs from its assignment's");
  for (const Density* d : {&w.a_aux, &w.b_aux, &w.b_inputs})
    need(d->words.size() == (d->bits + 63) / 64, "a density bitmap has the wrong number of words");
  const auto n = p.lengths();
  need(n.a == w.inputs.size() + w.a_aux.popcount(), "the key's a has " + std::to_string(n.a) +
                                                        " points but inputs + A density give " +
                                                        std::to_string(w.inputs.size() + w.a_aux.popcount()));
  const std::size_t nb = w.b_inputs.popcount() + w.b_aux.popcount();
  need(p.lengths_only || p.b_g2.size() == p.b_g1.size(), "the key's b_g1 and b_g2 differ in length");
  need(n.b == nb, "the key's b_g1/b_g2 have " + std::to_string(n.b) + " points but the B densities give " +
                      std::to_string(nb));
}

namespace {

// The quotient's m − 1 coefficients, constraint k at point ω^k of domain d: a and b are
// interpolated and evaluated on the coset shift·ω^i, where A·B is brought back to coefficients; c is only
// interpolated. Six transforms, not seven: on the coset X^m = shift^m, so interpolating A·B there gives
// A·B mod (X^m − shift^m) = C + (shift^m − 1)·h, a polynomial of degree < m (A·B − C = h·(X^m − 1)). Its
// coefficients less C's, divided by shift^m − 1, are h's, and C never goes to the coset.
std::vector<Fr> quotient_on(const Assignment& w, const poly::Domain<Fr>& d, const Fr& shift) {
  const std::size_t m = d.n;
  auto coefficients = [&](std::span<const Fr> v) {
    std::vector<Fr> x(m, Fr::zero());
    std::copy(v.begin(), v.end(), x.begin());
    ntt::inverse(x.data(), d);  // coefficients of the interpolant
    return x;
  };
  auto coset_values = [&](std::span<const Fr> v) {
    std::vector<Fr> x = coefficients(v);
    ntt::coset_forward(x.data(), d, shift);
    return x;
  };
  std::vector<Fr> ab = coset_values(w.a);
  {
    const std::vector<Fr> b = coset_values(w.b);
    tbb::parallel_for(std::size_t(0), m, [&](std::size_t i) { ab[i] *= b[i]; });
  }
  ntt::coset_inverse(ab.data(), d, shift);  // C + (shift^m − 1)·h
  const std::vector<Fr> c = coefficients(w.c);
  const Fr z_inv = (shift.pow(static_cast<std::uint64_t>(m)) - Fr::one()).inverse();
  tbb::parallel_for(std::size_t(0), m, [&](std::size_t i) { ab[i] = (ab[i] - c[i]) * z_inv; });
  ab.resize(m - 1);  // degree ≤ m − 2 when the constraints hold
  return ab;
}

}  // namespace

std::vector<Fr> quotient(const Assignment& w, std::size_t m) {
  return quotient_on(w, domain_of(m), Fr::from_u64(kGenerator));
}

std::vector<Fr> quotient_on_odd_coset(const Assignment& w, std::size_t m) {
  const auto d = domain_of(m);
  return quotient_on(w, d, poly::root_of_unity_from<Fr>(kGenerator, d.log_n + 1));
}

std::vector<Fr> a_query_scalars(const Assignment& w) {
  return select(w.inputs, nullptr, w.aux, w.a_aux);
}

std::vector<Fr> b_query_scalars(const Assignment& w) {
  return select(w.inputs, &w.b_inputs, w.aux, w.b_aux);
}

Proof<Curve> prove(const io::bellperson::Params& p, const Assignment& w, const Fr& r, const Fr& s) {
  check(p, w);
  using G1 = Curve::G1Cfg;
  using G2 = Curve::G2Cfg;
  const auto h = quotient(w, p.h.size() + 1);
  const auto a = a_query_scalars(w);
  const auto b = b_query_scalars(w);
  MsmResults<Curve> m;
  m.a = msm_of<G1>(p.a, a);
  m.b1 = msm_of<G1>(p.b_g1, b);
  m.b2 = msm_of<G2>(p.b_g2, b);
  m.c = msm_of<G1>(p.h, h, false) + msm_of<G1>(p.l, w.aux);
  if (p.vk.delta1.is_infinity() || p.vk.delta2.is_infinity())
    throw Error("the key's δ is the identity (UnexpectedIdentity)");
  return assemble<Curve>(BlindingPoints<Curve>{p.vk.alpha1, p.vk.beta1, p.vk.delta1, p.vk.beta2, p.vk.delta2},
                         m, r, s);
}

std::array<std::uint8_t, 192> encode_proof(const Proof<Curve>& p) {
  std::array<std::uint8_t, 192> out{};
  const auto a = io::zcash::encode_g1_compressed(p.a);
  const auto b = io::zcash::encode_g2_compressed(p.b);
  const auto c = io::zcash::encode_g1_compressed(p.c);
  std::copy(a.begin(), a.end(), out.begin());
  std::copy(b.begin(), b.end(), out.begin() + 48);
  std::copy(c.begin(), c.end(), out.begin() + 144);
  return out;
}

Proof<Curve> decode_proof(std::span<const std::uint8_t> bytes, const std::string& source,
                          std::size_t partition) {
  const std::string where = "partition " + std::to_string(partition) + "'s proof: ";
  if (bytes.size() != 192)
    throw io::FormatError(source, where + std::to_string(bytes.size()) + " bytes instead of 192");
  Proof<Curve> p;
  // Decode first, then look at the point (one statement each: argument order is unspecified).
  auto need = [&](io::PointStatus st, const auto& point, const char* name) {
    if (st != io::PointStatus::ok) throw io::FormatError(source, where + name + ": " + io::describe(st));
    if (point.is_infinity()) throw io::FormatError(source, where + name + " is the identity");
  };
  const auto sa = io::zcash::decode_g1(bytes.subspan(0, 48), p.a);
  need(sa, p.a, "A");
  const auto sb = io::zcash::decode_g2(bytes.subspan(48, 96), p.b);
  need(sb, p.b, "B");
  const auto sc = io::zcash::decode_g1(bytes.subspan(144, 48), p.c);
  need(sc, p.c, "C");
  return p;
}

VerifyResult verify(const io::bellperson::VerifyingKey& vk, const std::vector<Fr>& inputs,
                    const Proof<Curve>& p) {
  return groth16::verify<Curve>(VerifyingKey<Curve>{vk.alpha1, vk.beta2, vk.gamma2, vk.delta2, vk.ic}, inputs,
                                p);
}

Assignment synthesize(const r1cs::CsrSystem<Fr>& cs, const std::vector<Fr>& z) {
  const std::size_t n_in = 1 + cs.n_public;
  if (z.size() != cs.n_vars || z.empty() || !z[0].is_one())
    throw Error("the witness must have " + std::to_string(cs.n_vars) + " values, starting with ONE");
  Assignment w;
  const std::size_t rows = cs.a.rows();
  w.a = r1cs::spmv(cs.a, z, n_in);  // the input constraints' rows after the circuit's: input_i · 0 = 0
  w.b = r1cs::spmv(cs.b, z, n_in);
  w.c = r1cs::spmv(cs.c, z, n_in);
  for (std::size_t i = 0; i < n_in; ++i) w.a[rows + i] = z[i];
  w.inputs.assign(z.begin(), z.begin() + static_cast<std::ptrdiff_t>(n_in));
  w.aux = std::vector<Fr>(z.begin() + static_cast<std::ptrdiff_t>(n_in), z.end());
  w.a_aux = columns_used(cs.a, n_in, w.aux.size());
  w.b_inputs = columns_used(cs.b, 0, n_in);
  w.b_aux = columns_used(cs.b, n_in, w.aux.size());
  return w;
}

namespace {

// What setup needs of the matrices: the QAP's polynomials at τ per variable, and which columns A and B use.
struct QapAtTau {
  std::size_t n_in = 0, n_aux = 0, m = 0;  // inputs (ONE included), aux variables, domain size
  std::vector<Fr> u, v, w;
  Density a_aux, b_in, b_aux;
};

QapAtTau evaluate_at_tau(const r1cs::CsrSystem<Fr>& cs, const Fr& tau) {
  QapAtTau q;
  q.n_in = 1 + cs.n_public;
  if (cs.n_vars < q.n_in) throw Error("the circuit has fewer variables than inputs");
  q.n_aux = cs.n_vars - q.n_in;
  const std::size_t rows = cs.a.rows(), n = rows + q.n_in;
  q.m = 2;
  while (q.m < n) q.m *= 2;
  const std::vector<Fr> lag = lagrange_at(tau, domain_of(q.m));
  q.u.assign(cs.n_vars, Fr::zero());
  q.v.assign(cs.n_vars, Fr::zero());
  q.w.assign(cs.n_vars, Fr::zero());
  accumulate_columns(cs.a, lag, q.u);
  accumulate_columns(cs.b, lag, q.v);
  accumulate_columns(cs.c, lag, q.w);
  for (std::size_t i = 0; i < q.n_in; ++i) q.u[i] += lag[rows + i];  // the input constraints
  q.a_aux = columns_used(cs.a, q.n_in, q.n_aux);
  q.b_in = columns_used(cs.b, 0, q.n_in);
  q.b_aux = columns_used(cs.b, q.n_in, q.n_aux);
  return q;
}

// The key's points from the polynomials at τ; each vector is released once its points are made, so that a
// full-size key (47 GB of points at 32 GiB WindowPoSt) is not built beside everything that led to it.
io::bellperson::Params setup_at_tau(QapAtTau q, const ToxicWaste<Curve>& tw, const FixedBaseMul<Curve>& mul) {
  const std::size_t n_in = q.n_in, n_aux = q.n_aux, n_vars = n_in + n_aux, m = q.m;
  // ic and l, a, b_g1, b_g2 and h: about 4·n_vars + m products (the GPU's products read 8-bit windows).
  const std::size_t window = mul.g1 ? 8 : ec::setup_window(4 * n_vars + m);
  const ec::FixedBaseTable<Curve::G1Cfg> g1(Curve::G1Cfg::generator(), Fr::bits(), window);
  const ec::FixedBaseTable<Curve::G2Cfg> g2(Curve::G2Cfg::generator(), Fr::bits(), window);
  auto g1_all = [&](const std::vector<Fr>& k) { return mul.g1 ? mul.g1(g1, k) : g1.mul_all(k); };
  auto g2_all = [&](const std::vector<Fr>& k) { return mul.g2 ? mul.g2(g2, k) : g2.mul_all(k); };
  auto g1_of = [&](const Fr& k) { return g1.mul(k.to_int()).to_affine(); };
  auto g2_of = [&](const Fr& k) { return g2.mul(k.to_int()).to_affine(); };
  io::bellperson::Params p;
  p.vk.alpha1 = g1_of(tw.alpha);
  p.vk.beta1 = g1_of(tw.beta);
  p.vk.beta2 = g2_of(tw.beta);
  p.vk.gamma2 = g2_of(tw.gamma);
  p.vk.delta1 = g1_of(tw.delta);
  p.vk.delta2 = g2_of(tw.delta);

  const Fr gamma_inv = tw.gamma.inverse(), delta_inv = tw.delta.inverse();
  {
    std::vector<Fr> ic(n_in), l(n_aux);
    const auto &u = q.u, &v = q.v, &w = q.w;
    tbb::parallel_for(std::size_t(0), n_vars, [&](std::size_t i) {  // 130 M at PoRep scale
      const Fr k = tw.beta * u[i] + tw.alpha * v[i] + w[i];
      (i < n_in ? ic[i] : l[i - n_in]) = k * (i < n_in ? gamma_inv : delta_inv);
    });
    q.w = {};
    p.vk.ic = g1_all(ic);
    p.l = g1_all(l);
  }
  p.a = g1_all(select(std::span(q.u).first(n_in), nullptr, std::span(q.u).subspan(n_in), q.a_aux));
  q.u = {};
  {
    const auto vb = select(std::span(q.v).first(n_in), &q.b_in, std::span(q.v).subspan(n_in), q.b_aux);
    q.v = {};
    p.b_g1 = g1_all(vb);
    p.b_g2 = g2_all(vb);
  }

  // h[i] = τ^i·Z(τ)/δ, i < m − 1.
  const Fr z_over_delta = (tw.tau.pow(static_cast<std::uint64_t>(m)) - Fr::one()) * delta_inv;
  std::vector<Fr> hq(m - 1);
  constexpr std::size_t kBlock = std::size_t(1) << 16;  // blocks in parallel, each from its own first power
  tbb::parallel_for(std::size_t(0), (hq.size() + kBlock - 1) / kBlock, [&](std::size_t b) {
    Fr t = z_over_delta * tw.tau.pow(static_cast<std::uint64_t>(b * kBlock));
    for (std::size_t i = b * kBlock; i < std::min(hq.size(), (b + 1) * kBlock); ++i) hq[i] = t, t *= tw.tau;
  });
  p.h = g1_all(hq);
  return p;
}

}  // namespace

io::bellperson::Params setup(const r1cs::CsrSystem<Fr>& cs, const ToxicWaste<Curve>& tw,
                             const FixedBaseMul<Curve>& mul) {
  return setup_at_tau(evaluate_at_tau(cs, tw.tau), tw, mul);
}

io::bellperson::Params setup(r1cs::CsrSystem<Fr>&& cs, const ToxicWaste<Curve>& tw,
                             const FixedBaseMul<Curve>& mul) {
  QapAtTau q = evaluate_at_tau(cs, tw.tau);
  cs = {};  // the matrices (tens of GB at 32 GiB) go before the points are made
  return setup_at_tau(std::move(q), tw, mul);
}

}  // namespace cuzk::groth16::bellperson
