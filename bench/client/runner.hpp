// The load generator shared by cuzk-bench's daemon subcommands: Prove requests from `concurrency`
// threads, outcomes collected for the summary table, proofs written as snarkjs JSON.
#pragma once

#include <grpcpp/grpcpp.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <mutex>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "cuzk/v1/proving.grpc.pb.h"

namespace CLI {
class App;
}

namespace cuzk::bench {

namespace v1 = cuzk::v1;
using Clock = std::chrono::steady_clock;

struct JobSpec {
  std::string circuit;
  std::vector<std::string> witnesses;  // file bytes; several: one per partition
  v1::Priority priority = v1::PRIORITY_UNSPECIFIED;
  std::vector<std::string> witness_paths;  // instead of bytes: files the daemon reads itself (same host)
  // A Filecoin job instead: the vanilla proof (PoRep: a C1 output) and its kind.
  std::string vanilla_proof = {};
  v1::ProofKind proof_kind = v1::PROOF_KIND_UNSPECIFIED;
  // Or a whole request as Curio would send it (PoSt, SnapDeals): sent as it is, with its own request_id.
  const v1::SubmitProofRequest* request = nullptr;
};

struct Outcome {
  bool ok = false;
  std::string job_id, error;
  double latency_ms = 0, queue_ms = 0, compute_ms = 0, total_ms = 0, synthesis_ms = 0;
  std::string proof;  // bellperson circuits: the partitions' 192-byte proofs
  double done_s = 0;  // when it finished, seconds after the run started
};

// Seconds per proof once the run is going: the interval between the first and the last proof to finish, over
// the proofs finished in it. The wall time per proof also counts the first proof's ramp (a key's first
// upload, cold caches, a pipeline still filling); this is the sustained rate. 0 below two proofs.
inline double steady_s_per_proof(std::vector<double> done_s) {
  if (done_s.size() < 2) return 0;
  std::sort(done_s.begin(), done_s.end());
  return (done_s.back() - done_s.front()) / double(done_s.size() - 1);
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline v1::Priority parse_wire_priority(const std::string& p) {
  std::string up = p;
  std::transform(up.begin(), up.end(), up.begin(), ::toupper);
  v1::Priority out{};
  if (up.empty()) return v1::PRIORITY_UNSPECIFIED;
  if (!v1::Priority_Parse(up, &out)) throw std::runtime_error("unknown priority \"" + p + "\"");
  return out;
}

inline std::unique_ptr<v1::ProvingEngine::Stub> connect(const std::string& addr) {
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(1 << 30);
  args.SetMaxSendMessageSize(1 << 30);
  auto channel = grpc::CreateCustomChannel(addr, grpc::InsecureChannelCredentials(), args);
  if (!channel->WaitForConnected(std::chrono::system_clock::now() + std::chrono::seconds(10)))
    throw std::runtime_error("cannot connect to the daemon at " + addr);
  return v1::ProvingEngine::NewStub(channel);
}

class Runner {
 public:
  Runner(v1::ProvingEngine::Stub& stub, std::string out_dir) : stub_(stub), out_dir_(std::move(out_dir)) {
    if (!out_dir_.empty()) std::filesystem::create_directories(out_dir_);
  }

  // Runs until `count` requests are done (count > 0) or `duration_s` passes, `concurrency` at a time.
  void run(const std::vector<JobSpec>& specs, std::size_t count, double duration_s, unsigned concurrency) {
    start_ = Clock::now();
    std::atomic<std::size_t> next{0};
    std::vector<std::thread> threads;
    for (unsigned t = 0; t < std::max(1u, concurrency); ++t)
      threads.emplace_back([&, t] {
        std::mt19937 rng(t);
        for (;;) {
          const std::size_t i = next++;
          if (count && i >= count) break;
          if (!count && std::chrono::duration<double>(Clock::now() - start_).count() > duration_s) break;
          const JobSpec& spec = specs.size() == 1 ? specs[0] : specs[rng() % specs.size()];
          record(i, prove(spec, i));
        }
      });
    for (auto& t : threads) t.join();
    wall_s_ = std::chrono::duration<double>(Clock::now() - start_).count();
    if (isatty(2)) std::cerr << "\n";
  }

  int summary() const {
    // s/proof and proofs/hour count whole jobs (all partitions of a job are one proof).
    std::vector<double> lat, done;
    double q = 0, c = 0, tot = 0;
    std::size_t ok = 0;
    for (const auto& o : outcomes_) {
      if (!o.ok) continue;
      ++ok;
      lat.push_back(o.latency_ms);
      done.push_back(o.done_s);
      q += o.queue_ms, c += o.compute_ms, tot += o.total_ms;
    }
    std::sort(lat.begin(), lat.end());
    auto pct = [&](double p) {
      return lat.empty() ? 0.0 : lat[std::min(lat.size() - 1, std::size_t(p * lat.size()))];
    };
    const double n = std::max<std::size_t>(ok, 1);
    std::printf(
        "| proofs | failed | wall s | s/proof | proofs/min | proofs/hour | steady s/proof | p50 ms | p95 ms "
        "| "
        "queue ms | prove ms | total ms |\n");
    std::printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    std::printf("| %zu | %zu | %.2f | %.3f | %.1f | %.0f | %.3f | %.1f | %.1f | %.1f | %.1f | %.1f |\n", ok,
                outcomes_.size() - ok, wall_s_, ok ? wall_s_ / ok : 0.0, ok ? ok / wall_s_ * 60 : 0.0,
                ok ? ok / wall_s_ * 3600 : 0.0, steady_s_per_proof(done), pct(0.5), pct(0.95), q / n, c / n,
                tot / n);
    for (const auto& o : outcomes_)
      if (!o.ok) std::fprintf(stderr, "failed: %s %s\n", o.job_id.c_str(), o.error.c_str());
    return ok == outcomes_.size() ? 0 : 1;
  }

  const std::vector<Outcome>& outcomes() const { return outcomes_; }

  std::set<std::string> job_ids() const {
    std::set<std::string> ids;
    for (const auto& o : outcomes_) ids.insert(o.job_id);
    return ids;
  }

 private:
  Outcome prove(const JobSpec& spec, std::size_t index) {
    v1::ProveRequest req;
    auto* s = req.mutable_submit();
    if (spec.request) *s = *spec.request;
    s->set_request_id("bench-" + std::to_string(index));
    if (!spec.request) s->set_circuit_id(spec.circuit);
    if (spec.witnesses.size() == 1)
      s->set_witness(spec.witnesses[0]);
    else
      for (const auto& w : spec.witnesses) s->add_partition_witnesses(w);
    for (const auto& p : spec.witness_paths) s->add_witness_paths(p);
    if (!spec.request) s->set_priority(spec.priority);
    if (!spec.request) s->set_proof_kind(spec.proof_kind);
    if (!spec.vanilla_proof.empty()) s->set_vanilla_proof(spec.vanilla_proof);
    v1::ProveResponse resp;
    grpc::ClientContext ctx;
    const auto t0 = Clock::now();
    const grpc::Status st = stub_.Prove(&ctx, req, &resp);
    Outcome o;
    o.latency_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    o.done_s = std::chrono::duration<double>(Clock::now() - start_).count();
    if (!st.ok()) {
      o.error = st.error_message();
      return o;
    }
    const auto& r = resp.result();
    o.job_id = r.job_id();
    o.ok = r.status() == v1::AwaitProofResponse::COMPLETED;
    o.error = r.error_message();
    o.queue_ms = double(r.queue_wait_ms()), o.compute_ms = double(r.gpu_compute_ms()),
    o.total_ms = double(r.total_ms()), o.synthesis_ms = double(r.synthesis_ms());
    o.proof = r.proof();
    if (o.ok && !out_dir_.empty()) {
      for (int k = 0; k < r.proof_json_size(); ++k) {
        const std::string stem = out_dir_ + "/" + std::to_string(index) +
                                 (r.proof_json_size() > 1 ? "-p" + std::to_string(k) : std::string());
        std::ofstream(stem + "-proof.json") << r.proof_json(k);
        std::ofstream(stem + "-public.json") << r.public_json(k);
      }
    }
    return o;
  }

  void record(std::size_t, Outcome o) {
    std::lock_guard lock(mutex_);
    outcomes_.push_back(std::move(o));
    if (isatty(2)) {
      std::size_t failed = 0;
      for (const auto& x : outcomes_) failed += !x.ok;
      const int width = 30, done = static_cast<int>(outcomes_.size() % (width + 1));
      std::cerr << "\r[" << std::string(done, '#') << std::string(width - done, '.') << "] "
                << outcomes_.size() << " proofs, " << failed << " failed" << std::flush;
    }
  }

  v1::ProvingEngine::Stub& stub_;
  std::string out_dir_;
  std::mutex mutex_;
  std::vector<Outcome> outcomes_;
  Clock::time_point start_;
  double wall_s_ = 0;
};

void timeline(v1::ProvingEngine::Stub& stub, const std::set<std::string>& ids, const std::string& path);

// `cuzk-bench porep` (porep.cpp).
struct PorepArgs {
  std::string repository, curve = "bls12381", daemon, backend = "auto", timeline;
  std::string kind = "snarkjs";  // or "bellperson": a .params key and a, b, c assignments (Filecoin's flow)
  unsigned log_domain = 16, partitions = 10, concurrency = 1, workers_per_device = 2;
  std::string vram_limit;     // with --daemon: passed on as --vram-limit
  std::string daemon_config;  // with --daemon: passed on as --config
  unsigned witnesses = 0;     // distinct witness files; 0: the default for the size
  std::size_t proofs = 1;
  std::uint64_t seed = 1;
  bool prepare_only = false;  // make the circuit's files and stop: no daemon, no proofs
  void* command = nullptr;    // the CLI11 subcommand, to test parsed()
};

void add_porep_command(CLI::App& app, PorepArgs& args);
int run_porep(const PorepArgs& args, std::string addr);

// A cuzk-daemon started for a run (--daemon): listening on `socket`, its other options as given. Returns its
// pid; the caller stops it with stop_daemon.
struct DaemonLaunch {
  std::string exe, socket, repository, backend = "auto", vram_limit, config, parameter_cache;
  unsigned workers_per_device = 2;
};
pid_t start_daemon(const DaemonLaunch& d);
void stop_daemon(pid_t pid);
// With `exe` set: a daemon whose socket (DIR/NAME.sock), repository (DIR/repository) and parameter cache
// (DIR) are in `dir`, `addr` set to its socket; -1 (and `addr` left alone) without.
inline pid_t start_daemon_in(const std::filesystem::path& dir, const std::string& name, DaemonLaunch d,
                             std::string& addr) {
  if (d.exe.empty()) return -1;
  d.socket = (dir / (name + ".sock")).string();
  addr = "unix://" + d.socket;
  d.repository = (dir / "repository").string();
  std::filesystem::create_directories(d.repository);
  d.parameter_cache = dir.string();
  return start_daemon(d);
}
void print_partitions(v1::ProvingEngine::Stub& stub, const std::set<std::string>& ids);
// PreloadSRS for `circuit_id` (throws with the daemon's message); "already loaded" or "loaded in N ms".
std::string preload_key(v1::ProvingEngine::Stub& stub, const std::string& circuit_id);

// `cuzk-bench porep-c2` (porep_c2.cpp): PoRep C2 from C1 outputs through the daemon, as Curio sends them.
struct PorepC2Args {
  std::string dir, sector_size = "2KiB", proof_type = "interactive", daemon, backend = "auto", vram_limit,
                   daemon_config, timeline;
  unsigned concurrency = 1, workers_per_device = 2;
  std::size_t proofs = 1;
  std::uint64_t seed = 1;
  bool verify = true;
  void* command = nullptr;
};
void add_porep_c2_command(CLI::App& app, PorepC2Args& args);
int run_porep_c2(const PorepC2Args& args, std::string addr);

// `cuzk-bench filecoin` (filecoin.cpp): WindowPoSt, WinningPoSt and SnapDeals from vanilla proofs.
struct FilecoinArgs {
  std::string kind, dir, sector_size = "2KiB", daemon, backend = "auto", vram_limit, daemon_config, timeline,
                         load_c1;
  unsigned sectors = 0, concurrency = 1, workers_per_device = 2, load_jobs = 0;
  double load_warmup_s = 5;
  std::size_t proofs = 1;
  std::uint64_t seed = 1;
  bool verify = true;
  void* command = nullptr;
};
void add_filecoin_command(CLI::App& app, FilecoinArgs& args);
int run_filecoin(const FilecoinArgs& args, std::string addr);

}  // namespace cuzk::bench
