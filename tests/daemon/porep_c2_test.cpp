// PoRep C2 as Curio asks for it, through a real cuzk-daemon on a unix socket: generated 2 KiB C1 outputs
// (Curio's envelope and the bare JSON; interactive and synthetic PoRep) go in as POREP_SEAL_COMMIT vanilla
// proofs, with a TEST-ONLY key under its standard name in a parameter cache, and every returned proof
// verifies against the public inputs the C1 output's challenges give. Malformed requests are refused with a
// clear error while the good jobs keep proving; a tampered label or path fails its job before any proof is
// made.
#include "filecoin/porep_c2.hpp"

#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>

#include "cuzk/v1/proving.grpc.pb.h"
#include "daemon/daemon_process.hpp"
#include "daemon/filecoin_test_keys.hpp"
#include "filecoin/c1_output.hpp"
#include "filecoin/c1_test_data.hpp"
#include "filecoin/circuit_catalog.hpp"
#include "filecoin/porep_synthesis.hpp"
#include "filecoin/post_test_data.hpp"
#include "filecoin/post_vanilla.hpp"
#include "groth16/bellperson.hpp"
#include "io/bellperson.hpp"
#include "unit/engine_test_util.hpp"
#include "unit/sanitizer_skip.hpp"

namespace cuzk {
namespace {

namespace v1 = cuzk::v1;
namespace bp = groth16::bellperson;
using test::Daemon;

std::vector<std::uint8_t> bytes_of(const std::string& s) {
  return {s.begin(), s.end()};
}

// The 2 KiB C1 output of seed 5 and a TEST-ONLY key for the 2 KiB PoRep circuit in `cache` (made once per
// process: the setup is ~80 s on two cores).
const filecoin::C1Output& good_c1() {
  static const filecoin::C1Output c1 = filecoin::make_test_c1_output(filecoin::porep_params_for("2KiB"), 5);
  return c1;
}
const std::filesystem::path& parameter_cache() {
  test::ensure_test_key("porep-2k");
  return test::test_parameter_cache();
}

v1::SubmitProofRequest porep_request(const std::string& id, const std::string& vanilla,
                                     std::uint64_t sector_size = 0) {
  v1::SubmitProofRequest r;
  r.set_request_id(id);
  r.set_proof_kind(v1::POREP_SEAL_COMMIT);
  r.set_vanilla_proof(vanilla);
  r.set_sector_size(sector_size);
  r.set_registered_proof(6);  // as Curio sets it; the daemon reads the C1 output's own
  return r;
}

using test::await;
using test::submit;

// Every partition's 192 bytes, in order, verify against the public inputs of the C1 output's challenges.
void expect_verifies(const v1::AwaitProofResponse& r, const std::string& c1_text) {
  ASSERT_EQ(r.status(), v1::AwaitProofResponse::COMPLETED) << r.error_message();
  const auto in = filecoin::read_porep_c1(bytes_of(c1_text), "c1");
  ASSERT_EQ(r.proof().size(), 192u * in.partitions.size());
  EXPECT_GT(r.synthesis_ms(), 0u);
  const auto vk = io::bellperson::read_vk(
      (parameter_cache() / filecoin::porep_circuit(in.params()).parameter_file).string());
  for (std::size_t k = 0; k < in.partitions.size(); ++k) {
    const auto proof = bp::decode_proof(
        std::span(reinterpret_cast<const std::uint8_t*>(r.proof().data()) + 192 * k, 192), "proof", k);
    EXPECT_TRUE(bp::verify(vk, in.public_inputs[k], proof).valid) << in.proof->name << " partition " << k;
  }
}

v1::JobStatus job_status(Daemon& d, const std::string& job_id) {
  v1::GetStatusResponse s;
  grpc::ClientContext ctx;
  EXPECT_TRUE(d.stub().GetStatus(&ctx, v1::GetStatusRequest(), &s).ok());
  for (const auto& j : s.jobs())
    if (j.job_id() == job_id) return j;
  ADD_FAILURE() << "no job " << job_id;
  return {};
}

TEST(DaemonPorepC2, CurioRequestsProveAndBadOnesAreRefusedWhileTheyDo) {
  CUZK_SKIP_UNDER_SANITIZER("a 2^22 test-only setup and CPU proofs; the Release run covers them");
  const std::string json = filecoin::write_seal_commit_phase1_output(good_c1());
  const std::string envelope = filecoin::write_curio_c1_envelope(7, 2048, json);
  test::TempRepository repo;
  Daemon d(repo.root(), "[filecoin]\nparameter_cache = \"" + parameter_cache().string() + "\"\n");

  // Good jobs first, as Curio sends them (the envelope) and as the bare C1 JSON; and a synthetic-PoRep
  // sector's, whose challenges follow from comm_r (same circuit and key, another porep_id and graph). The
  // bare JSON decodes to the envelope's C1 output (filecoin_c1_output_test): the daemon must take it as the
  // same one-partition job of the same circuit, which is then cancelled rather than proved a second time
  // (a 2^22 CPU proof is a minute of CI).
  std::string good_envelope, good_bare, good_synthetic;
  ASSERT_TRUE(submit(d, porep_request("porep-1000-7", envelope, 2048), &good_envelope).ok());
  ASSERT_TRUE(submit(d, porep_request("porep-1000-8", json), &good_bare).ok());
  {
    const v1::JobStatus bare = job_status(d, good_bare), enveloped = job_status(d, good_envelope);
    EXPECT_EQ(bare.partitions_total(), 1u);
    EXPECT_EQ(bare.partitions_total(), enveloped.partitions_total());
    EXPECT_EQ(bare.circuit_id(), enveloped.circuit_id());
    EXPECT_TRUE(test::cancel(d, good_bare).ok());
  }
  const std::string synthetic = filecoin::write_curio_c1_envelope(
      9, 2048,
      filecoin::write_seal_commit_phase1_output(filecoin::make_test_c1_output(
          filecoin::registered_seal_proof_for(filecoin::porep_params_for("2KiB"),
                                              filecoin::ApiVersion::V1_2_0,
                                              filecoin::PorepFeature::kSyntheticPoRep),
          6)));
  ASSERT_TRUE(submit(d, porep_request("porep-1000-9", synthetic, 2048), &good_synthetic).ok());

  // While they prove: requests refused at submit with the reason, and no job made.
  auto refused = [&](const v1::SubmitProofRequest& r, const std::string& why) {
    const grpc::Status s = submit(d, r);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << why << ": " << s.error_message();
    return s.error_message();
  };
  EXPECT_NE(refused(porep_request("truncated", envelope.substr(0, envelope.size() / 2)), "truncated")
                .find("C1 output"),
            std::string::npos);
  EXPECT_NE(refused(porep_request("size", envelope, 8 << 20), "another sector size").find("sector"),
            std::string::npos);
  std::string unknown = json;
  unknown.replace(unknown.find("StackedDrg2KiBV1_1"), 18, "StackedDrg2KiBV9_9");
  EXPECT_NE(
      refused(porep_request("unknown", unknown), "an unknown registered proof").find("registered_proof"),
      std::string::npos);
  const auto c1_8mib = filecoin::make_test_c1_output(filecoin::porep_params_for("8MiB"), 3);
  EXPECT_NE(refused(porep_request("no-params", filecoin::write_seal_commit_phase1_output(c1_8mib)),
                    "a missing parameter file")
                .find(filecoin::porep_circuit(filecoin::porep_params_for("8MiB")).parameter_file),
            std::string::npos);
  v1::SubmitProofRequest no_vanilla = porep_request("empty", "");
  EXPECT_EQ(submit(d, no_vanilla).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  v1::SubmitProofRequest post = porep_request("wpost", json);
  post.set_proof_kind(v1::WINDOW_POST_PARTITION);  // a C1 output is no PoSt request
  EXPECT_EQ(submit(d, post).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  v1::SubmitProofRequest snap = porep_request("snap", json);
  snap.set_proof_kind(v1::SNAP_DEALS_UPDATE);
  EXPECT_EQ(submit(d, snap).error_code(), grpc::StatusCode::INVALID_ARGUMENT);  // C1 is no partition proof

  // Tampered data the reader cannot tell (it hashes nothing): the circuit can, before any proving.
  filecoin::C1Output label = good_c1();
  label.partitions[0].challenges[1].drg_parents[2].rows[0] += filecoin::Fr::one();  // the writer keeps the
  std::string tampered_label;                                                       // labeling proofs in step
  ASSERT_TRUE(
      submit(d, porep_request("label", filecoin::write_seal_commit_phase1_output(label)), &tampered_label)
          .ok());
  filecoin::C1Output path = good_c1();
  path.partitions[0].challenges[0].comm_r_last_path.levels[0].siblings[3] += filecoin::Fr::one();
  std::string tampered_path;
  ASSERT_TRUE(
      submit(d, porep_request("path", filecoin::write_seal_commit_phase1_output(path)), &tampered_path).ok());
  for (const std::string& id : {tampered_label, tampered_path}) {
    const auto r = await(d, id);
    EXPECT_EQ(r.status(), v1::AwaitProofResponse::FAILED) << id;
    EXPECT_TRUE(r.proof().empty()) << id;
    EXPECT_NE(r.error_message().find("does not hold"), std::string::npos) << r.error_message();
  }

  expect_verifies(await(d, good_envelope), envelope);
  EXPECT_EQ(await(d, good_bare).status(), v1::AwaitProofResponse::CANCELLED);
  expect_verifies(await(d, good_synthetic), synthetic);
}

// A WinningPoSt (CRITICAL when the request names no priority, as Curio leaves it) submitted while PoRep jobs
// keep both workers busy and more wait: it is proved on the next worker that frees, before every PoRep job
// that was queued ahead of it. The first worker is freed by cancelling its PoRep job (the partition stops at
// its next stage): waiting for a 2^22 CPU proof to end took two minutes of CI for the same check.
TEST(DaemonPorepC2, AWinningPostBehindPorepJobsStartsNext) {
  CUZK_SKIP_UNDER_SANITIZER("a 2^22 test-only setup and CPU proofs; the Release run covers them");
  const std::string json = filecoin::write_seal_commit_phase1_output(good_c1());
  test::ensure_test_key("winning-2k");
  test::TempRepository repo;
  Daemon d(repo.root(), "[filecoin]\nparameter_cache = \"" + parameter_cache().string() + "\"\n");
  std::vector<std::string> porep(4);
  for (std::size_t i = 0; i < porep.size(); ++i)
    ASSERT_TRUE(submit(d, porep_request("porep-1000-" + std::to_string(i), json), &porep[i]).ok());
  // Both workers on PoRep, two PoRep jobs queued.
  for (int tries = 0; job_status(d, porep[1]).state() != v1::JobStatus::RUNNING && tries < 600; ++tries)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  ASSERT_EQ(job_status(d, porep[0]).state(), v1::JobStatus::RUNNING);
  std::vector<std::string> queued;
  for (std::size_t i = 2; i < porep.size(); ++i)
    if (job_status(d, porep[i]).state() == v1::JobStatus::QUEUED) queued.push_back(porep[i]);
  ASSERT_FALSE(queued.empty());

  std::array<std::uint8_t, 32> r{};
  r[0] = 9;
  auto params = filecoin::post_params_for(filecoin::PostKind::kWinning, "2KiB");
  params.challenges = 66;  // one sector's proof with every challenge
  const auto vanilla = filecoin::make_test_post_vanilla_proof(params, r, 77, 3);
  v1::SubmitProofRequest win;
  win.set_request_id("winpost-1000");
  win.set_proof_kind(v1::WINNING_POST);
  win.set_sector_size(2048);
  win.set_randomness(std::string(r.begin(), r.end()));
  const auto bytes = filecoin::encode_post_vanilla_proof(vanilla, params);
  win.add_vanilla_proofs(std::string(bytes.begin(), bytes.end()));
  std::string win_job;
  ASSERT_TRUE(submit(d, win, &win_job).ok());
  EXPECT_EQ(job_status(d, win_job).priority(), v1::CRITICAL);
  // Its worker frees at the partition's next stage: the WinningPoSt must go there.
  EXPECT_TRUE(test::cancel(d, porep[0]).ok());
  const auto done = await(d, win_job);
  ASSERT_EQ(done.status(), v1::AwaitProofResponse::COMPLETED) << done.error_message();
  const double win_start = job_status(d, win_job).partitions(0).start_ms();
  for (const std::string& id : queued) {
    const auto j = job_status(d, id);
    if (j.state() != v1::JobStatus::QUEUED) {
      EXPECT_GE(j.partitions(0).start_ms(), win_start) << id << " started before the WinningPoSt";
    }
  }
  for (const std::string& id : porep) EXPECT_TRUE(test::cancel(d, id).ok()) << id;
}

}  // namespace
}  // namespace cuzk
