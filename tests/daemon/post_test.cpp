// WindowPoSt and WinningPoSt as Curio asks for them, through a real cuzk-daemon on a unix socket: generated
// 2 KiB sector proofs (bincode FallbackPoStSectorProof) go in as vanilla_proofs with the randomness, with
// TEST-ONLY keys under their standard names in a parameter cache, and every returned proof verifies against
// the public inputs filecoin-proofs computes from the chain's view (comm_r, challenges from the
// randomness). Partial partitions are padded; API 1.0's per-partition challenge numbers are followed;
// malformed requests of each kind are refused with a clear error while the good jobs prove.
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>
#include <httplib.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <thread>

#include "cuzk/v1/proving.grpc.pb.h"
#include "daemon/daemon_process.hpp"
#include "daemon/filecoin_test_keys.hpp"
#include "filecoin/post_test_data.hpp"
#include "filecoin/post_vanilla.hpp"
#include "filecoin/registered_post_proof.hpp"
#include "groth16/bellperson.hpp"
#include "io/bellperson.hpp"
#include "unit/engine_test_util.hpp"
#include "unit/sanitizer_skip.hpp"

namespace cuzk {
namespace {

namespace v1 = cuzk::v1;
namespace bp = groth16::bellperson;
using filecoin::PostKind;
using test::Daemon;

std::array<std::uint8_t, 32> randomness(std::uint8_t fill) {
  std::array<std::uint8_t, 32> r{};
  for (std::size_t i = 0; i < r.size(); ++i) r[i] = static_cast<std::uint8_t>(fill * 13 + 5 * i);
  r[31] &= 0x3f;  // the chain's randomness is taken as a field element
  return r;
}

std::string bytes_text(const std::vector<std::uint8_t>& b) {
  return {b.begin(), b.end()};
}

struct Sector {
  std::uint64_t id;
  filecoin::PostVanillaProof proof;
  std::string bytes;
};

// One sector's proof for a WindowPoSt partition (first challenge number `first`) or a WinningPoSt.
Sector sector(PostKind kind, std::uint64_t id, const std::array<std::uint8_t, 32>& r,
              std::uint64_t first = 0) {
  auto params = filecoin::post_params_for(kind, "2KiB");
  if (kind == PostKind::kWinning) params.challenges = params.sectors * params.challenges;  // 66 in one proof
  auto proof = filecoin::make_test_post_vanilla_proof(params, r, id, 40 + id, first);
  return {id, proof, bytes_text(filecoin::encode_post_vanilla_proof(proof, params))};
}

v1::SubmitProofRequest post_request(const std::string& id, PostKind kind, const std::vector<Sector>& sectors,
                                    const std::array<std::uint8_t, 32>& r) {
  v1::SubmitProofRequest q;
  q.set_request_id(id);
  q.set_proof_kind(kind == PostKind::kWindow ? v1::WINDOW_POST_PARTITION : v1::WINNING_POST);
  q.set_sector_size(2048);
  q.set_randomness(std::string(r.begin(), r.end()));
  q.set_miner_id(1000);
  for (const Sector& s : sectors) q.add_vanilla_proofs(s.bytes);
  return q;
}

using test::await;
using test::submit;

// The public inputs from the chain's view: per sector comm_r and its challenged leaves (numbered from
// `firsts[i]`), the last sector repeated to fill the partition; WinningPoSt: per challenge comm_r and leaf.
std::vector<filecoin::Fr> chain_inputs(PostKind kind, const std::vector<Sector>& sectors,
                                       const std::array<std::uint8_t, 32>& r,
                                       const std::vector<std::uint64_t>& firsts = {}) {
  const auto params = filecoin::post_params_for(kind, "2KiB");
  std::vector<filecoin::Fr> in;
  if (kind == PostKind::kWinning) {
    for (std::uint64_t c : filecoin::post_challenges(r, sectors[0].id, params.nodes, 66)) {
      in.push_back(sectors[0].proof.comm_r);
      in.push_back(filecoin::Fr::from_u64(c));
    }
    return in;
  }
  for (std::size_t s = 0; s < params.sectors; ++s) {
    const std::size_t i = std::min(s, sectors.size() - 1);
    in.push_back(sectors[i].proof.comm_r);
    for (std::uint64_t c : filecoin::post_challenges(r, sectors[i].id, params.nodes, params.challenges,
                                                     firsts.empty() ? 0 : firsts[i]))
      in.push_back(filecoin::Fr::from_u64(c));
  }
  return in;
}

void expect_verifies(const v1::AwaitProofResponse& r, const std::string& circuit_id,
                     const std::vector<filecoin::Fr>& inputs) {
  ASSERT_EQ(r.status(), v1::AwaitProofResponse::COMPLETED) << r.error_message();
  ASSERT_EQ(r.proof().size(), 192u);
  EXPECT_GT(r.synthesis_ms(), 0u);
  const auto vk = io::bellperson::read_vk(test::ensure_test_key(circuit_id).string());
  const auto proof =
      bp::decode_proof(std::span(reinterpret_cast<const std::uint8_t*>(r.proof().data()), 192), "proof", 0);
  EXPECT_TRUE(bp::verify(vk, inputs, proof).valid) << circuit_id;
}

TEST(DaemonPost, WindowAndWinningPostFromVanillaProofsVerifyAndBadRequestsAreRefused) {
  CUZK_SKIP_UNDER_SANITIZER("test-only setups and CPU proofs; the Release run covers them");
  test::ensure_test_key("wpost-2k");
  test::ensure_test_key("winning-2k");
  test::TempRepository repo;
  Daemon d(repo.root(), "[filecoin]\nparameter_cache = \"" + test::test_parameter_cache().string() + "\"\n");

  // Good jobs: a full WindowPoSt partition (as the newest proof type, V1_2, named), a partial one (one
  // sector, padded), an API 1.0 partition 1 (challenges numbered across the proof), a WinningPoSt.
  const auto r = randomness(1);
  const std::vector<Sector> two{sector(PostKind::kWindow, 11, r), sector(PostKind::kWindow, 12, r)};
  auto full = post_request("wdpost-1000-0-aa", PostKind::kWindow, two, r);
  full.set_registered_proof(10);  // StackedDrgWindow2KiBV1_2
  std::string full_job, partial_job, v1_job, winning_job;
  ASSERT_TRUE(submit(d, full, &full_job).ok());
  const std::vector<Sector> one{two[1]};
  ASSERT_TRUE(submit(d, post_request("wdpost-1000-1-aa", PostKind::kWindow, one, r), &partial_job).ok());
  const auto window = filecoin::post_params_for(PostKind::kWindow, "2KiB");
  const std::uint64_t f0 = filecoin::post_challenge_index(filecoin::ApiVersion::V1_0_0, window, 1, 0, 0),
                      f1 = filecoin::post_challenge_index(filecoin::ApiVersion::V1_0_0, window, 1, 1, 0);
  const std::vector<Sector> legacy{sector(PostKind::kWindow, 21, r, f0),
                                   sector(PostKind::kWindow, 22, r, f1)};
  auto v1_0 = post_request("wdpost-1000-2-aa", PostKind::kWindow, legacy, r);
  v1_0.set_registered_proof(5);  // StackedDrgWindow2KiBV1
  v1_0.set_partition_index(1);
  ASSERT_TRUE(submit(d, v1_0, &v1_job).ok());
  const std::vector<Sector> win{sector(PostKind::kWinning, 31, r)};
  ASSERT_TRUE(submit(d, post_request("winpost-1000", PostKind::kWinning, win, r), &winning_job).ok());

  // While they prove: refused at submit, each with its reason.
  auto refused = [&](const v1::SubmitProofRequest& q, const std::string& part) {
    const grpc::Status s = submit(d, q);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << part << ": " << s.error_message();
    EXPECT_NE(s.error_message().find(part), std::string::npos) << s.error_message();
  };
  auto truncated = post_request("t", PostKind::kWindow, two, r);
  truncated.set_vanilla_proofs(1, two[1].bytes.substr(0, 100));
  refused(truncated, "vanilla proof 1");
  refused(truncated, "truncated");
  refused(post_request("other randomness", PostKind::kWindow, two, randomness(2)),
          "not the ones the randomness challenges");
  auto short_rand = post_request("short", PostKind::kWindow, two, r);
  short_rand.set_randomness("12345");
  refused(short_rand, "randomness is 5 bytes");
  auto big_rand = post_request("big", PostKind::kWindow, two, r);
  big_rand.set_randomness(std::string(32, '\xff'));
  refused(big_rand, "not a canonical");
  auto wrong_type = post_request("type", PostKind::kWindow, two, r);
  wrong_type.set_registered_proof(3);  // StackedDrgWinning32GiBV1
  refused(wrong_type, "not a WindowPoSt proof type");
  auto v1_wrong_partition = v1_0;
  v1_wrong_partition.set_partition_index(0);  // API 1.0 numbers partition 1's challenges differently
  refused(v1_wrong_partition, "not the ones the randomness challenges");
  auto none = post_request("none", PostKind::kWindow, {}, r);
  EXPECT_EQ(submit(d, none).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  const std::vector<Sector> three{two[0], two[1], sector(PostKind::kWindow, 13, r)};
  refused(post_request("three", PostKind::kWindow, three, r), "partition holds 2");
  auto bigger = post_request("8MiB", PostKind::kWindow, two, r);
  bigger.set_sector_size(8 << 20);  // the proofs are of 2 KiB sectors, and no 8 MiB key is in the cache
  const grpc::Status s8 = submit(d, bigger);
  EXPECT_EQ(s8.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << s8.error_message();
  refused(post_request("winning of two", PostKind::kWinning, {win[0], win[0]}, r), "one vanilla proof");
  refused(post_request("window as winning", PostKind::kWinning, two, r), "vanilla proof 0");
  auto no_size = post_request("no size", PostKind::kWindow, two, r);
  no_size.set_sector_size(0);
  refused(no_size, "sector_size or registered_proof");

  expect_verifies(await(d, full_job), "wpost-2k", chain_inputs(PostKind::kWindow, two, r));
  expect_verifies(await(d, partial_job), "wpost-2k", chain_inputs(PostKind::kWindow, one, r));
  expect_verifies(await(d, v1_job), "wpost-2k", chain_inputs(PostKind::kWindow, legacy, r, {f0, f1}));
  expect_verifies(await(d, winning_job), "winning-2k", chain_inputs(PostKind::kWinning, win, r));

  // The kinds in /status and the timing of each in /metrics.
  httplib::Client http("127.0.0.1", d.http_port());
  const auto status = http.Get("/status");
  ASSERT_TRUE(status);
  EXPECT_NE(status->body.find("\"kind\": \"window_post\""), std::string::npos);
  EXPECT_NE(status->body.find("\"kind\": \"winning_post\""), std::string::npos);
  const auto metrics = http.Get("/metrics");
  ASSERT_TRUE(metrics);
  EXPECT_NE(metrics->body.find("cuzk_proofs_completed_total{circuit=\"wpost-2k\"} 3"), std::string::npos)
      << metrics->body.substr(0, 2000);
  EXPECT_NE(metrics->body.find("kind=\"winning_post\""), std::string::npos);

  // With engine.isolation = "process" the worker process synthesizes the partition from the request the
  // daemon spooled (its synthesis time comes back with the proof), and proves it; the spooled request goes
  // with the job.
  test::TempRepository isolated_repo;
  Daemon isolated(isolated_repo.root(), "[filecoin]\nparameter_cache = \"" +
                                            test::test_parameter_cache().string() +
                                            "\"\n[engine]\nisolation = \"process\"\n");
  std::string isolated_job;
  ASSERT_TRUE(submit(isolated, full, &isolated_job).ok());
  expect_verifies(await(isolated, isolated_job), "wpost-2k", chain_inputs(PostKind::kWindow, two, r));
  const std::string prefix = "cuzk-" + std::to_string(isolated.pid()) + "-";
  auto spooled_requests = [&] {
    int n = 0;
    for (const auto& e : std::filesystem::directory_iterator("/dev/shm")) {
      const std::string name = e.path().filename().string();
      n += name.rfind(prefix, 0) == 0 && name.ends_with(".vanilla");
    }
    return n;
  };
  for (int i = 0; i < 50 && spooled_requests() > 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_EQ(spooled_requests(), 0) << "the spooled request outlived its job";
}

}  // namespace
}  // namespace cuzk
