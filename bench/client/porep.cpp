// `cuzk-bench porep`: PoRep-shaped proofs through the daemon (issue 6). Prepares a porep-like circuit of
// domain 2^K with N partitions in the daemon's repository (generator, test-only setup, N witnesses;
// reused when present), optionally starts the daemon itself, sends P proofs J at a time, then prints
// every partition's stage times and the summary (s/proof, proofs/hour). Every proof was self-checked by
// the daemon before it came back. Witnesses go as file paths (SubmitProofRequest.witness_paths), which the
// daemon maps itself: ten PoRep-size witnesses inline would be far past gRPC's 2 GiB message limit. So the
// daemon must run on this host (it does with --daemon).
#include <signal.h>
#include <sys/wait.h>

#include <CLI/CLI.hpp>
#include <map>

#include "client/runner.hpp"
#include "ec/bls12_381.hpp"
#include "ec/bn254.hpp"
#include "groth16/bellperson.hpp"
#include "groth16/setup.hpp"
#include "io/bellperson.hpp"
#include "io/bellperson_assignment.hpp"
#include "io/wtns.hpp"
#include "io/zkey.hpp"
#include "r1cs/porep_like.hpp"

#ifdef CUZK_HAVE_CUDA
#include "cuda/device.hpp"
#include "ec/fixed_base_gpu.hpp"
#endif

