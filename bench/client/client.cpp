// cuzk-bench's daemon client: `cuzk-bench [--addr A] single|batch|stress|status|metrics|preload|evict`.
// single/batch/stress send Prove requests (submit + await) from --concurrency threads, show a progress
// bar on a terminal, write each proof and public input as snarkjs JSON with --out DIR, and end with a
// summary table (s/proof, proofs/min, latency percentiles, mean per stage); --timeline out.svg draws what
// every daemon worker did during the run.
#include <grpcpp/grpcpp.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
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
#include <thread>

#include "client/timeline.hpp"
#include "cuzk/v1/proving.grpc.pb.h"

namespace cuzk::bench {

namespace {

namespace v1 = cuzk::v1;
using Clock = std::chrono::steady_clock;

struct JobSpec {
  std::string circuit;
  std::vector<std::string> witnesses;  // file bytes; several: one per partition
  v1::Priority priority = v1::PRIORITY_UNSPECIFIED;
};

struct Outcome {
  bool ok = false;
  std::string job_id, error;
  double latency_ms = 0, queue_ms = 0, compute_ms = 0, total_ms = 0;
};

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

v1::Priority parse_wire_priority(const std::string& p) {
  std::string up = p;
  std::transform(up.begin(), up.end(), up.begin(), ::toupper);
  v1::Priority out{};
  if (up.empty()) return v1::PRIORITY_UNSPECIFIED;
  if (!v1::Priority_Parse(up, &out)) throw std::runtime_error("unknown priority \"" + p + "\"");
  return out;
}

std::unique_ptr<v1::ProvingEngine::Stub> connect(const std::string& addr) {
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
    std::vector<double> lat;
    double q = 0, c = 0, tot = 0;
    std::size_t ok = 0;
    for (const auto& o : outcomes_) {
      if (!o.ok) continue;
      ++ok;
      lat.push_back(o.latency_ms);
      q += o.queue_ms, c += o.compute_ms, tot += o.total_ms;
    }
    std::sort(lat.begin(), lat.end());
    auto pct = [&](double p) {
      return lat.empty() ? 0.0 : lat[std::min(lat.size() - 1, std::size_t(p * lat.size()))];
    };
    const double n = std::max<std::size_t>(ok, 1);
    std::printf(
        "| proofs | failed | wall s | s/proof | proofs/min | p50 ms | p95 ms | queue ms | prove ms | total "
        "ms |\n");
    std::printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    std::printf("| %zu | %zu | %.2f | %.3f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f |\n", ok,
                outcomes_.size() - ok, wall_s_, ok ? wall_s_ / ok : 0.0, ok ? ok / wall_s_ * 60 : 0.0,
                pct(0.5), pct(0.95), q / n, c / n, tot / n);
    for (const auto& o : outcomes_)
      if (!o.ok) std::fprintf(stderr, "failed: %s %s\n", o.job_id.c_str(), o.error.c_str());
    return ok == outcomes_.size() ? 0 : 1;
  }

  std::set<std::string> job_ids() const {
    std::set<std::string> ids;
    for (const auto& o : outcomes_) ids.insert(o.job_id);
    return ids;
  }

