// bellperson proofs on the GPU equal the CPU's byte for byte for fixed r and s, on a PoRep-shaped circuit of
// several partitions with random witnesses, and verify.
#include <gtest/gtest.h>

#include <array>
#include <cstdlib>
#include <map>
#include <stdexcept>

#include "cuda/stream.hpp"
#include "cuda/vram.hpp"
#include "ec/fixed_base_gpu.hpp"
#include "ff/random.hpp"
#include "gpu/gpu_test_util.hpp"
#include "groth16/bellperson_plan.hpp"
#include "groth16/gpu_bellperson.hpp"
#include "r1cs/porep_like.hpp"

namespace cuzk::groth16::bellperson {
namespace {

TEST(BellpersonGpu, ProofsEqualTheCpuAndVerify) {
  CUZK_REQUIRE_GPU();
  const auto g = r1cs::porep_like<Fr>(14, ff::random_nonzero_os<Fr>().to_int().v[0], 3);
  const auto params = setup(g.system, random_toxic_waste<Curve>());
  cuda::Stream stream;
  for (const auto& z : g.witnesses) {
    const auto w = synthesize(g.system, z);
    const Fr r = ff::random_nonzero_os<Fr>(), s = ff::random_nonzero_os<Fr>();
    const auto on_gpu = gpu::prove(params, w, r, s, stream.get());
    EXPECT_EQ(on_gpu, prove(params, w, r, s));
    const std::vector<Fr> pub(w.inputs.begin() + 1, w.inputs.end());
    EXPECT_TRUE(verify(params.vk, pub, on_gpu).valid);
  }
}

// One key prepared per plan serves several proofs: resident (points on the device), streamed (points
// page-locked on the host, every MSM streaming them; compact NTT tables) and lean (streamed, the queries
// gathered in chunks: here of 1,000 values, so that A, B and L each take several, none aligned with
// anything) give the CPU's bytes; the key's device memory is exactly what it held while alive and comes back
// when it goes.
TEST(BellpersonGpu, ResidentStreamedAndLeanKeysServeManyProofsWithTheCpuBytes) {
  CUZK_REQUIRE_GPU();
  using groth16::gpu::Plan;
  const auto g = r1cs::porep_like<Fr>(13, ff::random_nonzero_os<Fr>().to_int().v[0], 3);
  const auto params = setup(g.system, random_toxic_waste<Curve>());
  cuda::Stream stream;
  const auto before = cuda::vram_usage(0).in_use;
  std::map<Plan, std::size_t> key_bytes;
  for (const auto plan : {Plan::kResident, Plan::kStreamed, Plan::kLean}) {
    const gpu::ResidentKey key(params, stream.get(), plan, 1000);
    EXPECT_EQ(key.plan(), plan);
    key_bytes[plan] = cuda::vram_usage(0).in_use - before;
    for (const auto& z : g.witnesses) {
      const auto w = synthesize(g.system, z);
      const Fr r = ff::random_nonzero_os<Fr>(), s = ff::random_nonzero_os<Fr>();
      const auto on_gpu = gpu::prove(params, key, w, r, s, stream.get());
      EXPECT_EQ(on_gpu, prove(params, w, r, s)) << groth16::gpu::to_string(plan);
      EXPECT_EQ(cuda::vram_usage(0).in_use - before, key_bytes[plan]) << "a proof left device memory behind";
    }
  }
  EXPECT_EQ(cuda::vram_usage(0).in_use, before);
  // Resident holds the points: at least 96 bytes per G1 point, 192 per G2 point, beyond the streamed key.
  const auto n = params.lengths();
  EXPECT_GE(key_bytes[Plan::kResident] - key_bytes[Plan::kStreamed],
            (n.h + n.l + n.a + n.b) * 96 + n.b * 192);
  // Lean's and streamed's tables are compact: 2^7 + 2^6 elements instead of the domain's 2^13 (a streamed
  // proof expands them for its H stage, and leaves nothing behind: checked above).
  EXPECT_EQ(key_bytes[Plan::kLean], (128 + 64) * sizeof(Fr));
  EXPECT_EQ(key_bytes[Plan::kStreamed], (128 + 64) * sizeof(Fr));
}

// The small cards' plans at the scale the issue names, a 2^24 partition (a 32 GiB PoRep's is 2^27): streamed
// (16 GiB cards) and lean (11 and 12 GiB), each under a VRAM limit of exactly what its footprint says it
// needs beside the key, give the CPU's bytes for the same r and s, and never hold more than that.
TEST(BellpersonGpu, SmallCardPlansProveA2To24PartitionWithinTheirFootprint) {
  CUZK_REQUIRE_GPU();
  using groth16::gpu::Plan;
  auto g = r1cs::porep_like<Fr>(24, ff::random_nonzero_os<Fr>().to_int().v[0], 1);
  const groth16::FixedBaseMul<Curve> on_gpu{
      [](const auto& t, const auto& k) { return ec::gpu::fixed_base_mul_all(t, k); },
      [](const auto& t, const auto& k) { return ec::gpu::fixed_base_mul_all(t, k); }};
  const auto params = setup(g.system, random_toxic_waste<Curve>(), on_gpu);
  const auto w = synthesize(g.system, g.witnesses[0]);
  g = {};
  const Fr r = ff::random_nonzero_os<Fr>(), s = ff::random_nonzero_os<Fr>();
  const auto expected = prove(params, w, r, s);
  const auto f = gpu_footprint(params);
  cuda::Stream stream;
  const cuda::VramPolicy saved = cuda::vram_policy();
  for (const auto plan : {Plan::kStreamed, Plan::kLean}) {
    const auto before = cuda::vram_usage(0).in_use;
    // The limit counts the margin: what is available to the key and the proof is the plan's need.
    cuda::set_vram_policy({before + saved.margin + f.need(plan), saved.margin});
    {
      const cuda::ThreadVramPeak peak;
      const gpu::ResidentKey key(params, stream.get(), plan, std::size_t(1) << 22);  // 4 chunks of A, B and L
      ASSERT_EQ(key.plan(), plan);
      EXPECT_EQ(gpu::prove(params, key, w, r, s, stream.get()), expected) << groth16::gpu::to_string(plan);
      EXPECT_LE(peak.bytes(), f.need(plan)) << groth16::gpu::to_string(plan);
    }
    cuda::set_vram_policy(saved);
    EXPECT_EQ(cuda::vram_usage(0).in_use, before);
  }
  // Never more than the streamed plan's (equal here: since the streamed key keeps compact NTT tables both
  // are bound by the H MSM's scalars at this shape; at 32 GiB PoRep lean is the smaller by GBs).
  EXPECT_LE(f.need(Plan::kLean), f.need(Plan::kStreamed));
}

// One small partition, its key resident, to prove on the GPU in the ways the tests below vary.
struct OnePartition {
  r1cs::PorepLike<Fr> g = r1cs::porep_like<Fr>(12, ff::random_nonzero_os<Fr>().to_int().v[0], 1);
  io::bellperson::Params params = setup(g.system, random_toxic_waste<Curve>());
  Assignment w = synthesize(g.system, g.witnesses[0]);
  cuda::Stream stream;
  gpu::ResidentKey key{params, stream.get()};
};

// a, b and c pre-staged on the device (one buffer, one after the other, as the engine uploads them ahead):
// the prover takes the buffer over, frees it, and gives the CPU's bytes.
TEST(BellpersonGpu, PrestagedAbcGiveTheSameProofAndAreFreed) {
  CUZK_REQUIRE_GPU();
  OnePartition p;
  const auto& [g, params, w, stream, key] = p;
  const std::size_t n = w.a.size();
  cuda::DeviceBuffer<Fr> abc(3 * n);
  abc.upload(w.a.data(), n, stream.get(), 0);
  abc.upload(w.b.data(), n, stream.get(), n);
  abc.upload(w.c.data(), n, stream.get(), 2 * n);
  const Fr r = ff::random_nonzero_os<Fr>(), s = ff::random_nonzero_os<Fr>();
  EXPECT_EQ(gpu::prove(params, key, w, r, s, stream.get(), nullptr, &abc), prove(params, w, r, s));
  EXPECT_EQ(abc.size(), 0u) << "the pre-staged buffer was not taken over";
  cuda::DeviceBuffer<Fr> wrong(3 * n - 1);
  EXPECT_THROW(gpu::prove(params, key, w, r, s, stream.get(), nullptr, &wrong), Error);
}

// Without pre-staging, the H stage uploads c into a third buffer where the VRAM policy leaves room for one
// beside a 1 GiB margin, and otherwise into the second buffer once A·B is formed: both give the CPU's bytes.
TEST(BellpersonGpu, CGoesUpWithAndWithoutRoomForAThirdBuffer) {
  CUZK_REQUIRE_GPU();
  const OnePartition p;
  const auto& [g, params, w, stream, key] = p;
  const Fr r = ff::random_nonzero_os<Fr>(), s = ff::random_nonzero_os<Fr>();
  const auto expected = prove(params, w, r, s);
  constexpr std::size_t kGiB = std::size_t(1) << 30;
  ASSERT_GT(cuda::vram_available(), 2 * kGiB);  // room for the third buffer
  EXPECT_EQ(gpu::prove(params, key, w, r, s, stream.get()), expected);
  const cuda::VramPolicy saved = cuda::vram_policy();
  // The limit counts the margin too: 512 MiB available, enough for the rest of the proof at this size.
  cuda::set_vram_policy({cuda::vram_usage(0).in_use + saved.margin + kGiB / 2, saved.margin});
  ASSERT_LT(cuda::vram_available(), kGiB);  // no third buffer: c waits for the second
  EXPECT_EQ(gpu::prove(params, key, w, r, s, stream.get()), expected);
  cuda::set_vram_policy(saved);
}

// The streamed plan uploads the A query's first points during the H MSM (CUZK_STREAMED_HEAD), the L query's
// during the A query's MSM (CUZK_STREAMED_L_HEAD) and the B query's G1 and G2 points during the L and B G1
// MSMs (CUZK_STREAMED_B_HEAD, CUZK_STREAMED_B2_HEAD, set together here): none, part of the query (its slices
// straddling the head's end), or all of it, each head alone and all of them; each gives the CPU's bytes and
// leaves no device memory behind. A share outside (0, 1] is refused.
TEST(BellpersonGpu, StreamedProofsWithAndWithoutQueryHeads) {
  CUZK_REQUIRE_GPU();
  using groth16::gpu::Plan;
  const auto g = r1cs::porep_like<Fr>(13, ff::random_nonzero_os<Fr>().to_int().v[0], 1);
  const auto params = setup(g.system, random_toxic_waste<Curve>());
  const auto w = synthesize(g.system, g.witnesses[0]);
  const Fr r = ff::random_nonzero_os<Fr>(), s = ff::random_nonzero_os<Fr>();
  const auto expected = prove(params, w, r, s);
  cuda::Stream stream;
  const gpu::ResidentKey key(params, stream.get(), Plan::kStreamed);
  const auto before = cuda::vram_usage(0).in_use;
  // Without a limit the room free at the H MSM (and at the A query's MSM) holds all of this key's A (L) query
  // many times over: a share of 1e-7 of tens of GiB is some dozens of points, a part of the query.
  ASSERT_GT(cuda::vram_available(), std::size_t(8) << 30);
  const std::array<const char*, 3> shares[] = {
      {"off", "off", "off"},  {"1e-7", "off", "off"},   {"1", "off", "off"},
      {"off", "1e-7", "off"}, {"off", "1", "off"},      {"off", "off", "1e-7"},
      {"off", "off", "1"},    {"1e-7", "1e-7", "1e-7"}, {"1", "1", "1"}};
  for (const auto& [a, l, b] : shares) {
    ::setenv("CUZK_STREAMED_HEAD", a, 1);
    ::setenv("CUZK_STREAMED_L_HEAD", l, 1);
    ::setenv("CUZK_STREAMED_B_HEAD", b, 1);
    ::setenv("CUZK_STREAMED_B2_HEAD", b, 1);
    EXPECT_EQ(gpu::prove(params, key, w, r, s, stream.get()), expected) << a << " " << l << " " << b;
    EXPECT_EQ(cuda::vram_usage(0).in_use, before) << a << " " << l << " " << b;
  }
  for (const char* name :
       {"CUZK_STREAMED_HEAD", "CUZK_STREAMED_L_HEAD", "CUZK_STREAMED_B_HEAD", "CUZK_STREAMED_B2_HEAD"}) {
    ::setenv(name, "2", 1);
    EXPECT_THROW(gpu::prove(params, key, w, r, s, stream.get()), std::invalid_argument) << name;
    ::unsetenv(name);
  }
  EXPECT_EQ(cuda::vram_usage(0).in_use, before);
}

}  // namespace
}  // namespace cuzk::groth16::bellperson
