// cuzk-bench [--addr A] filecoin --kind wpost|winning|snap --dir DIR [--sector-size S] [--sectors N] [--seed
// X]
//                                [--proofs P] [-j J] [--daemon BIN …] [--load-c1 FILE --load-jobs K]
//                                [--no-verify]
//
// WindowPoSt, WinningPoSt and SnapDeals through the daemon as Curio sends them: P Prove requests of the
// kind's proof_kind with generated vanilla proofs, J in flight. DIR is prepared first when it lacks the
// request: DIR/request-<kind>-<size>.pb (the SubmitProofRequest, serialized: a WindowPoSt partition of N
// sectors — default the partition's full count, 2,349 at 32 GiB — with its randomness; a WinningPoSt; a
// sector update's partition proofs with its commitments) and a TEST-ONLY key of the circuit under its
// standard name, so that DIR serves as the daemon's parameter cache when --daemon starts one. With --load-c1,
// K PoRep C2 jobs of that C1 output (its key in DIR too) are submitted first and kept running, so that the
// measured jobs meet busy workers: the "while PoRep jobs keep both workers busy". Prints the summary
// table and the partitions' stages, and checks every returned proof against the public inputs filecoin-proofs
// computes
// (--no-verify skips that).
#include <tbb/parallel_for.h>

#include <CLI/CLI.hpp>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>

#include "client/runner.hpp"
#include "filecoin/circuit_catalog.hpp"
#include "filecoin/porep_vanilla_verify.hpp"
#include "filecoin/post_synthesis.hpp"
#include "filecoin/post_test_data.hpp"
#include "filecoin/registered_post_proof.hpp"
#include "filecoin/update_synthesis.hpp"
#include "filecoin/update_test_data.hpp"
#include "filecoin/vanilla_job.hpp"
#include "gen_porep_c1.hpp"
#include "groth16/bellperson.hpp"
#include "io/bellperson.hpp"