 private:
  Outcome prove(const JobSpec& spec, std::size_t index) {
    v1::ProveRequest req;
    auto* s = req.mutable_submit();
    s->set_request_id("bench-" + std::to_string(index));
    s->set_circuit_id(spec.circuit);
    if (spec.witnesses.size() == 1)
      s->set_witness(spec.witnesses[0]);
    else
      for (const auto& w : spec.witnesses) s->add_partition_witnesses(w);
    s->set_priority(spec.priority);
    v1::ProveResponse resp;
    grpc::ClientContext ctx;
    const auto t0 = Clock::now();
    const grpc::Status st = stub_.Prove(&ctx, req, &resp);
    Outcome o;
    o.latency_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    if (!st.ok()) {
      o.error = st.error_message();
      return o;
    }
    const auto& r = resp.result();
    o.job_id = r.job_id();
    o.ok = r.status() == v1::AwaitProofResponse::COMPLETED;
    o.error = r.error_message();
    o.queue_ms = double(r.queue_wait_ms()), o.compute_ms = double(r.gpu_compute_ms()),
    o.total_ms = double(r.total_ms());
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

void timeline(v1::ProvingEngine::Stub& stub, const std::set<std::string>& ids, const std::string& path) {
  v1::GetStatusResponse s;
  grpc::ClientContext ctx;
  if (!stub.GetStatus(&ctx, {}, &s).ok()) throw std::runtime_error("GetStatus failed");
  std::vector<TimelineBar> bars;
  for (const auto& j : s.jobs()) {
    if (!ids.count(j.job_id())) continue;
    for (const auto& p : j.partitions())
      if (p.end_ms() > 0)
        bars.push_back({p.worker(), j.job_id() + "/" + std::to_string(p.index()), p.start_ms(), p.end_ms(),
                        static_cast<int>(j.priority()), p.state() == v1::PartitionStatus::DONE});
  }
  write_timeline_svg(path, bars);
  std::cerr << "timeline: " << path << " (" << bars.size() << " partitions)\n";
}

}  // namespace

int run_client(int argc, char** argv) {
  CLI::App app{"cuzk-bench: client of a running cuzk-daemon"};
  std::string addr = "unix:///run/cuzk/cuzk.sock";
  app.add_option("-a,--addr", addr, "daemon address: unix:///path or host:port");
  app.require_subcommand(1);
  std::string circuit, priority, out, svg;
  std::vector<std::string> witness;
  std::size_t count = 1;
  unsigned concurrency = 1;
  double duration = 0;
  std::vector<std::string> mix;
  auto* single = app.add_subcommand("single", "one proof");
  auto* batch = app.add_subcommand("batch", "N proofs of one circuit, J at a time");
  auto* stress = app.add_subcommand("stress", "mixed circuits and priorities for a duration or a count");
  for (auto* sc : {single, batch}) {
    sc->add_option("--circuit", circuit, "circuit id in the daemon's repository")->required();
    sc->add_option("--witness", witness, "snarkjs .wtns file; repeat it for a multi-partition circuit")
        ->required()
        ->check(CLI::ExistingFile);
    sc->add_option("--priority", priority, "low | normal | high | critical");
  }
  batch->add_option("-c,--count", count, "proofs");
  for (auto* sc : {single, batch, stress})
    sc->add_option("--out", out, "write <i>-proof.json / <i>-public.json here");
  for (auto* sc : {batch, stress}) {
    sc->add_option("-j,--concurrency", concurrency, "requests in flight");
    sc->add_option("--timeline", svg, "SVG of the daemon's workers during the run");
  }
  stress->add_option("--job", mix, "circuit:witness.wtns[:priority], repeatable")->required();
  stress->add_option("--count", count, "proofs (0: run for --duration)");
  stress->add_option("--duration", duration, "seconds, with --count 0");
  auto* status = app.add_subcommand("status", "GetStatus, printed");
  auto* metrics = app.add_subcommand("metrics", "the Prometheus text");
  auto* preload = app.add_subcommand("preload", "load a circuit's key");
  auto* evict = app.add_subcommand("evict", "unload a circuit's key");
  for (auto* sc : {preload, evict}) sc->add_option("--circuit", circuit)->required();
  CLI11_PARSE(app, argc, argv);

  auto stub = connect(addr);
  if (single->parsed() || batch->parsed() || stress->parsed()) {
    std::vector<JobSpec> specs;
    if (stress->parsed()) {
      for (const auto& m : mix) {
        const auto a = m.find(':'), b = m.find(':', a + 1);
        if (a == std::string::npos) throw std::runtime_error("--job expects circuit:witness[:priority]");
        specs.push_back(
            {m.substr(0, a),
             {read_file(m.substr(a + 1, b == std::string::npos ? b : b - a - 1))},
             b == std::string::npos ? v1::PRIORITY_UNSPECIFIED : parse_wire_priority(m.substr(b + 1))});
      }
    } else {
      std::vector<std::string> bytes;
      for (const auto& w : witness) bytes.push_back(read_file(w));
      specs.push_back({circuit, std::move(bytes), parse_wire_priority(priority)});
    }
    if (single->parsed()) count = 1;
    Runner runner(*stub, out);
    runner.run(specs, count, duration, concurrency);
    const int rc = runner.summary();
    if (!svg.empty()) timeline(*stub, runner.job_ids(), svg);
    return rc;
  }
  grpc::ClientContext ctx;
  if (status->parsed()) {
    v1::GetStatusResponse r;
    const auto st = stub->GetStatus(&ctx, {}, &r);
    if (!st.ok()) throw std::runtime_error(st.error_message());
    std::cout << r.DebugString();
  } else if (metrics->parsed()) {
    v1::GetMetricsResponse r;
    const auto st = stub->GetMetrics(&ctx, {}, &r);
    if (!st.ok()) throw std::runtime_error(st.error_message());
    std::cout << r.prometheus_text();
  } else if (preload->parsed()) {
    v1::PreloadSrsRequest q;
    q.set_circuit_id(circuit);
    v1::PreloadSrsResponse r;
    const auto st = stub->PreloadSRS(&ctx, q, &r);
    if (!st.ok()) throw std::runtime_error(st.error_message());
    std::cout << (r.already_loaded() ? "already loaded"
                                     : "loaded in " + std::to_string(r.load_time_ms()) + " ms")
              << "\n";
  } else if (evict->parsed()) {
    v1::EvictSrsRequest q;
    q.set_circuit_id(circuit);
    v1::EvictSrsResponse r;
    const auto st = stub->EvictSRS(&ctx, q, &r);
    if (!st.ok()) throw std::runtime_error(st.error_message());
    std::cout << (r.was_loaded() ? "evicted, " + std::to_string(r.freed_bytes()) + " bytes freed"
                                 : "was not loaded")
              << "\n";
  }
  return 0;
}

}  // namespace cuzk::bench
