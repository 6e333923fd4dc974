// The GPU prover's plan choice (groth16/gpu_plan.hpp) is host arithmetic: tested here without a GPU on keys
// of real shape. The GPU tests run each plan and compare its proofs with the CPU's.
#include "groth16/gpu_plan.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

#include "cuda/fault_plan.hpp"
#include "ec/bls12_381.hpp"
#include "ec/bn254.hpp"
#include "groth16/bellperson.hpp"
#include "groth16/bellperson_plan.hpp"
#include "groth16/setup.hpp"
#include "r1cs/porep_like.hpp"

namespace cuzk::groth16::gpu {
namespace {

// A key of a 32 GiB PoRep partition's shape, lengths only (h, l, a, b), for the plans' and heads' sizes.
io::bellperson::Params porep_32gib_lengths() {
  io::bellperson::Params p;
  p.lengths_only =
      io::bellperson::Params::Lengths{(std::size_t(1) << 27) - 1, 130'169'893, 130'170'221, 33'000'000};
  return p;
}

TEST(GpuPlan, FootprintAddsUpTheKeysArraysAndChoiceStepsDownWithTheBudget) {
  using C = cuzk::Bls12_381;
  const auto g = r1cs::porep_like<C::Fr>(12, 7, 1);
  const auto pk = setup(g.system, random_toxic_waste<C>());
  const Footprint f = footprint(pk);
  const std::size_t n = pk.domain_size;
  EXPECT_EQ(f.tables, n * sizeof(C::Fr));
  // Compact tables: 2^6 + 2^6 elements for 2^12 (ntt/table_layout.hpp), what lean keeps instead.
  EXPECT_EQ(f.compact_tables, 128 * sizeof(C::Fr));
  EXPECT_EQ(f.need(Plan::kLean), f.compact_tables + f.row_index + f.proof + f.row_chunks);
  EXPECT_EQ(f.row_index, (2 * n + 1) * 4);
  EXPECT_EQ(f.rows, pk.coefs.size() * (4 + sizeof(C::Fr)));
  EXPECT_EQ(f.points, (pk.a.size() + pk.b1.size() + pk.c.size() + pk.h.size()) * sizeof(C::G1) +
                          pk.b2.size() * sizeof(C::G2));
  EXPECT_GE(f.proof, 3 * n * sizeof(C::Fr) + 2 * pk.n_vars * sizeof(C::Fr));
  // A small key fits in one row chunk: the lean plan's one buffer holds all entries.
  EXPECT_EQ(f.row_chunks, pk.coefs.size() * (4 + sizeof(C::Fr)));
  EXPECT_GT(f.need(Plan::kResident), f.need(Plan::kStreamed));

  // From the shape alone (what `cuzk info` reads from a .zkey header) it is the same for such a key.
  const Footprint shape = footprint_of_shape<C>(n, pk.n_vars, pk.n_public, pk.coefs.size());
  for (Plan p : {Plan::kResident, Plan::kStreamed, Plan::kLean}) EXPECT_EQ(shape.need(p), f.need(p));

  EXPECT_EQ(choose_plan(f, f.need(Plan::kResident)), Plan::kResident);
  EXPECT_EQ(choose_plan(f, f.need(Plan::kResident) - 1), Plan::kStreamed);
  EXPECT_EQ(choose_plan(f, f.need(Plan::kStreamed) - 1), Plan::kLean);
  EXPECT_EQ(choose_plan(f, 0), Plan::kLean);  // nothing fits: the smallest, which reports its own failure
}

// At PoRep scale (2^27, ~130 M signals, ~3.4 A/B entries per row, BLS12-381) the plans are what an operator
// sizes a card by: resident does not fit an 80 GiB card, lean fits 32 GiB.
TEST(GpuPlan, PorepScaleShapes) {
  const std::size_t n = std::size_t(1) << 27, v = 130'000'000, coefs = 442'000'000;
  const Footprint f = footprint_of_shape<cuzk::Bls12_381>(n, v, 1, coefs);
  constexpr std::size_t GiB = std::size_t(1) << 30;
  EXPECT_GT(f.need(Plan::kResident), 80 * GiB);
  EXPECT_LT(f.need(Plan::kLean), 32 * GiB);
  EXPECT_GT(f.need(Plan::kStreamed), f.need(Plan::kLean));
  EXPECT_EQ(f.row_chunks, 2 * (std::size_t(1) << 24) * (4 + 32));  // two 2^24-entry chunk buffers
}

TEST(GpuPlan, RowChunksNeverSplitARowAndStepDownEndsAtLean) {
  using C = cuzk::Bn254;
  const auto g = r1cs::porep_like<C::Fr>(10, 3, 1);
  const auto pk = setup(g.system, random_toxic_waste<C>());
  std::size_t longest = 0;
  std::vector<std::size_t> per_row(pk.domain_size, 0);
  for (const auto& e : pk.coefs) longest = std::max(longest, ++per_row[e.constraint]);
  EXPECT_EQ(row_chunk_entries(pk, 1), longest);  // a tiny target still takes the longest row whole
  EXPECT_EQ(row_chunk_entries(pk, 100), std::max<std::size_t>(100, longest));
  EXPECT_EQ(row_chunk_entries(pk, std::size_t(1) << 40), pk.coefs.size());  // never more than all entries
  EXPECT_EQ(smaller(Plan::kResident), Plan::kStreamed);
  EXPECT_EQ(smaller(Plan::kStreamed), Plan::kLean);
  EXPECT_EQ(smaller(Plan::kLean), std::nullopt);
  EXPECT_STREQ(to_string(Plan::kLean), "lean");
}

TEST(FaultPlan, FiresEveryNthAndAtARateReproducibly) {
  cuda::FaultPlan every3({3, 0, 1});
  std::vector<int> hits;
  for (int i = 1; i <= 10; ++i)
    if (every3.fire()) hits.push_back(i);
  EXPECT_EQ(hits, (std::vector<int>{3, 6, 9}));
  EXPECT_EQ(every3.fired(), 3u);
  cuda::FaultPlan off;
  for (int i = 0; i < 100; ++i) EXPECT_FALSE(off.fire());

  auto run = [](std::uint64_t seed) {
    cuda::FaultPlan p({0, 0.25, seed});
    std::vector<bool> out;
    for (int i = 0; i < 2000; ++i) out.push_back(p.fire());
    return out;
  };
  const auto a = run(5), b = run(5), c = run(6);
  EXPECT_EQ(a, b);  // the same seed replays the same faults
  EXPECT_NE(a, c);
  const auto fired = std::count(a.begin(), a.end(), true);
  EXPECT_GT(fired, 400);
  EXPECT_LT(fired, 600);
}

TEST(FaultPlan, EnvironmentOverridesAndRejectsGarbage) {
  ::setenv("CUZK_FAULT_TEST_EVERY", "7", 1);
  ::setenv("CUZK_FAULT_TEST_RATE", "0.5", 1);
  const auto spec = cuda::fault_spec_from_env("CUZK_FAULT_TEST", {});
  EXPECT_EQ(spec.every, 7u);
  EXPECT_DOUBLE_EQ(spec.rate, 0.5);
  ::setenv("CUZK_FAULT_TEST_RATE", "2", 1);
  EXPECT_THROW(cuda::fault_spec_from_env("CUZK_FAULT_TEST", {}), std::invalid_argument);
  ::setenv("CUZK_FAULT_TEST_RATE", "0.1x", 1);
  EXPECT_THROW(cuda::fault_spec_from_env("CUZK_FAULT_TEST", {}), std::invalid_argument);
  ::unsetenv("CUZK_FAULT_TEST_EVERY");
  ::unsetenv("CUZK_FAULT_TEST_RATE");
  EXPECT_FALSE(cuda::fault_spec_from_env("CUZK_FAULT_TEST", {}).enabled());
}

// A .params key has no coefficient rows: resident adds the five point vectors to what streamed (= lean)
// needs, and the sizes follow the vectors' lengths, also from a verifying-only read.
TEST(GpuPlan, BellpersonKeysAreResidentOrStreamed) {
  namespace bp = groth16::bellperson;
  const auto g = r1cs::porep_like<bp::Fr>(11, 5, 1);
  const auto params = bp::setup(g.system, random_toxic_waste<bp::Curve>());
  const Footprint f = bp::gpu_footprint(params);
  const std::size_t m = params.h.size() + 1;
  EXPECT_EQ(f.tables, m * sizeof(bp::Fr));
  EXPECT_EQ(f.rows + f.row_index + f.row_chunks, 0u);
  EXPECT_EQ(f.points, (params.h.size() + params.l.size() + params.a.size() + params.b_g1.size()) *
                              sizeof(io::bellperson::G1) +
                          params.b_g2.size() * sizeof(io::bellperson::G2));
  EXPECT_GE(f.proof, 2 * m * sizeof(bp::Fr));  // two domain-sized vectors at the H stage
  // Resident points: the split MSMs' scalars, [inputs, aux] and the B query gathered from it (the A query's
  // ones come from the aux values' classes), with two 4-byte positions per value classified.
  const std::size_t split = (params.vk.ic.size() + params.l.size() + params.b_g1.size()) * sizeof(bp::Fr) +
                            (params.l.size() + params.b_g1.size()) * 2 * sizeof(std::uint32_t);
  EXPECT_GE(f.proof_of(Plan::kResident), split);
  EXPECT_LT(f.proof_of(Plan::kResident),
            std::max(split + params.a.size() * sizeof(bp::Fr), 2 * m * sizeof(bp::Fr)) +
                groth16::gpu::msm_workspace(std::max(m, params.l.size())) + (std::size_t(1) << 20));
  // Streamed points: the same split form one query at a time, beside [inputs, aux]; the key keeps compact
  // NTT tables and a proof holds the full ones beside its H stage's two vectors.
  EXPECT_GE(f.proof_of(Plan::kStreamed),
            (params.vk.ic.size() + params.l.size() + std::max(params.a.size(), params.b_g1.size())) *
                sizeof(bp::Fr));
  EXPECT_EQ(f.proof_of(Plan::kStreamed), f.streamed_proof);
  EXPECT_GE(f.streamed_proof, f.tables + 2 * m * sizeof(bp::Fr));
  EXPECT_EQ(f.streamed_proof,
            std::max(f.proof, f.tables + 2 * m * sizeof(bp::Fr) +
                                  groth16::gpu::msm_workspace(std::max(m, params.l.size()))));
  EXPECT_EQ(f.need(Plan::kResident), f.tables + f.points + f.proof_of(Plan::kResident));
  // Lean: streamed with compact tables and its queries gathered in chunks (here one chunk holds them all).
  EXPECT_EQ(f.need(Plan::kStreamed), f.compact_tables + f.streamed_proof);
  EXPECT_EQ(f.need(Plan::kLean), f.compact_tables + f.proof_of(Plan::kLean));
  EXPECT_LE(f.proof_of(Plan::kLean), f.proof);
  EXPECT_LT(f.need(Plan::kLean), f.need(Plan::kStreamed));
  EXPECT_EQ(choose_plan(f, f.need(Plan::kStreamed) - 1), Plan::kLean);
  EXPECT_EQ(choose_plan(f, f.need(Plan::kResident)), Plan::kResident);
  EXPECT_EQ(choose_plan(f, f.need(Plan::kResident) - 1), Plan::kStreamed);
  io::bellperson::Params lengths_only;
  lengths_only.lengths_only = params.lengths();
  lengths_only.vk = params.vk;  // a verifying-only read has the verifying key: the inputs' count
  EXPECT_EQ(bp::gpu_footprint(lengths_only).need(Plan::kResident), f.need(Plan::kResident));
}

// At 32 GiB PoRep scale (h 2^27 − 1, ~130 M aux in l and a, a quarter of them in b): the points alone are
// ~47 GB, so one key is resident on an H200 and streamed on 32 and 16 GiB cards: the H stage holds two
// domain-sized vectors (8 GiB at 2^27), beside the 4 GiB of NTT tables.
TEST(GpuPlan, BellpersonPorepScale) {
  const io::bellperson::Params p = porep_32gib_lengths();
  const Footprint f = groth16::bellperson::gpu_footprint(p);
  constexpr std::size_t GiB = std::size_t(1) << 30;
  EXPECT_GT(f.points, 40 * GiB);
  EXPECT_LT(f.need(Plan::kResident), 100 * GiB);
  EXPECT_EQ(choose_plan(f, 139 * GiB), Plan::kResident);
  EXPECT_EQ(choose_plan(f, 32 * GiB), Plan::kStreamed);
  EXPECT_LT(f.need(Plan::kStreamed), 16 * GiB - (std::size_t(1) << 30));  // a 16 GiB card, context and margin
  EXPECT_GT(f.need(Plan::kStreamed), 12 * GiB);
  // 11 and 12 GiB cards get lean: the 4 GiB of NTT tables compact, the queries gathered 2^25 values at a
  // time. Its floor is the H stage's two domain-sized vectors (8 GiB) and the MSM's work space: under 10 GiB,
  // so an 11 GiB card (~10.5 GiB left after the CUDA context and cuzk's 512 MiB margin) holds it.
  EXPECT_LT(f.compact_tables, std::size_t(1) << 20);
  EXPECT_GE(f.need(Plan::kLean), 8 * GiB);
  EXPECT_LT(f.need(Plan::kLean), 10 * GiB);
  EXPECT_EQ(f.need(Plan::kLean), f.compact_tables + f.proof_of(Plan::kLean));
  for (std::size_t gib : {10, 11, 12, 13}) EXPECT_EQ(choose_plan(f, gib * GiB), Plan::kLean) << gib << " GiB";
  for (std::size_t gib : {15, 16, 24, 32, 48})
    EXPECT_EQ(choose_plan(f, gib * GiB), Plan::kStreamed) << gib << " GiB";
  // What the engine logs once per circuit and device, and what it says where nothing fits.
  EXPECT_EQ(describe_choice(f, 11 * GiB).substr(0, 12), "lean: needs ");
  EXPECT_NE(describe_choice(f, 11 * GiB).find("of the 11.0 GiB this process may hold"), std::string::npos);
  EXPECT_EQ(describe_choice(f, 16 * GiB).substr(0, 16), "streamed: needs ");
  EXPECT_EQ(describe_choice(f, 139 * GiB).substr(0, 16), "resident: needs ");
  const std::string none = describe_choice(f, 8 * GiB);
  EXPECT_EQ(
      none.rfind("no plan fits: the smallest (lean) needs " + format_gib(f.need(Plan::kLean)) + " of", 0), 0u)
      << none;
  EXPECT_NE(none.find("8.0 GiB is all this process may hold"), std::string::npos);
  EXPECT_EQ(format_gib(std::size_t(3) << 29), "1.5 GiB");
  EXPECT_EQ(format_gib(std::size_t(768) << 10), "0.8 MiB");
}

// The streamed plan's A query head, uploaded during the H MSM (bellperson_plan.hpp): all the room free then
// where the witness side still has what it needs once the H MSM gives its room back, less where it would
// not, none where nothing is left; `share` of it; never more than the query. At 32 GiB PoRep scale.
TEST(GpuPlan, StreamedHeadLeavesTheWitnessSideItsRoom) {
  namespace bp = groth16::bellperson;
  const io::bellperson::Params p = porep_32gib_lengths();
  constexpr std::size_t GiB = std::size_t(1) << 30;
  const std::size_t point = sizeof(io::bellperson::G1);
  // The A query gathered and classified: 32 + 3 + 8 bytes a value (5.2 GiB), and the MSM's reserve.
  const std::size_t later = 130'170'221 * std::size_t(43) + bp::kStreamedHeadReserve;
  // [inputs, aux] already up: 6 GiB free, 4 GiB of H scalars and 5 GiB of H MSM buffers to come back.
  ASSERT_LT(later, 9 * GiB);
  EXPECT_EQ(bp::streamed_head_points(p, 6 * GiB, 9 * GiB, true, 1.0), 6 * GiB / point);
  EXPECT_EQ(bp::streamed_head_points(p, 6 * GiB, 9 * GiB, true, 0.5), 3 * GiB / point);
  // Not yet: its 4.2 GB come off what is left after the H MSM.
  const std::size_t witness = 130'169'893 * sizeof(bp::Fr) + 3 * (130'169'893 / 64 + 1) * 8;
  EXPECT_EQ(bp::streamed_head_points(p, 6 * GiB, 9 * GiB, false, 1.0), (15 * GiB - later - witness) / point);
  EXPECT_EQ(bp::streamed_head_points(p, 2 * GiB, 4 * GiB, false, 1.0), 0u);
  EXPECT_EQ(bp::streamed_head_points(p, 6 * GiB, 9 * GiB, true, 0.0), 0u);
  EXPECT_EQ(bp::streamed_head_points(p, 100 * GiB, 100 * GiB, true, 1.0), 130'170'221u);
}

// The L query's head, uploaded during the A query's MSM: what is free then where the L query's classes, the
// B query's gathered values and the MSM reserve still fit once the A query's MSM gives its room back; less
// where they would not, none where nothing is left; `share` of it; never more than the query.
TEST(GpuPlan, StreamedLHeadLeavesTheLAndBQueriesTheirRoom) {
  namespace bp = groth16::bellperson;
  const io::bellperson::Params p = porep_32gib_lengths();
  constexpr std::size_t GiB = std::size_t(1) << 30;
  const std::size_t point = sizeof(io::bellperson::G1);
  // L's classes (11 bytes a value, 1.3 GiB), B's values (33 M at 32 bytes, 1 GiB) and the reserve.
  const std::size_t later =
      130'169'893 * std::size_t(11) + 33'000'000 * sizeof(bp::Fr) + bp::kStreamedHeadReserve;
  ASSERT_LT(later, 6 * GiB);
  EXPECT_EQ(bp::streamed_l_head_points(p, 8 * GiB, 6 * GiB, 1.0), 8 * GiB / point);
  EXPECT_EQ(bp::streamed_l_head_points(p, 8 * GiB, 6 * GiB, 0.5), 4 * GiB / point);
  EXPECT_EQ(bp::streamed_l_head_points(p, 8 * GiB, 2 * GiB, 1.0), (10 * GiB - later) / point);
  EXPECT_EQ(bp::streamed_l_head_points(p, 2 * GiB, 2 * GiB, 1.0), 0u);
  EXPECT_EQ(bp::streamed_l_head_points(p, 8 * GiB, 6 * GiB, 0.0), 0u);
  EXPECT_EQ(bp::streamed_l_head_points(p, 100 * GiB, 100 * GiB, 1.0), 130'169'893u);
}

// The B query's heads: its G1 points' during the L query's MSM keep B's classes (two positions and two flag
// bytes a value) and the reserve, its G2 points' (192 bytes each) during B's G1 MSM keep the reserve only.
TEST(GpuPlan, StreamedBHeadsLeaveTheBQueryItsRoom) {
  namespace bp = groth16::bellperson;
  const io::bellperson::Params p = porep_32gib_lengths();
  constexpr std::size_t GiB = std::size_t(1) << 30;
  const std::size_t g1 = sizeof(io::bellperson::G1), g2 = sizeof(io::bellperson::G2);
  ASSERT_EQ(g2, 2 * g1);
  const std::size_t g1_later = 33'000'000 * std::size_t(10) + bp::kStreamedHeadReserve;
  EXPECT_EQ(bp::streamed_b_head_points(p, 2 * GiB, 6 * GiB, 1.0, false), 2 * GiB / g1);
  EXPECT_EQ(bp::streamed_b_head_points(p, 2 * GiB, 6 * GiB, 0.5, false), GiB / g1);
  EXPECT_EQ(bp::streamed_b_head_points(p, 4 * GiB, 2 * GiB, 1.0, false), (6 * GiB - g1_later) / g1);
  EXPECT_EQ(bp::streamed_b_head_points(p, 4 * GiB, 2 * GiB, 1.0, true),
            (6 * GiB - bp::kStreamedHeadReserve) / g2);
  EXPECT_EQ(bp::streamed_b_head_points(p, 2 * GiB, GiB, 1.0, true), 0u);
  EXPECT_EQ(bp::streamed_b_head_points(p, 2 * GiB, 6 * GiB, 0.0, true), 0u);
  EXPECT_EQ(bp::streamed_b_head_points(p, 100 * GiB, 100 * GiB, 1.0, false), 33'000'000u);
  EXPECT_EQ(bp::streamed_b_head_points(p, 100 * GiB, 100 * GiB, 1.0, true), 33'000'000u);
}

// CUZK_STREAMED_HEAD, CUZK_STREAMED_L_HEAD, CUZK_STREAMED_B_HEAD and CUZK_STREAMED_B2_HEAD: unset takes the
// default, "off" none, a share in (0, 1] that share; anything else is refused, naming the variable.
TEST(GpuPlan, StreamedHeadSharesFromTheEnvironment) {
  namespace bp = groth16::bellperson;
  const std::tuple<const char*, double (*)(), double> knobs[] = {
      {"CUZK_STREAMED_HEAD", bp::streamed_head_share, bp::kStreamedHeadShare},
      {"CUZK_STREAMED_L_HEAD", bp::streamed_l_head_share, bp::kStreamedLHeadShare},
      {"CUZK_STREAMED_B_HEAD", bp::streamed_b_head_share, bp::kStreamedBHeadShare},
      {"CUZK_STREAMED_B2_HEAD", bp::streamed_b2_head_share, bp::kStreamedB2HeadShare}};
  for (const auto& [name, share, fallback] : knobs) {
    ::unsetenv(name);
    EXPECT_EQ(share(), fallback);
    ::setenv(name, "off", 1);
    EXPECT_EQ(share(), 0.0);
    ::setenv(name, "0.5", 1);
    EXPECT_EQ(share(), 0.5);
    ::setenv(name, "1", 1);
    EXPECT_EQ(share(), 1.0);
    for (const char* bad : {"0", "1.5", "-0.5", "x", "0.5x", "nan"}) {
      ::setenv(name, bad, 1);
      try {
        share();
        ADD_FAILURE() << name << "=" << bad << " accepted";
      } catch (const std::invalid_argument& e) {
        EXPECT_EQ(std::string(e.what()).rfind(std::string(name) + "=" + bad, 0), 0u) << e.what();
      }
    }
    ::unsetenv(name);
  }
}

}  // namespace
}  // namespace cuzk::groth16::gpu
