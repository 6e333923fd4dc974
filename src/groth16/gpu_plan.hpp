// How much of a proof stays in device memory: the GPU prover's plans, from the fastest (everything
// resident) to the smallest (the key streamed from pinned host memory in chunks), and the choice between
// them from the key's shape and the device memory the VRAM policy leaves (cuda/vram.hpp).
//
//   resident  the key's points, coefficient rows and NTT tables on the device; split MSMs (ones batch-added,
//             zeros skipped) over the resident points
//   streamed  points stay in (page-locked) host memory and every MSM streams them slice by slice
//   lean      the coefficient rows are streamed too, in row chunks through two buffers, for the abc stage;
//             the NTT twiddles are kept compact (ntt/table_layout.hpp: 768 KiB instead of 4 GiB at 2^27), and
//             bellperson keys gather their queries' scalars in chunks (what lets 11 GiB cards prove 2^27)
//
// Every plan frees the Montgomery witness after the abc stage and b and c after the H stage, and the
// MSMs size their slices from what is left, so the peak is what `Footprint` adds up. Host-only: the
// choice is unit-tested without a GPU.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "groth16/types.hpp"

namespace cuzk::groth16::gpu {

enum class Plan { kResident, kStreamed, kLean };
const char* to_string(Plan plan);
// The next smaller-footprint plan; nullopt after lean.
std::optional<Plan> smaller(Plan plan);

// Bytes of device memory, estimated from the key's shape (exact for the arrays, rounded up for the MSM's
// and CUB's work space).
struct Footprint {
  std::size_t tables = 0;          // NTT twiddles: one element per domain point
  std::size_t compact_tables = 0;  // the same, compact (lean)
  std::size_t row_index = 0;       // the CSR row offsets of A and B (kept on the device by every plan)
  std::size_t rows = 0;            // the CSR columns and values (streamed by lean)
  std::size_t points = 0;          // A, B1, B2, C, H (streamed by streamed and lean)
  std::size_t proof = 0;           // one proof's buffers at their peak, MSM slices at their smallest
  std::size_t row_chunks = 0;      // lean: the row-chunk buffers (two, or one if it holds every entry)
  // Resident: one proof's peak when it differs (bellperson keys gather their split MSMs' scalars on the
  // device); 0: `proof`.
  std::size_t resident_proof = 0;
  // Lean: one proof's peak when it differs (bellperson keys gather their queries in chunks); 0: `proof`.
  std::size_t lean_proof = 0;
  // Streamed: one proof's peak when its NTT tables are part of it (bellperson keys keep them compact and a
  // proof expands them for its H stage only); 0: `proof`, beside the full tables the key keeps.
  std::size_t streamed_proof = 0;
  // One proof's buffers under `plan` at their peak.
  std::size_t proof_of(Plan plan) const;
  // The whole of a plan: the key's device part plus one proof.
  std::size_t need(Plan plan) const;
};

template <class Curve>
Footprint footprint(const ProvingKey<Curve>& pk);

// Footprint::proof alone (cheap: no pass over the coefficients): what one proof's buffers need at their
// peak. A worker pre-staging its next witness leaves at least this much to the proof in progress.
template <class Curve>
std::size_t proof_footprint(const ProvingKey<Curve>& pk);

// Entries per row-chunk buffer of the lean plan: `target` (default 2^24), or the longest row of A plus B if
// that is longer, or all entries if there are fewer.
template <class Curve>
std::size_t row_chunk_entries(const ProvingKey<Curve>& pk, std::size_t target = std::size_t(1) << 24);

// The footprint from a key's shape alone (domain size, signals, public inputs, A/B coefficients), as a
// .zkey header gives it: what `cuzk info` prints before anything is decoded. Equal to footprint(pk) except
// that the lean plan's row chunk assumes no row is longer than 2^24 entries.
template <class Curve>
Footprint footprint_of_shape(std::size_t domain_size, std::size_t n_vars, std::size_t n_public,
                             std::size_t n_coefs);

// The MSM's slice work space for an MSM of `points` points: ~1 KiB per point (sort arrays, CUB, partials), up
// to the 2^20-point slice floor a large MSM takes.
std::size_t msm_workspace(std::size_t points);

// The plan with the most on the device that fits in `available` bytes; lean when none does (it may still
// run out of memory: the caller reports that).
Plan choose_plan(const Footprint& f, std::size_t available);

// "9.0 GiB", "512.0 MiB": device memory as the plan messages print it.
std::string format_gib(std::size_t bytes);

// Every plan's need, as `cuzk info` prints them: "resident 55.1 GiB, streamed 14.4 GiB, lean 9.0 GiB".
std::string describe_needs(const Footprint& f);

// What a key gets on a device that lets this process hold `capacity` bytes: the plan and what it needs
// ("lean: needs 9.0 GiB of the 11.0 GiB this process may hold"), or, when not even lean fits, that limit and
// the smallest device memory the key needs, for the operator to act on (a larger card, engine.vram_limit).
std::string describe_choice(const Footprint& f, std::size_t capacity);

}  // namespace cuzk::groth16::gpu
