// SnapDeals (prove-replica-update) as Curio asks for it, through a real cuzk-daemon on a unix socket: a
// generated 2 KiB sector update's partition proof (bincode PartitionProof) goes in as vanilla_proofs with
// comm_r_old, comm_r_new and comm_d_new, with a TEST-ONLY key under its standard name in a parameter cache;
// the returned proof verifies against the public inputs filecoin-proofs computes from those commitments
// (k_and_h_select, comm_r_old, comm_d_new, comm_r_new); malformed and inconsistent requests are refused with
// a clear error while the good job proves; the job shows as snap_deals in /status and /metrics.
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>
#include <httplib.h>

#include <string>

#include "cuzk/v1/proving.grpc.pb.h"
#include "daemon/daemon_process.hpp"
#include "daemon/filecoin_test_keys.hpp"
#include "filecoin/porep_vanilla_verify.hpp"
#include "filecoin/update_test_data.hpp"
#include "filecoin/update_vanilla.hpp"
#include "groth16/bellperson.hpp"
#include "io/bellperson.hpp"
#include "unit/engine_test_util.hpp"
#include "unit/sanitizer_skip.hpp"

namespace cuzk {
namespace {

namespace v1 = cuzk::v1;
namespace bp = groth16::bellperson;
using test::await;
using test::Daemon;
using test::submit;

std::string commitment_bytes(const filecoin::Fr& x) {
  const auto r = filecoin::fr_to_repr(x);
  return {r.begin(), r.end()};
}

v1::SubmitProofRequest snap_request(const std::string& id, const filecoin::UpdateParams& params,
                                    const filecoin::UpdateTestSector& sector) {
  v1::SubmitProofRequest q;
  q.set_request_id(id);
  q.set_proof_kind(v1::SNAP_DEALS_UPDATE);
  q.set_sector_size(params.sector_bytes);
  q.set_miner_id(1000);
  q.set_sector_number(7);
  for (const auto& p : sector.partitions) {
    const auto bytes = filecoin::encode_update_vanilla_proof(p, params);
    q.add_vanilla_proofs(std::string(bytes.begin(), bytes.end()));
  }
  q.set_comm_r_old(commitment_bytes(sector.commitments.comm_r_old));
  q.set_comm_r_new(commitment_bytes(sector.commitments.comm_r_new));
  q.set_comm_d_new(commitment_bytes(sector.commitments.comm_d_new));
  return q;
}

TEST(DaemonSnap, SnapDealsFromPartitionProofsVerifiesAndBadRequestsAreRefused) {
  CUZK_SKIP_UNDER_SANITIZER("a test-only setup and CPU proofs; the Release run covers them");
  test::ensure_test_key("snap-2k");
  test::TempRepository repo;
  Daemon d(repo.root(), "[filecoin]\nparameter_cache = \"" + test::test_parameter_cache().string() + "\"\n");

  const filecoin::UpdateParams& params = filecoin::update_params_for("2KiB");
  const filecoin::UpdateTestSector sector = filecoin::make_test_update_sector(params, 77);
  auto good = snap_request("snap-1000-7", params, sector);
  good.set_registered_proof(0);  // StackedDrg2KiBV1, which is also "unset": the sector size decides
  std::string job;
  ASSERT_TRUE(submit(d, good, &job).ok());

  auto refused = [&](const v1::SubmitProofRequest& q, const std::string& part) {
    const grpc::Status s = submit(d, q);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << part << ": " << s.error_message();
    EXPECT_NE(s.error_message().find(part), std::string::npos) << s.error_message();
  };
  auto truncated = good;
  truncated.set_vanilla_proofs(0, good.vanilla_proofs(0).substr(0, 500));
  refused(truncated, "partition proof 0");
  refused(truncated, "truncated");
  auto none = good;
  none.clear_vanilla_proofs();
  refused(none, "needs vanilla_proofs");
  auto two = good;
  two.add_vanilla_proofs(good.vanilla_proofs(0));
  refused(two, "2 partition proofs in the request; a 2KiB sector update has 1");
  auto short_comm = good;
  short_comm.set_comm_d_new("abc");
  refused(short_comm, "comm_d_new is 3 bytes");
  auto big_comm = good;
  big_comm.set_comm_r_new(std::string(32, '\xff'));
  refused(big_comm, "comm_r_new is not a canonical");
  auto other_old = good;
  other_old.set_comm_r_old(commitment_bytes(sector.commitments.comm_r_old + filecoin::Fr::one()));
  refused(other_old, "comm_r_old is not Poseidon");
  auto other_data = good;
  other_data.set_comm_d_new(commitment_bytes(sector.commitments.comm_d_new + filecoin::Fr::one()));
  refused(other_data, "root is not the partition's");
  auto tampered = sector;
  tampered.partitions[0].challenges[2].r_new.leaf += filecoin::Fr::one();
  refused(snap_request("tampered", params, tampered), "challenge 2");
  auto wrong_type = good;
  wrong_type.set_registered_proof(3);  // StackedDrg32GiBV1 for a 2 KiB sector
  refused(wrong_type, "StackedDrg32GiBV1 is for sectors of 34359738368 bytes");
  auto unknown_type = good;
  unknown_type.set_registered_proof(9);
  refused(unknown_type, "no RegisteredUpdateProof");
  auto no_size = good;
  no_size.set_sector_size(0);
  no_size.set_registered_proof(0);
  refused(no_size, "sector_size or registered_proof");
  auto witness = good;
  witness.set_witness("w");
  refused(witness, "brings no witnesses");

  const v1::AwaitProofResponse r = await(d, job);
  ASSERT_EQ(r.status(), v1::AwaitProofResponse::COMPLETED) << r.error_message();
  ASSERT_EQ(r.proof().size(), 192u * params.partitions);
  const auto vk = io::bellperson::read_vk(test::ensure_test_key("snap-2k").string());
  const auto proof =
      bp::decode_proof(std::span(reinterpret_cast<const std::uint8_t*>(r.proof().data()), 192), "proof", 0);
  const auto inputs = filecoin::update_public_inputs(params, 0, params.h_default, sector.commitments);
  EXPECT_TRUE(bp::verify(vk, inputs, proof).valid);
  auto other_inputs = inputs;
  other_inputs[0] += filecoin::Fr::one();  // another k_and_h_select: the proof is for this one alone
  EXPECT_FALSE(bp::verify(vk, other_inputs, proof).valid);

  httplib::Client http("127.0.0.1", d.http_port());
  const auto status = http.Get("/status");
  ASSERT_TRUE(status);
  EXPECT_NE(status->body.find("\"kind\": \"snap_deals\""), std::string::npos);
  const auto metrics = http.Get("/metrics");
  ASSERT_TRUE(metrics);
  EXPECT_NE(metrics->body.find("cuzk_proofs_completed_total{circuit=\"snap-2k\"} 1"), std::string::npos)
      << metrics->body.substr(0, 2000);
  EXPECT_NE(metrics->body.find("kind=\"snap_deals\""), std::string::npos);

  // With engine.isolation = "process" the worker process synthesizes the partition from the request the
  // daemon spooled, and proves it.
  test::TempRepository isolated_repo;
  Daemon isolated(isolated_repo.root(), "[filecoin]\nparameter_cache = \"" +
                                            test::test_parameter_cache().string() +
                                            "\"\n[engine]\nisolation = \"process\"\n");
  std::string isolated_job;
  ASSERT_TRUE(submit(isolated, snap_request("snap-isolated", params, sector), &isolated_job).ok());
  const v1::AwaitProofResponse ri = await(isolated, isolated_job);
  ASSERT_EQ(ri.status(), v1::AwaitProofResponse::COMPLETED) << ri.error_message();
  EXPECT_TRUE(
      bp::verify(vk, inputs,
                 bp::decode_proof(std::span(reinterpret_cast<const std::uint8_t*>(ri.proof().data()), 192),
                                  "proof", 0))
          .valid);
}

}  // namespace
}  // namespace cuzk
