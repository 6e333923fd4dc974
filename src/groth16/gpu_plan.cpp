#include "groth16/gpu_plan.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "ec/bls12_381.hpp"
#include "ec/bn254.hpp"
#include "ntt/table_layout.hpp"

namespace cuzk::groth16::gpu {

namespace {
// The MSM work space at the smallest slice a large MSM takes (2^20 points, 16 windows): sort arrays, CUB
// space, buckets and partials.
constexpr std::size_t kMsmWorkspace = std::size_t(1) << 30;
constexpr std::size_t kRowChunk = std::size_t(1) << 24;  // default entries per lean row chunk
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

std::size_t Footprint::proof_of(Plan plan) const {
  if (plan == Plan::kResident) return std::max(proof, resident_proof);
  if (plan == Plan::kLean && lean_proof) return lean_proof;
  if (plan == Plan::kStreamed && streamed_proof) return streamed_proof;
  return proof;
}

std::size_t Footprint::need(Plan plan) const {
  const std::size_t base = row_index + proof_of(plan);
  switch (plan) {
    case Plan::kResident:
      return tables + base + rows + points;
    case Plan::kStreamed:
      return (streamed_proof ? compact_tables : tables) + base + rows;
    case Plan::kLean:
      break;
  }
  return compact_tables + base + row_chunks;
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
Footprint footprint_of_shape(std::size_t n, std::size_t v, std::size_t n_public, std::size_t n_coefs) {
  using Fr = typename Curve::Fr;
  const std::size_t entry = sizeof(std::uint32_t) + sizeof(Fr);
  Footprint f;
  const std::size_t log_n = static_cast<std::size_t>(std::countr_zero(std::max<std::size_t>(n, 1)));
  f.tables = ntt::table_elements(log_n, ntt::TableLayout::kFull) * sizeof(Fr);
  f.compact_tables = ntt::table_elements(log_n, ntt::TableLayout::kCompact) * sizeof(Fr);
  f.row_index = (2 * n + 1) * sizeof(std::uint32_t);
  f.rows = n_coefs * entry;
  // A, B1 and C over the signals (C without ONE and the public ones), H over the domain; B2 in G2.
  f.points = (2 * v + (v - std::min(v, n_public + 1)) + n) * sizeof(typename Curve::G1) +
             v * sizeof(typename Curve::G2);
  // The H stage's peak: a, b, c, the plain witness and the classification (two index arrays for all
  // signals, the private signals' ones and the wire → C point map, and their flags); the Montgomery witness
  // is freed before it. The abc stage's: a, b, c and both witness forms.
  const std::size_t h_stage = 3 * n * sizeof(Fr) + v * sizeof(Fr) + 18 * v;
  const std::size_t abc_stage = 3 * n * sizeof(Fr) + 2 * v * sizeof(Fr);
  f.proof = std::max(h_stage, abc_stage) + msm_workspace(std::max(n, v));
  // Two buffers (double buffering) unless one chunk holds every entry.
  const std::size_t chunk = std::min(kRowChunk, std::max<std::size_t>(n_coefs, 1));
  f.row_chunks = (chunk < n_coefs ? 2 : 1) * chunk * entry;
  return f;
}

template <class Curve>
std::size_t proof_footprint(const ProvingKey<Curve>& pk) {
  return footprint_of_shape<Curve>(pk.domain_size, pk.n_vars, pk.n_public, pk.coefs.size()).proof;
}

template <class Curve>
Footprint footprint(const ProvingKey<Curve>& pk) {
  using Fr = typename Curve::Fr;
  Footprint f = footprint_of_shape<Curve>(pk.domain_size, pk.n_vars, pk.n_public, pk.coefs.size());
  // Exact where the key knows better than its shape: its arrays, and its longest row.
  f.points = (pk.a.size() + pk.b1.size() + pk.c.size() + pk.h.size()) * sizeof(typename Curve::G1) +
             pk.b2.size() * sizeof(typename Curve::G2);
  const std::size_t entry = sizeof(std::uint32_t) + sizeof(Fr), chunk = row_chunk_entries(pk);
  f.row_chunks = (chunk < pk.coefs.size() ? 2 : 1) * chunk * entry;
  return f;
}

std::size_t msm_workspace(std::size_t points) {
  return std::min(kMsmWorkspace, 1024 * points);
}

Plan choose_plan(const Footprint& f, std::size_t available) {
  for (Plan p : {Plan::kResident, Plan::kStreamed})
    if (f.need(p) <= available) return p;
  return Plan::kLean;
}

std::string format_gib(std::size_t bytes) {
  char buf[32];
  if (bytes >= (std::size_t(1) << 30))
    std::snprintf(buf, sizeof buf, "%.1f GiB", double(bytes) / double(std::size_t(1) << 30));
  else
    std::snprintf(buf, sizeof buf, "%.1f MiB", double(bytes) / double(std::size_t(1) << 20));
  return buf;
}

std::string describe_needs(const Footprint& f) {
  return std::string("resident ") + format_gib(f.need(Plan::kResident)) + ", streamed " +
         format_gib(f.need(Plan::kStreamed)) + ", lean " + format_gib(f.need(Plan::kLean));
}

std::string describe_choice(const Footprint& f, std::size_t capacity) {
  const Plan p = choose_plan(f, capacity);
  if (f.need(p) <= capacity)
    return std::string(to_string(p)) + ": needs " + format_gib(f.need(p)) + " of the " +
           format_gib(capacity) + " this process may hold";
  return "no plan fits: the smallest (lean) needs " + format_gib(f.need(Plan::kLean)) +
         " of device memory and " + format_gib(capacity) +
         " is all this process may hold on this GPU (engine.vram_limit, or what the card has free); proofs "
         "of this circuit will run out of device memory here";
}

#define CUZK_GPU_PLAN_INSTANTIATE(Curve)                                                            \
  template Footprint footprint<Curve>(const ProvingKey<Curve>&);                                    \
  template std::size_t proof_footprint<Curve>(const ProvingKey<Curve>&);                            \
  template Footprint footprint_of_shape<Curve>(std::size_t, std::size_t, std::size_t, std::size_t); \
  template std::size_t row_chunk_entries<Curve>(const ProvingKey<Curve>&, std::size_t);
CUZK_GPU_PLAN_INSTANTIATE(Bn254)
CUZK_GPU_PLAN_INSTANTIATE(Bls12_381)

}  // namespace cuzk::groth16::gpu
