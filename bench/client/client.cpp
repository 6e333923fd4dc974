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

#include "client/runner.hpp"
#include "client/timeline.hpp"
#include "cuzk/v1/proving.grpc.pb.h"

namespace cuzk::bench {

namespace {}  // namespace

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
  PorepArgs porep;
  add_porep_command(app, porep);
  PorepC2Args porep_c2;
  add_porep_c2_command(app, porep_c2);
  FilecoinArgs filecoin;
  add_filecoin_command(app, filecoin);
  CLI11_PARSE(app, argc, argv);

  if (static_cast<CLI::App*>(porep.command)->parsed()) return run_porep(porep, addr);
  if (static_cast<CLI::App*>(porep_c2.command)->parsed()) return run_porep_c2(porep_c2, addr);
  if (static_cast<CLI::App*>(filecoin.command)->parsed()) return run_filecoin(filecoin, addr);
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
