// cuzk-bench [--addr A] porep-c2 --dir DIR [--sector-size S] [--proofs P] [-j J] [--daemon BIN …]
//
// PoRep C2 through the daemon as Curio sends it: P Prove requests of proof_kind POREP_SEAL_COMMIT with the
// C1 envelope DIR/c1.json as vanilla_proof, J in flight. DIR is made first when it has no c1.json
// (`cuzk-bench gen porep-c1`: a generated sector of size S, of --proof-type T, and a TEST-ONLY key under its
// standard name), and
// serves as the daemon's parameter cache when --daemon starts one. Prints the summary table, each
// partition's stages (synthesis, GPU stages, self-check), the mean synthesis time per proof, and checks
// every returned proof against the public inputs of the C1 output's challenges (--no-verify skips that).
#include "filecoin/porep_c2.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>

#include "client/runner.hpp"
#include "filecoin/circuit_catalog.hpp"
#include "gen_porep_c1.hpp"
#include "groth16/bellperson.hpp"
#include "io/bellperson.hpp"

namespace cuzk::bench {

void add_porep_c2_command(CLI::App& app, PorepC2Args& a) {
  auto* sc =
      app.add_subcommand("porep-c2", "PoRep C2 from C1 outputs through the daemon, as Curio sends them");
  sc->add_option("--dir", a.dir, "holds c1.json and the key (made there first if it has no c1.json)")
      ->required();
  sc->add_option("--sector-size", a.sector_size, "when DIR is made: 2KiB, 8MiB, 512MiB, 32GiB or 64GiB");
  sc->add_option("--seed", a.seed, "when DIR is made: the generated sector follows from it");
  sc->add_option("--proof-type", a.proof_type,
                 "when DIR is made: interactive (default), synthetic or non-interactive (2KiB, 8MiB)");
  sc->add_option("--proofs", a.proofs, "proofs to send");
  sc->add_option("-j,--concurrency", a.concurrency, "proofs in flight");
  sc->add_option("--daemon", a.daemon, "start this cuzk-daemon for the run, DIR as its parameter cache");
  sc->add_option("--backend", a.backend, "with --daemon: cpu | cuda | auto");
  sc->add_option("--workers-per-device", a.workers_per_device, "with --daemon: GPU workers per device");
  sc->add_option("--vram-limit", a.vram_limit, "with --daemon: device memory the daemon may use, e.g. 16GiB");
  sc->add_option("--daemon-config", a.daemon_config, "with --daemon: its TOML configuration");
  sc->add_option("--timeline", a.timeline, "SVG of the daemon's workers during the run");
  sc->add_flag("!--no-verify", a.verify, "do not check the returned proofs here");
  a.command = sc;
}

int run_porep_c2(const PorepC2Args& a, std::string addr) {
  namespace bp = groth16::bellperson;
  const std::filesystem::path dir = std::filesystem::absolute(a.dir);
  if (!std::filesystem::exists(dir / "c1.json"))
    write_test_porep_c1(test_porep_proof_type(a.sector_size, a.proof_type), dir, a.seed, 1, true);
  const std::string c1 = read_file((dir / "c1.json").string());
  const filecoin::PorepC2Input in = filecoin::read_porep_c1(
      std::span(reinterpret_cast<const std::uint8_t*>(c1.data()), c1.size()), (dir / "c1.json").string());
  const std::string circuit = filecoin::porep_circuit(in.params()).id;

  const pid_t daemon = start_daemon_in(
      dir, "porep-c2", {a.daemon, "", "", a.backend, a.vram_limit, a.daemon_config, "", a.workers_per_device},
      addr);
  auto stub = connect(addr);
  std::fprintf(stderr, "porep-c2: %s (%s) key %s\n", circuit.c_str(), std::string(in.proof->name).c_str(),
               preload_key(*stub, circuit).c_str());
  JobSpec spec{"", {}, v1::NORMAL, {}, c1, v1::POREP_SEAL_COMMIT};
  Runner runner(*stub, "");
  runner.run({spec}, a.proofs, 0, a.concurrency);
  print_partitions(*stub, runner.job_ids());
  int rc = runner.summary();
  double synthesis = 0;
  std::size_t ok = 0, verified = 0;
  const auto vk =
      a.verify ? io::bellperson::read_vk((dir / filecoin::porep_circuit(in.params()).parameter_file).string())
               : io::bellperson::VerifyingKey{};
  for (const auto& o : runner.outcomes()) {
    if (!o.ok) continue;
    ++ok;
    synthesis += o.synthesis_ms;
    if (!a.verify) continue;
    bool all = o.proof.size() == 192 * in.partitions.size();
    for (std::size_t k = 0; all && k < in.partitions.size(); ++k) {
      const auto proof = bp::decode_proof(
          std::span(reinterpret_cast<const std::uint8_t*>(o.proof.data()) + 192 * k, 192), "proof", k);
      all = bp::verify(vk, in.public_inputs[k], proof).valid;
    }
    verified += all;
    if (!all)
      std::fprintf(stderr, "porep-c2: job %s returned a proof that does NOT verify\n", o.job_id.c_str());
  }
  std::printf("synthesis per proof (all partitions, mean): %.1f ms; %zu of %zu proofs %s\n",
              ok ? synthesis / double(ok) : 0.0, a.verify ? verified : ok, ok,
              a.verify ? "verified here against the C1 output's challenges" : "returned (not checked here)");
  if (a.verify && verified != ok) rc = 1;
  if (!a.timeline.empty()) timeline(*stub, runner.job_ids(), a.timeline);
  stop_daemon(daemon);
  return rc;
}

}  // namespace cuzk::bench
