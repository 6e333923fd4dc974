// Device memory for bellperson (.params) proofs on the GPU. Synthesis hands over a, b and c, so these keys
// have no coefficient rows: the plans are resident (the five point vectors on the device, shared by every
// proof), streamed (the points stay in page-locked host memory and every MSM streams them slice by slice;
// the key keeps compact NTT tables, which a proof expands for its H stage only) and lean (streamed, the H
// stage on the compact tables, the queries' scalars gathered in chunks: the plan of 11 and 12 GiB cards at
// 32 GiB PoRep). Host-only, unit-tested without a GPU.
#pragma once

#include <cstddef>

#include "groth16/gpu_plan.hpp"
#include "io/bellperson.hpp"

namespace cuzk::groth16::bellperson {

// Values of [inputs, aux] per query chunk in the lean plan (their gathered scalars: 1 GiB).
inline constexpr std::size_t kLeanQueryChunk = std::size_t(1) << 25;

// From the vectors' lengths (Params::lengths), so a verifying-only read sizes a key too.
groth16::gpu::Footprint gpu_footprint(const io::bellperson::Params& params);

// The streamed plan uploads the A query's first points while the H MSM computes (its own slices keep the bus
// busy for about a quarter of it: 12.9 GB against ~1 s at 32 GiB PoRep) into the device memory the H MSM
// leaves free; the A query's sum, the first of the witness side's bus-bound MSMs, then reads those slices
// there (msm::gpu::DeviceHead). How many points: `share` of what is free now (`free_now`), and never so many
// that the witness side lacks, once the H MSM and its scalars give back `freed_later`, what it holds up to
// and during the A query's sum: [inputs, aux] and the densities when not uploaded yet, the A query's gathered
// and classified scalars, and kStreamedHeadReserve for that MSM's buckets, sort arrays and slices.
inline constexpr std::size_t kStreamedHeadReserve = std::size_t(3) << 30;
std::size_t streamed_head_points(const io::bellperson::Params& params, std::size_t free_now,
                                 std::size_t freed_later, bool witness_uploaded, double share);

// The L query's head, uploaded while the A query's MSM computes (its own head read, that MSM leaves the bus
// idle for most of its ~0.2 s at 32 GiB PoRep); the L query is then summed right after A (the B query's
// values gathered first, since L's classification overwrites [inputs, aux]). How many points: `share` of
// `free_now` (what is free once the A query's MSM holds its buffers, less what it still allocates), and
// never so many that, once the A query's MSM, head and scalars give back `freed_later`, the L query lacks
// its classes (2 positions and 3 flag bytes a value), the B query's gathered values, and
// kStreamedHeadReserve.
std::size_t streamed_l_head_points(const io::bellperson::Params& params, std::size_t free_now,
                                   std::size_t freed_later, double share);

// The B query's heads, each uploaded once the MSM before it has sent its last slice: its G1 points' during
// the L query's MSM (`g2` false: never so many that, once that MSM gives back `freed_later`, the B query
// lacks its classes, two positions and two flag bytes a value, and kStreamedHeadReserve), its G2 points'
// during the B query's G1 MSM (only the reserve kept). `share` of `free_now`; never more than the query.
std::size_t streamed_b_head_points(const io::bellperson::Params& params, std::size_t free_now,
                                   std::size_t freed_later, double share, bool g2);

// CUZK_STREAMED_HEAD, read at every proof: the share above, "off" (0) or a number in (0, 1]; unset:
// kStreamedHeadShare. Anything else throws std::invalid_argument. Timed on an H100 (2^27 partition, ms;
// bench/RESULTS.md 2026-12-07): off / 0.5 / 1 gave 2,266 / 2,228 / 2,228 under a 24 GiB limit and 2,467 /
// 2,458 / 2,577 under 16 (at 1 the A query's own MSM had too little room left: smaller slices, more merges).
inline constexpr double kStreamedHeadShare = 0.5;
double streamed_head_share();

// CUZK_STREAMED_L_HEAD, the L query head's share, read and checked as CUZK_STREAMED_HEAD; unset:
// kStreamedLHeadShare. Timed on an H100 (2^27 partition, bench/RESULTS.md 2026-12-07): started with the A
// query's MSM, 0.5 made 24 GiB 2,229.5 → 2,267.0 ms (its copy shared the bus with A's slices); queued after
// A's last upload, 2,235.1 → 2,236.2 (A +47 ms, L −43: the A query's MSM ended only once the head was up,
// because its streamed points' buffers were freed by cudaFree, which waits for every stream). With those
// buffers stream-ordered: off / 0.5 gave 2,224.2 / 2,204.2 under 24 GiB and 2,466.8 / 2,411.4 under 16.
inline constexpr double kStreamedLHeadShare = 0.5;
double streamed_l_head_share();

// CUZK_STREAMED_B_HEAD, the share of the B query's G1 head (uploaded during the L query's MSM), and
// CUZK_STREAMED_B2_HEAD, its G2 head's (during the B query's G1 MSM), read and checked as CUZK_STREAMED_HEAD;
// unset: off. Timed together at 0.5 beside the L head at 0.5 (H100, 2026-12-07, stream-ordered MSM buffers):
// 24 GiB 2,204.2 → 2,243.9 ms, the B G1 MSM 64.6 → 31.0 but the B G2 MSM 141.0 → 209.8 (its head cannot go up
// in the ~30 ms of the B G1 MSM, and holds the room its own MSM would have); the G1 head alone not yet timed.
inline constexpr double kStreamedBHeadShare = 0.0;
double streamed_b_head_share();
inline constexpr double kStreamedB2HeadShare = 0.0;
double streamed_b2_head_share();

}  // namespace cuzk::groth16::bellperson
