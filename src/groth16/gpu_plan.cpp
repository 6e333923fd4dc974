#include "groth16/gpu_plan.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "ec/bls12_381.hpp"
#include "ec/bn254.hpp"

namespace cuzk::groth16::gpu {

namespace {
// The smallest MSM slice (2^20 points, 16 windows) with its sort arrays, CUB space, buckets and partials.
constexpr std::size_t kMsmWorkspace = std::size_t(1) << 30;
}  // namespace

const char* to_string(Plan plan) {
  switch (plan) {
    case Plan::kResident:
      return "resident";
    case Plan::kStreamed:
      return "streamed";
    case Plan::kLean:
      return "lean";
  }
  return "lean";
}

std::optional<Plan> smaller(Plan plan) {
  switch (plan) {
    case Plan::kResident:
      return Plan::kStreamed;
    case Plan::kStreamed:
      return Plan::kLean;
    case Plan::kLean:
      return std::nullopt;
  }
  return std::nullopt;
}

std::size_t Footprint::need(Plan plan) const {
  const std::size_t base = tables + row_index + proof;
  switch (plan) {
    case Plan::kResident:
      return base + rows + points;
    case Plan::kStreamed:
      return base + rows;
    case Plan::kLean:
      return base + row_chunks;
  }
  return base + row_chunks;
}

template <class Curve>
std::size_t row_chunk_entries(const ProvingKey<Curve>& pk, std::size_t target) {
  const std::size_t n = pk.domain_size;
  std::vector<std::uint32_t> per_row(n, 0);
  for (const auto& e : pk.coefs) ++per_row[e.constraint];  // A and B of one row share a chunk
  const std::size_t longest = per_row.empty() ? 0 : *std::max_element(per_row.begin(), per_row.end());
  return std::min(std::max(target, longest), std::max<std::size_t>(pk.coefs.size(), 1));
}

template <class Curve>
std::size_t proof_footprint(const ProvingKey<Curve>& pk) {
  using Fr = typename Curve::Fr;
  const std::size_t n = pk.domain_size, v = pk.n_vars;
  // The H stage's peak: a, b, c, the plain witness and the classification (two index arrays for all and
  // for the private signals, and their flags); the Montgomery witness is freed before it.
  const std::size_t h_stage = 3 * n * sizeof(Fr) + v * sizeof(Fr) + 18 * v;
  // The abc stage's: a, b, c and both witness forms.
  const std::size_t abc_stage = 3 * n * sizeof(Fr) + 2 * v * sizeof(Fr);
  return std::max(h_stage, abc_stage) + kMsmWorkspace;
}

template <class Curve>
Footprint footprint(const ProvingKey<Curve>& pk) {
  using Fr = typename Curve::Fr;
  const std::size_t n = pk.domain_size, entry = sizeof(std::uint32_t) + sizeof(Fr);
  Footprint f;
  f.tables = n * sizeof(Fr);
  f.row_index = (2 * n + 1) * sizeof(std::uint32_t);
  f.rows = pk.coefs.size() * entry;
  f.points = (pk.a.size() + pk.b1.size() + pk.c.size() + pk.h.size()) * sizeof(typename Curve::G1) +
             pk.b2.size() * sizeof(typename Curve::G2);
  f.proof = proof_footprint(pk);
  // Two buffers (double buffering) unless one chunk holds every entry.
  const std::size_t chunk = row_chunk_entries(pk);
  f.row_chunks = (chunk < pk.coefs.size() ? 2 : 1) * chunk * entry;
  return f;
}

Plan choose_plan(const Footprint& f, std::size_t available) {
  for (Plan p : {Plan::kResident, Plan::kStreamed})
    if (f.need(p) <= available) return p;
  return Plan::kLean;
}

#define CUZK_GPU_PLAN_INSTANTIATE(Curve)                                 \
  template Footprint footprint<Curve>(const ProvingKey<Curve>&);         \
  template std::size_t proof_footprint<Curve>(const ProvingKey<Curve>&); \
  template std::size_t row_chunk_entries<Curve>(const ProvingKey<Curve>&, std::size_t);
CUZK_GPU_PLAN_INSTANTIATE(Bn254)
CUZK_GPU_PLAN_INSTANTIATE(Bls12_381)

}  // namespace cuzk::groth16::gpu
