// A real cuzk-daemon (CPU backend) on a unix socket, driven over gRPC: concurrent clients with mixed
// priorities (every proof checked with our verifier), bad requests, cancel, preload/evict in the
// status, HTTP /metrics /status /healthz, socket mode 0600, and SIGTERM draining acknowledged jobs.
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>
#include <httplib.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "cuzk/v1/proving.grpc.pb.h"
#include "daemon/daemon_process.hpp"
#include "groth16/verifier.hpp"
#include "io/json.hpp"
#include "io/zkey.hpp"
#include "service/grpc_service.hpp"
#include "unit/engine_test_util.hpp"

namespace cuzk {
namespace {

namespace v1 = cuzk::v1;
using test::Daemon;

v1::SubmitProofRequest request(const std::string& id, const std::string& circuit,
                               const std::vector<std::uint8_t>& w,
                               v1::Priority p = v1::PRIORITY_UNSPECIFIED) {
  v1::SubmitProofRequest r;
  r.set_request_id(id);
  r.set_circuit_id(circuit);
  r.set_witness(std::string(w.begin(), w.end()));
  r.set_priority(p);
  return r;
}

template <class Curve>
void expect_valid(const std::filesystem::path& root, const std::string& circuit,
                  const v1::AwaitProofResponse& r) {
  ASSERT_EQ(r.status(), v1::AwaitProofResponse::COMPLETED) << r.error_message();
  ASSERT_EQ(r.proof_json_size(), 1);
  const auto pk = io::read_zkey<Curve>((root / circuit / "circuit.zkey").string());
  EXPECT_TRUE(groth16::verify(pk.verifying_key(), io::public_from_json<Curve>(r.public_json(0), "public"),
                              io::proof_from_json<Curve>(r.proof_json(0), "proof"))
                  .valid);
}

// One job submitted and awaited over gRPC; its result (a failed call is reported and gives an empty one).
v1::AwaitProofResponse prove(Daemon& d, const std::string& id, const std::string& circuit,
                             const std::vector<std::uint8_t>& witness) {
  v1::SubmitProofResponse sub;
  grpc::ClientContext ctx;
  v1::AwaitProofResponse r;
  if (!d.stub().SubmitProof(&ctx, request(id, circuit, witness), &sub).ok()) {
    ADD_FAILURE() << "SubmitProof failed";
    return r;
  }
  v1::AwaitProofRequest a;
  a.set_job_id(sub.job_id());
  grpc::ClientContext actx;
  EXPECT_TRUE(d.stub().AwaitProof(&actx, a, &r).ok());
  return r;
}

TEST(Daemon, ServesConcurrentClientsAndRejectsBadRequests) {
  test::TempRepository repo;
  auto bn = repo.add<Bn254>("bn", 200);
  auto bls = repo.add<Bls12_381>("bls", 100);
  Daemon d(repo.root());
  struct stat st {};
  ASSERT_EQ(::stat(d.socket().c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);

  std::vector<std::thread> clients;
  std::atomic<int> ok{0};
  for (int i = 0; i < 8; ++i)
    clients.emplace_back([&, i] {
      const bool use_bls = i % 2;
      v1::ProveRequest req;
      *req.mutable_submit() = request("same-id", use_bls ? "bls" : "bn", use_bls ? bls[0] : bn[0],
                                      static_cast<v1::Priority>(1 + i % 4));
      v1::ProveResponse resp;
      grpc::ClientContext ctx;
      ASSERT_TRUE(d.stub().Prove(&ctx, req, &resp).ok());
      if (use_bls)
        expect_valid<Bls12_381>(repo.root(), "bls", resp.result());
      else
        expect_valid<Bn254>(repo.root(), "bn", resp.result());
      ++ok;
    });
  // Bad requests while they run: each a clear error for its caller only.
  auto submit_error = [&](const v1::SubmitProofRequest& r) {
    v1::SubmitProofResponse resp;
    grpc::ClientContext ctx;
    return d.stub().SubmitProof(&ctx, r, &resp);
  };
  auto garbage = submit_error(request("g", "bn", {1, 2, 3, 4, 5}));
  EXPECT_EQ(garbage.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(garbage.error_message().find("witness"), std::string::npos) << garbage.error_message();
  EXPECT_EQ(submit_error(request("u", "unknown", bn[0])).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(submit_error(request("o", "bn", bls[0])).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  std::vector<std::uint8_t> huge(9u << 20, 7);  // over the configured 8 MiB message limit
  EXPECT_EQ(submit_error(request("h", "bn", huge)).error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  huge.clear();
  huge.shrink_to_fit();
  for (auto& t : clients) t.join();
  EXPECT_EQ(ok, 8);

  // Cancel a queued job, preload/evict, status and metrics over gRPC and HTTP.
  v1::SubmitProofResponse sub;
  {
    grpc::ClientContext ctx;
    ASSERT_TRUE(d.stub().SubmitProof(&ctx, request("c", "bn", bn[0], v1::LOW), &sub).ok());
  }
  {
    ASSERT_TRUE(test::cancel(d, sub.job_id()).ok());
    v1::AwaitProofRequest a;
    a.set_job_id(sub.job_id());
    v1::AwaitProofResponse ar;
    grpc::ClientContext ctx2;
    ASSERT_TRUE(d.stub().AwaitProof(&ctx2, a, &ar).ok());
    EXPECT_TRUE(ar.status() == v1::AwaitProofResponse::CANCELLED ||
                ar.status() == v1::AwaitProofResponse::COMPLETED);
  }
  {
    v1::EvictSrsRequest req;
    req.set_circuit_id("bls");
    v1::EvictSrsResponse resp;
    grpc::ClientContext ctx;
    ASSERT_TRUE(d.stub().EvictSRS(&ctx, req, &resp).ok());
    EXPECT_TRUE(resp.was_loaded());
    EXPECT_GT(resp.freed_bytes(), 0u);
  }
  {
    v1::GetStatusResponse resp;
    grpc::ClientContext ctx;
    ASSERT_TRUE(d.stub().GetStatus(&ctx, {}, &resp).ok());
    EXPECT_GE(resp.total_proofs_completed(), 8u);
    bool bls_cold = false;
    for (const auto& s : resp.loaded_srs())
      bls_cold |= s.circuit_id() == "bls" && s.tier() == v1::SRSStatus::COLD;
    EXPECT_TRUE(bls_cold);
  }
  httplib::Client http("127.0.0.1", d.http_port());
  auto health = http.Get("/healthz");
  ASSERT_TRUE(health);
  EXPECT_EQ(health->status, 200);
  auto metrics = http.Get("/metrics");
  ASSERT_TRUE(metrics);
  EXPECT_NE(metrics->body.find("cuzk_proofs_completed_total{circuit=\"bn\"}"), std::string::npos)
      << metrics->body;
  EXPECT_NE(metrics->body.find("cuzk_queue_depth"), std::string::npos);
  auto status = http.Get("/status");
  ASSERT_TRUE(status);
  EXPECT_NE(status->body.find("\"jobs\""), std::string::npos);
  EXPECT_EQ(d.terminate(), 0);
}

TEST(Daemon, CriticalJobBehindTwentyNormalStartsNext) {
  test::TempRepository repo;
  auto w = repo.add<Bn254>("c", 2000);
  Daemon d(repo.root());  // two CPU workers
  std::vector<std::string> normal;
  for (int i = 0; i < 20; ++i) {
    v1::SubmitProofResponse sub;
    grpc::ClientContext ctx;
    ASSERT_TRUE(
        d.stub().SubmitProof(&ctx, request("n" + std::to_string(i), "c", w[0], v1::NORMAL), &sub).ok());
    normal.push_back(sub.job_id());
  }
  // The NORMAL jobs that had started by the time the CRITICAL one was submitted (a proof of this circuit
  // takes milliseconds, so on a loaded machine the workers may be a few jobs in already).
  auto started = [&] {
    v1::GetStatusResponse s;
    grpc::ClientContext ctx;
    EXPECT_TRUE(d.stub().GetStatus(&ctx, {}, &s).ok());
    return std::count_if(s.jobs().begin(), s.jobs().end(),
                         [](const v1::JobStatus& j) { return j.state() != v1::JobStatus::QUEUED; });
  };
  const auto started_before = started();
  v1::SubmitProofResponse crit;
  {
    grpc::ClientContext ctx;
    ASSERT_TRUE(d.stub().SubmitProof(&ctx, request("crit", "c", w[0], v1::CRITICAL), &crit).ok());
  }
  EXPECT_EQ(crit.queue_position(), 0u);
  for (const auto& id : normal) {
    v1::AwaitProofRequest a;
    a.set_job_id(id);
    v1::AwaitProofResponse r;
    grpc::ClientContext ctx;
    ASSERT_TRUE(d.stub().AwaitProof(&ctx, a, &r).ok());
    EXPECT_EQ(r.status(), v1::AwaitProofResponse::COMPLETED);
  }
  v1::GetStatusResponse s;
  grpc::ClientContext ctx;
  ASSERT_TRUE(d.stub().GetStatus(&ctx, {}, &s).ok());
  double crit_start = -1;
  std::vector<double> normal_starts;
  for (const auto& j : s.jobs()) {
    ASSERT_EQ(j.partitions_size(), 1);
    (j.job_id() == crit.job_id() ? crit_start : normal_starts.emplace_back()) = j.partitions(0).start_ms();
  }
  ASSERT_GE(crit_start, 0);
  ASSERT_EQ(normal_starts.size(), 20u);
  // Only the NORMAL jobs that had started, and at most one per worker picked between the status read and
  // the submit, may have started before it: a CRITICAL job waiting behind the queue would see ~20.
  const auto earlier =
      std::count_if(normal_starts.begin(), normal_starts.end(), [&](double t) { return t < crit_start; });
  EXPECT_LE(earlier, started_before + 2);
  EXPECT_LT(started_before, 16) << "the workers went through most of the queue before the CRITICAL job was "
                                   "submitted: nothing left to check";
}

// Fault injection from the configuration file: every second proof is corrupted (3 of the 7 made for 4 jobs),
// the self-check catches it,
// the partition is proved again, clients only ever see valid proofs, and /metrics and /status count it.
TEST(Daemon, InjectedCorruptionIsCaughtRetriedAndCounted) {
  test::TempRepository repo;
  auto w = repo.add<Bn254>("c", 200);
  Daemon d(repo.root(), "[engine]\nmax_attempts = 3\n[faults]\ncorrupt_every = 2\nseed = 9\n");
  for (int i = 0; i < 4; ++i)
    expect_valid<Bn254>(repo.root(), "c", prove(d, "f" + std::to_string(i), "c", w[0]));
  httplib::Client http("127.0.0.1", d.http_port());
  const auto metrics = http.Get("/metrics");
  ASSERT_TRUE(metrics);
  EXPECT_NE(metrics->body.find("cuzk_faults_total{kind=\"self_check\"} 3"), std::string::npos)
      << metrics->body;
  EXPECT_NE(metrics->body.find("cuzk_faults_total{kind=\"retry\"} 3"), std::string::npos);
  EXPECT_NE(metrics->body.find("cuzk_partitions_total{plan=\"cpu\"} 4"), std::string::npos);
  EXPECT_NE(metrics->body.find("cuzk_partitions_prestage_total{prestage=\"none\"} 4"), std::string::npos);
  // The CPU backend keeps no pinned pool: nothing lent, nothing refused, both series present.
  EXPECT_NE(metrics->body.find("cuzk_pinned_pool_leases_total{outcome=\"lent\"} 0"), std::string::npos);
  EXPECT_NE(metrics->body.find("cuzk_pinned_pool_leases_total{outcome=\"refused\"} 0"), std::string::npos);
  EXPECT_NE(metrics->body.find("cuzk_pinned_pool_leases_total{outcome=\"deferred\"} 0"), std::string::npos);
  const auto status = http.Get("/status");
  ASSERT_TRUE(status);
  const auto j = nlohmann::json::parse(status->body);
  EXPECT_EQ(j["faults"]["self_check"], 3);
  EXPECT_EQ(j["partitions_by_plan"]["cpu"], 4);
  EXPECT_EQ(j["partitions_by_prestage"]["none"], 4);
}

// isolation = "process": the daemon's worker process (cuzk-worker, next to the daemon) proves; killed on
// every third request it receives (CUZK_FAULT_WORKER_CRASH_EVERY, inherited), it is started again and the
// partitions it took down with it are proved again. Clients see only valid proofs; /metrics counts restarts.
TEST(Daemon, WorkerProcessesThatDieAreStartedAgainAndClientsSeeOnlyProofs) {
  test::TempRepository repo;
  auto w = repo.add<Bn254>("c", 200, 2);
  ::setenv("CUZK_FAULT_WORKER_CRASH_EVERY", "3", 1);
  // pinned_pool = "auto" (the default, spelt out): the parent resolves it and passes bytes to its workers, as
  // it does its share of the host memory budget.
  Daemon d(repo.root(),
           "[engine]\nisolation = \"process\"\ncpu_workers = 1\npinned_pool = \"auto\"\n"
           "host_memory_budget = \"64GiB\"\n");
  ::unsetenv("CUZK_FAULT_WORKER_CRASH_EVERY");
  for (int i = 0; i < 5; ++i)  // requests 3 and 6 of the worker processes kill them: two restarts
    expect_valid<Bn254>(repo.root(), "c", prove(d, "p" + std::to_string(i), "c", w[i % 2]));
  httplib::Client http("127.0.0.1", d.http_port());
  const auto status = http.Get("/status");
  ASSERT_TRUE(status);
  EXPECT_GE(nlohmann::json::parse(status->body)["faults"]["worker_restarts"].get<int>(), 2);
  const auto metrics = http.Get("/metrics");
  ASSERT_TRUE(metrics);
  EXPECT_NE(metrics->body.find("cuzk_faults_total{kind=\"worker_restart\"}"), std::string::npos);
}

TEST(Daemon, SigtermDrainsAcknowledgedJobs) {
  test::TempRepository repo;
  auto w = repo.add<Bn254>("c", 1500);
  Daemon d(repo.root());
  std::vector<std::string> ids;
  for (int i = 0; i < 6; ++i) {
    v1::SubmitProofResponse sub;
    grpc::ClientContext ctx;
    ASSERT_TRUE(d.stub().SubmitProof(&ctx, request("t" + std::to_string(i), "c", w[0]), &sub).ok());
    ids.push_back(sub.job_id());
  }
  std::vector<v1::AwaitProofResponse> results(ids.size());
  std::vector<std::thread> waiters;
  for (std::size_t i = 0; i < ids.size(); ++i)
    waiters.emplace_back([&, i] {
      v1::AwaitProofRequest a;
      a.set_job_id(ids[i]);
      grpc::ClientContext ctx;
      EXPECT_TRUE(d.stub().AwaitProof(&ctx, a, &results[i]).ok());
    });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(d.terminate(), 0);
  for (auto& t : waiters) t.join();
  for (const auto& r : results) expect_valid<Bn254>(repo.root(), "c", r);
}

TEST(Daemon, WitnessFilesByPathOnTheUnixSocket) {
  test::TempRepository repo;
  repo.add<Bn254>("p", 200, 2, "partitions = 2\n");
  const auto dir = std::filesystem::absolute(repo.root() / "p");
  Daemon d(repo.root());
  auto submit = [&](const std::vector<std::string>& paths, v1::SubmitProofResponse& out) {
    v1::SubmitProofRequest r;
    r.set_circuit_id("p");
    for (const auto& p : paths) r.add_witness_paths(p);
    grpc::ClientContext ctx;
    return d.stub().SubmitProof(&ctx, r, &out);
  };
  v1::SubmitProofResponse sub;
  ASSERT_TRUE(submit({(dir / "witness-0.wtns").string(), (dir / "witness-1.wtns").string()}, sub).ok());
  v1::AwaitProofRequest a;
  a.set_job_id(sub.job_id());
  v1::AwaitProofResponse res;
  grpc::ClientContext ctx;
  ASSERT_TRUE(d.stub().AwaitProof(&ctx, a, &res).ok());
  ASSERT_EQ(res.status(), v1::AwaitProofResponse::COMPLETED) << res.error_message();
  ASSERT_EQ(res.proof_json_size(), 2);
  const auto pk = io::read_zkey<Bn254>((dir / "circuit.zkey").string());
  for (int i = 0; i < 2; ++i)
    EXPECT_TRUE(groth16::verify(pk.verifying_key(), io::public_from_json<Bn254>(res.public_json(i), "public"),
                                io::proof_from_json<Bn254>(res.proof_json(i), "proof"))
                    .valid);

  const auto missing = submit({(dir / "witness-0.wtns").string(), (dir / "nope.wtns").string()}, sub);
  EXPECT_EQ(missing.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(missing.error_message().find("nope.wtns"), std::string::npos) << missing.error_message();
  const auto relative = submit({"witness-0.wtns", "witness-1.wtns"}, sub);
  EXPECT_EQ(relative.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(relative.error_message().find("not absolute"), std::string::npos) << relative.error_message();
  const auto not_wtns = submit({(dir / "circuit.zkey").string(), (dir / "witness-1.wtns").string()}, sub);
  EXPECT_EQ(not_wtns.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << not_wtns.error_message();
}

// A Filecoin PoRep-kind job on a bellperson circuit of 10 partitions: AwaitProofResponse.proof carries the
// 1,920 bytes, partition k's proof at [192k, 192k + 192), each verified here with our verifier.
TEST(Daemon, BellpersonPorepJobReturns1920Bytes) {
  namespace bp = groth16::bellperson;
  test::TempRepository repo;
  repo.add_bellperson("porep32", 10, 10);
  const auto dir = std::filesystem::absolute(repo.root() / "porep32");
  Daemon d(repo.root());
  v1::ProveRequest req;
  auto* s = req.mutable_submit();
  s->set_circuit_id("porep32");
  s->set_proof_kind(v1::POREP_SEAL_COMMIT);
  for (int i = 0; i < 10; ++i)
    s->add_witness_paths((dir / ("assignment-" + std::to_string(i) + ".bin")).string());
  v1::ProveResponse resp;
  grpc::ClientContext ctx;
  ASSERT_TRUE(d.stub().Prove(&ctx, req, &resp).ok());
  const auto& r = resp.result();
  ASSERT_EQ(r.status(), v1::AwaitProofResponse::COMPLETED) << r.error_message();
  ASSERT_EQ(r.proof().size(), 1920u);
  ASSERT_EQ(r.public_json_size(), 10);
  EXPECT_EQ(r.proof_json_size(), 0);
  const auto params = io::bellperson::read_params((dir / "circuit.params").string());
  for (int k = 0; k < 10; ++k) {
    const auto proof = bp::decode_proof(
        std::span(reinterpret_cast<const std::uint8_t*>(r.proof().data()) + 192 * k, 192), "proof", k);
    EXPECT_TRUE(
        bp::verify(params.vk, io::public_from_json<Bls12_381>(r.public_json(k), "public"), proof).valid)
        << "partition " << k;
  }
}

// Over TCP a client may only name files under daemon.witness_dir (the service's policy, called directly).
TEST(ProvingService, WitnessPathsOutsideTheWitnessDirAreRefused) {
  test::TempRepository repo;
  repo.add<Bn254>("p", 64, 1);
  engine::EngineConfig cfg;
  cfg.repository = repo.root();
  cfg.backend = "cpu";
  cfg.log = [](const std::string&) {};
  engine::Engine e(cfg);
  const auto inside = std::filesystem::absolute(repo.root() / "p" / "witness-0.wtns");
  auto submit = [&](service::ProvingService& s, const std::string& path) {
    v1::SubmitProofRequest r;
    r.set_circuit_id("p");
    r.add_witness_paths(path);
    v1::SubmitProofResponse out;
    grpc::ServerContext ctx;
    return s.SubmitProof(&ctx, &r, &out);
  };
  service::ProvingService closed(e, [] { return std::string(); }, {false, {}});
  EXPECT_EQ(submit(closed, inside.string()).error_code(), grpc::StatusCode::PERMISSION_DENIED);
  service::ProvingService scoped(e, [] { return std::string(); }, {false, repo.root() / "p"});
  EXPECT_TRUE(submit(scoped, inside.string()).ok());
  const auto escape = (repo.root() / "p" / ".." / "p" / ".." / ".." / "etc" / "passwd").string();
  EXPECT_EQ(submit(scoped, std::filesystem::absolute(escape).string()).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  e.shutdown(true);
}

}  // namespace
}  // namespace cuzk