namespace cuzk::bench {

namespace {

double secs_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// The fixed-base products of the setup: on the GPU when there is one (minutes instead of hours at K = 27).
template <class Curve>
groth16::FixedBaseMul<Curve> setup_multiplier() {
#ifdef CUZK_HAVE_CUDA
  if (cuda::device_count() > 0) {
    std::cerr << "porep: setup's fixed-base products on GPU 0\n";
    return {[](const auto& t, const auto& k) { return ec::gpu::fixed_base_mul_all(t, k); },
            [](const auto& t, const auto& k) { return ec::gpu::fixed_base_mul_all(t, k); }};
  }
#endif
  std::cerr << "porep: setup's fixed-base products on the CPU\n";
  return {};
}

// A circuit's files in its folder: the key, and witness i (snarkjs) or assignment i (bellperson).
struct Layout {
  std::string key, witness_prefix, witness_suffix;
  std::filesystem::path witness(const std::filesystem::path& dir, unsigned i) const {
    return dir / (witness_prefix + std::to_string(i) + witness_suffix);
  }
};
const Layout kSnarkjs{"circuit.zkey", "witness-", ".wtns"};
const Layout kBellperson{"circuit.params", "assignment-", ".bin"};

// The circuit folder <repo>/<id>: the key, circuit.toml (partitions) and `distinct` witnesses (partitions
// cycle through them), made by `make` unless the key is there already. Returns how many witnesses there are.
template <class Make>
unsigned prepare(const std::filesystem::path& dir, const Layout& layout, unsigned partitions, Make&& make) {
  if (std::filesystem::exists(dir / layout.key)) {
    unsigned n = 0;
    while (std::filesystem::exists(layout.witness(dir, n))) ++n;
    if (n == 0)
      throw std::runtime_error(dir.string() + " has a key but no " + layout.witness(dir, 0).string());
    return n;
  }
  std::filesystem::create_directories(dir);
  const auto t = Clock::now();
  const unsigned distinct = make();  // the key goes to <key>.tmp, renamed once complete
  std::filesystem::rename(dir / (layout.key + ".tmp"), dir / layout.key);
  std::ofstream(dir / "circuit.toml") << "partitions = " << partitions << "\n";
  std::cerr << "porep: key (" << std::filesystem::file_size(dir / layout.key) / (1 << 20)
            << " MiB) and witnesses written in " << secs_since(t) << " s\n";
  return distinct;
}

template <class Fr>
r1cs::PorepLike<Fr> generate(unsigned k, std::uint64_t seed, unsigned distinct) {
  const auto t = Clock::now();
  auto g = r1cs::porep_like<Fr>(k, seed, distinct);
  std::cerr << "porep: generated K=" << k << " (" << g.system.a.rows() << " constraints, " << distinct
            << " witnesses) in " << secs_since(t) << " s\n";
  return g;
}

// A .zkey and .wtns witnesses.
template <class Curve>
unsigned prepare_snarkjs(const std::filesystem::path& dir, unsigned k, unsigned partitions, unsigned distinct,
                         std::uint64_t seed) {
  return prepare(dir, kSnarkjs, partitions, [&] {
    const auto g = generate<typename Curve::Fr>(k, seed, distinct);
    const auto t = Clock::now();
    const auto pk =
        groth16::setup<Curve>(g.system, groth16::random_toxic_waste<Curve>(), setup_multiplier<Curve>());
    std::cerr << "porep: test-only setup in " << secs_since(t) << " s\n";
    io::write_zkey<Curve>((dir / (kSnarkjs.key + ".tmp")).string(), pk);
    for (unsigned i = 0; i < distinct; ++i)
      io::write_wtns<Curve>(kSnarkjs.witness(dir, i).string(), g.witnesses[i]);
    return distinct;
  });
}

// A bellperson .params (no coefficient section, no points at infinity: half a .zkey's size at PoRep scale)
// and binary a, b, c assignments as Filecoin's synthesis hands them over.
unsigned prepare_bellperson(const std::filesystem::path& dir, unsigned k, unsigned partitions,
                            unsigned distinct, std::uint64_t seed) {
  namespace bp = groth16::bellperson;
  return prepare(dir, kBellperson, partitions, [&] {
    const auto g = generate<bp::Fr>(k, seed, distinct);
    const auto t = Clock::now();
    const auto params =
        bp::setup(g.system, groth16::random_toxic_waste<bp::Curve>(), setup_multiplier<bp::Curve>());
    std::cerr << "porep: test-only setup in " << secs_since(t) << " s\n";
    io::bellperson::write_params((dir / (kBellperson.key + ".tmp")).string(), params);
    for (unsigned i = 0; i < distinct; ++i)
      io::bellperson_assignment::write(kBellperson.witness(dir, i).string(),
                                       bp::synthesize(g.system, g.witnesses[i]));
    return distinct;
  });
}

}  // namespace

void print_partitions(v1::ProvingEngine::Stub& stub, const std::set<std::string>& ids) {
  v1::GetStatusResponse s;
  grpc::ClientContext ctx;
  if (!stub.GetStatus(&ctx, {}, &s).ok()) return;
  for (const auto& j : s.jobs()) {
    if (!ids.count(j.job_id())) continue;
    for (const auto& p : j.partitions()) {
      std::printf("job=%s partition=%u/%d worker=%s", j.job_id().c_str(), p.index(), j.partitions_size(),
                  p.worker().c_str());
      const std::map<std::string, double> stages(p.stage_ms().begin(), p.stage_ms().end());
      for (const auto& [name, ms] : stages) std::printf(" %s_ms=%.1f", name.c_str(), ms);
      std::printf(" total_ms=%.1f\n", p.end_ms() - p.start_ms());
    }
  }
}

std::string preload_key(v1::ProvingEngine::Stub& stub, const std::string& circuit_id) {
  v1::PreloadSrsRequest q;
  q.set_circuit_id(circuit_id);
  v1::PreloadSrsResponse r;
  grpc::ClientContext ctx;
  const auto st = stub.PreloadSRS(&ctx, q, &r);
  if (!st.ok()) throw std::runtime_error("preload " + circuit_id + ": " + st.error_message());
  return r.already_loaded() ? "already loaded" : "loaded in " + std::to_string(r.load_time_ms()) + " ms";
}

pid_t start_daemon(const DaemonLaunch& d) {
  std::filesystem::remove(d.socket);
  const std::string addr = "unix://" + d.socket, workers = std::to_string(d.workers_per_device);
  const pid_t pid = ::fork();
  if (pid == 0) {
    std::vector<const char*> argv = {
        "cuzk-daemon",        "--listen",  addr.c_str(),      "--repository",
        d.repository.c_str(), "--backend", d.backend.c_str(), "--gpu-workers-per-device",
        workers.c_str()};
    if (!d.vram_limit.empty()) argv.insert(argv.end(), {"--vram-limit", d.vram_limit.c_str()});
    if (!d.config.empty()) argv.insert(argv.end(), {"--config", d.config.c_str()});
    if (!d.parameter_cache.empty()) argv.insert(argv.end(), {"--parameter-cache", d.parameter_cache.c_str()});
    argv.push_back(nullptr);
    ::execv(d.exe.c_str(), const_cast<char* const*>(argv.data()));
    ::_exit(127);
  }
  return pid;
}

void stop_daemon(pid_t pid) {
  if (pid <= 0) return;
  ::kill(pid, SIGTERM);
  ::waitpid(pid, nullptr, 0);
}

void add_porep_command(CLI::App& app, PorepArgs& a) {
  auto* sc = app.add_subcommand("porep", "PoRep-shaped proofs through the daemon (issue 6)");
  sc->add_option("--repository", a.repository,
                 "the daemon's circuit repository (the circuit is prepared there)")
      ->required();
  sc->add_option("--log-domain", a.log_domain, "FFT domain 2^K (10..27)")->required();
  sc->add_option("--partitions", a.partitions, "partitions per proof (Filecoin PoRep: 10)");
  sc->add_option("--proofs", a.proofs, "proofs to send");
  sc->add_option("-j,--concurrency", a.concurrency, "proofs in flight");
  sc->add_option("--seed", a.seed, "circuit and witnesses follow from it");
  sc->add_option(
      "--witnesses", a.witnesses,
      "distinct witnesses, cycled over the partitions (default: one per partition; 2 from K = 25)");
  sc->add_option("--curve", a.curve, "bls12381 (Filecoin) or bn128")
      ->check(CLI::IsMember({"bls12381", "bn128"}));
  sc->add_option("--kind", a.kind,
                 "snarkjs (.zkey, witnesses; a, b, c computed by the prover) or bellperson (.params, a, b, c "
                 "assignments as Filecoin's synthesis makes them; BLS12-381)")
      ->check(CLI::IsMember({"snarkjs", "bellperson"}));
  sc->add_option("--daemon", a.daemon, "start this cuzk-daemon on the repository for the run");
  sc->add_option("--backend", a.backend, "with --daemon: cpu | cuda | auto");
  sc->add_option("--workers-per-device", a.workers_per_device, "with --daemon: GPU workers per device");
  sc->add_option("--vram-limit", a.vram_limit, "with --daemon: device memory the daemon may use, e.g. 16GiB");
  sc->add_option("--daemon-config", a.daemon_config,
                 "with --daemon: its TOML configuration (docs/config.md)");
  sc->add_option("--timeline", a.timeline, "SVG of the daemon's workers during the run");
  sc->add_flag("--prepare-only", a.prepare_only,
               "make the circuit's key and witnesses in the repository (if not there yet), then stop");
  a.command = sc;
}

int run_porep(const PorepArgs& a, std::string addr) {
  const bool bellperson = a.kind == "bellperson";
  if (bellperson && a.curve != "bls12381")
    throw std::invalid_argument("--kind bellperson: bellperson keys are BLS12-381 (--curve bls12381)");
  const std::string id = "porep-like-k" + std::to_string(a.log_domain) + "-p" + std::to_string(a.partitions) +
                         "-s" + std::to_string(a.seed) + "-" + a.curve + (bellperson ? "-bellperson" : "");
  const auto dir = std::filesystem::path(a.repository) / id;
  // At PoRep scale a witness is 4 GiB (an assignment 17 GiB): by default two distinct ones serve all
  // partitions from K = 25 on.
  const unsigned want = a.witnesses ? std::min(a.witnesses, a.partitions)
                                    : (a.log_domain >= 25 ? std::min(2u, a.partitions) : a.partitions);
  const Layout& layout = bellperson ? kBellperson : kSnarkjs;
  const unsigned distinct = bellperson ? prepare_bellperson(dir, a.log_domain, a.partitions, want, a.seed)
                            : a.curve == "bn128"
                                ? prepare_snarkjs<Bn254>(dir, a.log_domain, a.partitions, want, a.seed)
                                : prepare_snarkjs<Bls12_381>(dir, a.log_domain, a.partitions, want, a.seed);
  if (a.prepare_only) {
    std::cerr << "porep: " << dir.string() << " holds the key and " << distinct << " witness file(s)\n";
    return 0;
  }

  pid_t daemon = -1;
  if (!a.daemon.empty()) {
    const auto sock = std::filesystem::path(a.repository) / "porep-bench.sock";
    addr = "unix://" + sock.string();
    daemon = start_daemon({a.daemon, sock.string(), a.repository, a.backend, a.vram_limit, a.daemon_config,
                           "", a.workers_per_device});
  }
  auto stub = connect(addr);
  std::cerr << "porep: key " << preload_key(*stub, id) << "\n";
  JobSpec spec{id, {}, v1::NORMAL};
  for (unsigned i = 0; i < a.partitions; ++i)
    spec.witness_paths.push_back(std::filesystem::absolute(layout.witness(dir, i % distinct)).string());
  Runner runner(*stub, "");
  runner.run({spec}, a.proofs, 0, a.concurrency);
  print_partitions(*stub, runner.job_ids());
  const int rc = runner.summary();
  if (!a.timeline.empty()) timeline(*stub, runner.job_ids(), a.timeline);
  stop_daemon(daemon);
  return rc;
}

}  // namespace cuzk::bench