namespace cuzk::bench {

namespace {

namespace bp = groth16::bellperson;

std::string bytes_text(const std::vector<std::uint8_t>& b) {
  return {b.begin(), b.end()};
}

std::array<std::uint8_t, 32> test_randomness(std::uint64_t seed) {
  std::array<std::uint8_t, 32> r{};
  for (std::size_t i = 0; i < r.size(); ++i) r[i] = static_cast<std::uint8_t>(seed * 131 + 7 * i);
  r[31] &= 0x3f;  // a canonical scalar, as the chain's randomness is taken
  return r;
}

const filecoin::FilecoinCircuit& circuit_of(const std::string& kind, const std::string& size) {
  const std::uint64_t bytes = filecoin::porep_params_for(size).sector_bytes;
  if (kind == "wpost") return filecoin::post_circuit(filecoin::PostKind::kWindow, bytes);
  if (kind == "winning") return filecoin::post_circuit(filecoin::PostKind::kWinning, bytes);
  if (kind == "snap") return filecoin::update_circuit(bytes);
  throw std::invalid_argument("--kind " + kind + ": wpost, winning or snap");
}

// The request Curio would send for generated data of the circuit.
v1::SubmitProofRequest make_request(const filecoin::FilecoinCircuit& c, unsigned sectors,
                                    std::uint64_t seed) {
  v1::SubmitProofRequest q;
  q.set_request_id(c.id);
  q.set_miner_id(1000);
  if (c.update) {
    const filecoin::UpdateParams& p = *c.update;
    const filecoin::UpdateTestSector s = filecoin::make_test_update_sector(p, seed);
    q.set_proof_kind(v1::SNAP_DEALS_UPDATE);
    q.set_sector_size(p.sector_bytes);
    q.set_sector_number(1);
    for (const auto& part : s.partitions)
      q.add_vanilla_proofs(bytes_text(encode_update_vanilla_proof(part, p)));
    auto bytes = [](const filecoin::Fr& x) {
      const auto r = filecoin::fr_to_repr(x);
      return std::string(r.begin(), r.end());
    };
    q.set_comm_r_old(bytes(s.commitments.comm_r_old));
    q.set_comm_r_new(bytes(s.commitments.comm_r_new));
    q.set_comm_d_new(bytes(s.commitments.comm_d_new));
    return q;
  }
  const filecoin::PostParams& p = *c.post;
  const bool window = p.kind == filecoin::PostKind::kWindow;
  const auto r = test_randomness(seed);
  q.set_proof_kind(window ? v1::WINDOW_POST_PARTITION : v1::WINNING_POST);
  q.set_sector_size(p.sector_bytes);
  q.set_randomness(std::string(r.begin(), r.end()));
  q.set_registered_proof(filecoin::latest_registered_post_proof(p.kind, p.sector_bytes).id);
  filecoin::PostParams proof_params = p;
  if (!window) {
    proof_params.challenges = p.sectors * p.challenges;  // one sector of 66 challenges
    sectors = 1;
  }
  if (sectors == 0 || sectors > p.sectors) sectors = window ? p.sectors : 1;
  std::vector<std::string> proofs(sectors);
  tbb::parallel_for(0u, sectors, [&](unsigned i) {
    const auto v = filecoin::make_test_post_vanilla_proof(proof_params, r, 1 + i, seed + i);
    proofs[i] = bytes_text(filecoin::encode_post_vanilla_proof(v, proof_params));
  });
  for (auto& b : proofs) q.add_vanilla_proofs(std::move(b));
  return q;
}

// What the daemon reads from the request, read here the same way (the public inputs to check against).
filecoin::VanillaRequest vanilla_of(const v1::SubmitProofRequest& q) {
  filecoin::VanillaRequest r;
  r.kind = q.proof_kind() == v1::SNAP_DEALS_UPDATE ? filecoin::CircuitKind::kSnapDeals
           : q.proof_kind() == v1::WINNING_POST    ? filecoin::CircuitKind::kWinningPost
                                                   : filecoin::CircuitKind::kWindowPost;
  for (const auto& p : q.vanilla_proofs()) r.proofs.emplace_back(p.begin(), p.end());
  std::copy_n(q.randomness().begin(), std::min<std::size_t>(32, q.randomness().size()), r.randomness.begin());
  r.sector_size = q.sector_size();
  if (q.registered_proof() != 0) r.registered_proof = q.registered_proof();
  r.partition = q.partition_index();
  std::copy_n(q.comm_r_old().begin(), std::min<std::size_t>(32, q.comm_r_old().size()), r.comm_r_old.begin());
  std::copy_n(q.comm_d_new().begin(), std::min<std::size_t>(32, q.comm_d_new().size()), r.comm_d_new.begin());
  std::copy_n(q.comm_r_new().begin(), std::min<std::size_t>(32, q.comm_r_new().size()), r.comm_r_new.begin());
  return r;
}

gadgets::PrecompiledCircuit record(const filecoin::FilecoinCircuit& c) {
  return c.update ? filecoin::update_record(*c.update) : filecoin::post_record(*c.post);
}

}  // namespace

void add_filecoin_command(CLI::App& app, FilecoinArgs& a) {
  auto* sc = app.add_subcommand(
      "filecoin",
      "WindowPoSt, WinningPoSt or SnapDeals from vanilla proofs through the daemon, as Curio sends them");
  sc->add_option("--kind", a.kind, "wpost, winning or snap")
      ->required()
      ->check(CLI::IsMember({"wpost", "winning", "snap"}));
  sc->add_option("--dir", a.dir, "holds the request and the key (made there first when missing)")->required();
  sc->add_option("--sector-size", a.sector_size, "2KiB, 8MiB, 512MiB, 32GiB or 64GiB");
  sc->add_option("--sectors", a.sectors,
                 "WindowPoSt: sectors in the partition (default: the partition's count)");
  sc->add_option("--seed", a.seed, "when DIR is prepared: the generated data follow from it");
  sc->add_option("--proofs", a.proofs, "proofs to send");
  sc->add_option("-j,--concurrency", a.concurrency, "proofs in flight");
  sc->add_option("--daemon", a.daemon, "start this cuzk-daemon for the run, DIR as its parameter cache");
  sc->add_option("--backend", a.backend, "with --daemon: cpu | cuda | auto");
  sc->add_option("--workers-per-device", a.workers_per_device, "with --daemon: GPU workers per device");
  sc->add_option("--vram-limit", a.vram_limit, "with --daemon: device memory the daemon may use, e.g. 16GiB");
  sc->add_option("--daemon-config", a.daemon_config, "with --daemon: its TOML configuration");
  sc->add_option("--load-c1", a.load_c1, "PoRep C2 load: this C1 output (its key in DIR), submitted first");
  sc->add_option("--load-jobs", a.load_jobs, "PoRep C2 load: jobs submitted before the measured ones");
  sc->add_option("--load-warmup", a.load_warmup_s, "PoRep C2 load: seconds to let it start (default 5)");
  sc->add_option("--timeline", a.timeline, "SVG of the daemon's workers during the run");
  sc->add_flag("!--no-verify", a.verify, "do not check the returned proofs here");
  a.command = sc;
}

int run_filecoin(const FilecoinArgs& a, std::string addr) {
  const std::filesystem::path dir = std::filesystem::absolute(a.dir);
  std::filesystem::create_directories(dir);
  const filecoin::FilecoinCircuit& c = circuit_of(a.kind, a.sector_size);
  const auto request_file = dir / ("request-" + a.kind + "-" + c.sector_size + ".pb");
  v1::SubmitProofRequest request;
  if (!std::filesystem::exists(request_file)) {
    const auto t0 = std::chrono::steady_clock::now();
    request = make_request(c, a.sectors, a.seed);
    std::ofstream(request_file, std::ios::binary) << request.SerializeAsString();
    std::printf("%s: %d vanilla proofs (%.1f MB) in %.2f s → %s\n", c.id.c_str(),
                request.vanilla_proofs_size(), request.ByteSizeLong() / 1e6,
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
                request_file.string().c_str());
  } else if (!request.ParseFromString(read_file(request_file.string()))) {
    throw std::runtime_error(request_file.string() + " is not a SubmitProofRequest");
  }
  const std::string stem =
      c.parameter_file.substr(0, c.parameter_file.size() - std::string(".params").size());
  if (!std::filesystem::exists(dir / c.parameter_file))
    write_test_key([&] { return record(c).system; }, dir, stem);

  const pid_t daemon = start_daemon_in(
      dir, "filecoin", {a.daemon, "", "", a.backend, a.vram_limit, a.daemon_config, "", a.workers_per_device},
      addr);
  auto stub = connect(addr);
  std::fprintf(stderr, "filecoin: %s key %s\n", c.id.c_str(), preload_key(*stub, c.id).c_str());

  // The PoRep load: submitted, not awaited until the measured jobs are done.
  std::vector<std::string> load;
  if (!a.load_c1.empty() && a.load_jobs > 0) {
    const std::string c1 = read_file(a.load_c1);
    for (unsigned i = 0; i < a.load_jobs; ++i) {
      v1::SubmitProofRequest q;
      q.set_request_id("load-" + std::to_string(i));
      q.set_proof_kind(v1::POREP_SEAL_COMMIT);
      q.set_vanilla_proof(c1);
      v1::SubmitProofResponse resp;
      grpc::ClientContext ctx;
      const grpc::Status s = stub->SubmitProof(&ctx, q, &resp);
      if (!s.ok()) throw std::runtime_error("the PoRep load was refused: " + s.error_message());
      load.push_back(resp.job_id());
    }
    std::this_thread::sleep_for(std::chrono::duration<double>(a.load_warmup_s));
    std::fprintf(stderr, "filecoin: %zu PoRep C2 jobs queued and running as load\n", load.size());
  }

  JobSpec spec;
  spec.request = &request;
  Runner runner(*stub, "");
  runner.run({spec}, a.proofs, 0, a.concurrency);
  print_partitions(*stub, runner.job_ids());
  int rc = runner.summary();

  if (a.verify) {
    const auto job = filecoin::read_vanilla_job(vanilla_of(request));
    const auto vk = io::bellperson::read_vk((dir / (stem + ".vk")).string());
    std::size_t ok = 0, verified = 0;
    for (const auto& o : runner.outcomes()) {
      if (!o.ok) continue;
      ++ok;
      bool all = o.proof.size() == 192 * job->partitions();
      for (std::uint32_t k = 0; all && k < job->partitions(); ++k) {
        const auto proof = bp::decode_proof(
            std::span(reinterpret_cast<const std::uint8_t*>(o.proof.data()) + 192 * k, 192), "proof", k);
        all = bp::verify(vk, job->public_inputs(k), proof).valid;
      }
      verified += all;
      if (!all)
        std::fprintf(stderr, "filecoin: job %s returned a proof that does NOT verify\n", o.job_id.c_str());
    }
    std::printf("%zu of %zu proofs verified here against the public inputs filecoin-proofs computes\n",
                verified, ok);
    if (verified != ok) rc = 1;
  }
  for (const std::string& id : load) {
    v1::AwaitProofRequest q;
    q.set_job_id(id);
    v1::AwaitProofResponse r;
    grpc::ClientContext ctx;
    if (!stub->AwaitProof(&ctx, q, &r).ok() || r.status() != v1::AwaitProofResponse::COMPLETED) rc = 1;
  }
  if (!load.empty()) std::printf("PoRep load: %zu jobs awaited\n", load.size());
  if (!a.timeline.empty()) timeline(*stub, runner.job_ids(), a.timeline);
  stop_daemon(daemon);
  return rc;
}

}  // namespace cuzk::bench
