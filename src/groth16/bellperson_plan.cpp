#include "groth16/bellperson_plan.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "groth16/bellperson.hpp"
#include "ntt/table_layout.hpp"

namespace cuzk::groth16::bellperson {

groth16::gpu::Footprint gpu_footprint(const io::bellperson::Params& params) {
  const auto n = params.lengths();
  const std::size_t m = n.h + 1;  // the FFT domain: h holds m − 1 points
  groth16::gpu::Footprint f;
  const std::size_t log_m = static_cast<std::size_t>(std::countr_zero(m));
  f.tables = ntt::table_elements(log_m, ntt::TableLayout::kFull) * sizeof(Fr);
  f.compact_tables = ntt::table_elements(log_m, ntt::TableLayout::kCompact) * sizeof(Fr);
  f.points = (n.h + n.l + n.a + n.b) * sizeof(io::bellperson::G1) + n.b * sizeof(io::bellperson::G2);
  // The H stage holds two domain-sized vectors (A, then A·B and H's coefficients, beside B, then C); the
  // uploads go straight into them. H's plain coefficients stay for the H MSM.
  const std::size_t plain = sizeof(Fr);  // a plain scalar has the size of a Montgomery one
  const std::size_t h_stage = 2 * m * sizeof(Fr);
  const std::size_t workspace = groth16::gpu::msm_workspace(std::max(m, n.l));
  // [inputs, aux] goes up during the H MSM, then the witness-side MSMs take the split form: the queries'
  // scalars classified on the device (two 4-byte positions per value, and per value being classified two
  // flag bytes beside the one of a gather).
  const std::size_t inputs = params.vk.ic.size(), queries = n.a + n.b;
  const std::size_t h_msm = m * plain + (inputs + n.l) * plain;
  // Streamed points: one query at a time beside [inputs, aux], and the two point slices a streamed MSM
  // uploads into (at their smallest, 2^20 G2 points each, fewer when there are fewer points).
  const std::size_t query = std::max(n.a, n.b), classified = std::max(query, n.l);
  const std::size_t slice_points = std::min(std::size_t(1) << 20, classified);
  const std::size_t streamed_split = (inputs + n.l) * plain + query * plain +
                                     classified * (2 * sizeof(std::uint32_t) + 2) + (inputs + n.l) +
                                     2 * slice_points * sizeof(io::bellperson::G2);
  f.proof = std::max({h_stage, h_msm, streamed_split}) + workspace;
  // Streamed proofs hold the full NTT table during their H stage only (the key keeps the compact pair).
  f.streamed_proof = std::max({h_stage + f.tables, h_msm, streamed_split}) + workspace;
  // Lean: a chunk of values gathered and classified at a time beside [inputs, aux] (and their flags).
  const std::size_t chunk = std::min(kLeanQueryChunk, classified);
  const std::size_t lean_split = (inputs + n.l) * plain + chunk * (plain + 2 * sizeof(std::uint32_t) + 3) +
                                 2 * slice_points * sizeof(io::bellperson::G2);
  f.lean_proof = std::max({h_stage, h_msm, lean_split}) + workspace;
  // Resident points: the B query gathered, it and the aux values classified at once. The A query is not
  // gathered: its ones (a 4-byte position each) are read off the aux values' classes, and in place of a list
  // of its other values each aux value has its A point (a 4-byte index), as the A and L tails share one sort.
  const std::size_t split_stage = (inputs + n.l + n.b) * plain + (queries + n.l) * 2 * sizeof(std::uint32_t) +
                                  3 * std::max(inputs + n.l, n.a);
  f.resident_proof = std::max({h_stage, h_msm, split_stage}) + workspace;
  return f;
}

namespace {

// `share` of the room free now, where `later` (what the MSMs after this one hold beside the head) still fits
// once `freed_later` comes back; never more than the query's `points`.
std::size_t head_points(std::size_t points, std::size_t free_now, std::size_t freed_later, std::size_t later,
                        double share, std::size_t point_bytes = sizeof(io::bellperson::G1)) {
  if (free_now + freed_later <= later || !(share > 0)) return 0;
  const double room = double(std::min(free_now, free_now + freed_later - later)) * std::min(share, 1.0);
  return std::min(points, static_cast<std::size_t>(room) / point_bytes);
}

// A head's share from the environment: "off" (0) or a number in (0, 1]; unset or empty: `fallback`.
double share_from_env(const char* name, double fallback) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  const std::string s = v;
  if (s == "off") return 0;
  char* end = nullptr;
  const double share = std::strtod(v, &end);
  if (*end != '\0' || !(share > 0 && share <= 1))
    throw std::invalid_argument(std::string(name) + "=" + s + ": expected off or a share in (0, 1]");
  return share;
}

}  // namespace

std::size_t streamed_head_points(const io::bellperson::Params& params, std::size_t free_now,
                                 std::size_t freed_later, bool witness_uploaded, double share) {
  const auto n = params.lengths();
  const std::size_t values = params.vk.ic.size() + n.l;  // [inputs, aux]
  // The densities: three bit vectors over at most every value.
  const std::size_t witness = witness_uploaded ? 0 : values * sizeof(Fr) + 3 * (values / 64 + 1) * 8;
  // The A query gathered (a flag byte per value), classified (two flag bytes and two 4-byte positions).
  const std::size_t a_query = n.a * (sizeof(Fr) + 3 + 2 * sizeof(std::uint32_t));
  return head_points(n.a, free_now, freed_later, witness + a_query + kStreamedHeadReserve, share);
}

std::size_t streamed_l_head_points(const io::bellperson::Params& params, std::size_t free_now,
                                   std::size_t freed_later, double share) {
  const auto n = params.lengths();
  const std::size_t l_classes = n.l * (2 * sizeof(std::uint32_t) + 3);
  const std::size_t b_values = n.b * sizeof(Fr);
  return head_points(n.l, free_now, freed_later, l_classes + b_values + kStreamedHeadReserve, share);
}

std::size_t streamed_b_head_points(const io::bellperson::Params& params, std::size_t free_now,
                                   std::size_t freed_later, double share, bool g2) {
  const auto n = params.lengths();
  if (g2)
    return head_points(n.b, free_now, freed_later, kStreamedHeadReserve, share, sizeof(io::bellperson::G2));
  const std::size_t b_classes = n.b * (2 * sizeof(std::uint32_t) + 2);
  return head_points(n.b, free_now, freed_later, b_classes + kStreamedHeadReserve, share);
}

double streamed_head_share() {
  return share_from_env("CUZK_STREAMED_HEAD", kStreamedHeadShare);
}

double streamed_l_head_share() {
  return share_from_env("CUZK_STREAMED_L_HEAD", kStreamedLHeadShare);
}

double streamed_b_head_share() {
  return share_from_env("CUZK_STREAMED_B_HEAD", kStreamedBHeadShare);
}

double streamed_b2_head_share() {
  return share_from_env("CUZK_STREAMED_B2_HEAD", kStreamedB2HeadShare);
}

}  // namespace cuzk::groth16::bellperson
