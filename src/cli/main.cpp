// cuzk: Groth16 proving for snarkjs/circom files on BN254 and BLS12-381.
#include <tbb/global_control.h>

#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>
#include <memory>

#include "cli/commands.hpp"
#include "io/huge_pages.hpp"

int main(int argc, char** argv) {
  cuzk::io::use_huge_pages_for_malloc(argv);  // before any thread
  using namespace cuzk::cli;
  CLI::App app{"cuzk: Groth16 prover and verifier for snarkjs/circom files (BN254, BLS12-381)"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "cuzk 0.1.0");
  int threads = 0;
  app.add_option("--threads", threads, "Worker threads (default: all cores)")->check(CLI::PositiveNumber);

  ProveArgs prove;
  auto* p = app.add_subcommand("prove",
                               "Prove: cuzk prove <circuit.zkey> <witness.wtns> <proof.json> <public.json>");
  p->add_option("zkey", prove.zkey, "Proving key (.zkey, snarkjs Groth16)")
      ->required()
      ->check(CLI::ExistingFile);
  p->add_option("wtns", prove.wtns, "Witness (.wtns)")->required()->check(CLI::ExistingFile);
  p->add_option("proof", prove.proof_out, "Where to write proof.json")->required();
  p->add_option("public", prove.public_out, "Where to write public.json")->required();
  p->add_option("--randomness", prove.randomness,
                "Blinding factors r,s in decimal (deterministic proofs for tests); default: OS CSPRNG");
  p->add_option("--backend", prove.backend, "cpu, cuda, or auto (the GPU when one is present, else the CPU)")
      ->check(CLI::IsMember({"cpu", "cuda", "auto"}));
  p->add_flag("-v,--verbose", prove.verbose, "Print the timing of every prover stage");
  p->add_flag("!--no-self-verify", prove.self_verify, "Skip checking the proof before writing it");
  p->add_option("--threads", threads, "Worker threads (default: all cores)")->check(CLI::PositiveNumber);

  VerifyArgs verify;
  auto* v = app.add_subcommand("verify",
                               "Verify: cuzk verify <verification_key.json> <public.json> <proof.json>; "
                               "exit 0 when valid, 1 when invalid, 2 on unreadable input");
  v->add_option("vk", verify.vk, "verification_key.json")->required();
  v->add_option("public", verify.public_inputs, "public.json")->required();
  v->add_option("proof", verify.proof, "proof.json")->required();

  SetupArgs setup;
  auto* s =
      app.add_subcommand("setup", "TEST-ONLY trusted setup from a .r1cs (random toxic waste, no ceremony)");
  s->add_option("r1cs", setup.r1cs, "Constraint system (.r1cs from circom)")
      ->required()
      ->check(CLI::ExistingFile);
  s->add_option("zkey", setup.zkey_out, "Where to write the .zkey")->required();
  s->add_option("--vk", setup.vk_out, "Also write verification_key.json here");
  s->add_flag("--gamma-one", setup.gamma_one, "Keep γ = 1 as snarkjs keys do");
  s->add_option("--threads", threads, "Worker threads (default: all cores)")->check(CLI::PositiveNumber);

  ProveBellpersonArgs pbp;
  auto* pb = app.add_subcommand("prove-bellperson",
                                "Filecoin-style proof from bellperson .params and a synthesized assignment "
                                "(docs/filecoin.md); writes 192 bytes per partition");
  pb->add_option("--params", pbp.params, "bellperson .params")->required()->check(CLI::ExistingFile);
  pb->add_option("--assignment", pbp.assignment, "assignment JSON: a, b, c, inputs, aux [+ densities]")
      ->required()
      ->check(CLI::ExistingFile);
  pb->add_option("--out", pbp.proof_out, "where to write the proof bytes")->required();
  pb->add_option("--randomness", pbp.randomness, "r,s (0x-prefixed hex or decimal); default: OS CSPRNG");
  pb->add_flag("--check-subgroup", pbp.check_subgroup, "also check every key point's subgroup (slow)");
  pb->add_option("--threads", threads, "Worker threads (default: all cores)")->check(CLI::PositiveNumber);

  VerifyBellpersonArgs vbp;
  auto* vb = app.add_subcommand("verify-bellperson",
                                "Verify Filecoin-style proofs: exit 0 when valid, 1 when invalid, 2 on "
                                "unreadable input");
  vb->add_option("--vk", vbp.vk, "bellperson .vk")->required();
  vb->add_option("--inputs", vbp.inputs, "public inputs JSON (without ONE), one array per partition")
      ->required();
  vb->add_option("--proof", vbp.proof, "proof bytes (192 per partition)")->required();

  ProvePorepArgs ppa;
  auto* pp =
      app.add_subcommand("prove-porep",
                         "Filecoin PoRep C2: synthesize every partition of a C1 output, prove and verify "
                         "it; writes 192 bytes per partition (docs/filecoin.md)");
  pp->add_option("--params", ppa.params,
                 "the PoRep circuit's .params (Filecoin's, or cuzk-bench gen porep-c1's)")
      ->required()
      ->check(CLI::ExistingFile);
  pp->add_option("--c1", ppa.c1, "C1 output: Curio's envelope or the SealCommitPhase1Output JSON")
      ->required()
      ->check(CLI::ExistingFile);
  pp->add_option("--out", ppa.proof_out, "where to write the proof bytes")->required();
  pp->add_option("--backend", ppa.backend, "cpu | cuda | auto")
      ->check(CLI::IsMember({"cpu", "cuda", "auto"}));
  pp->add_option("--threads", threads, "Worker threads (default: all cores)")->check(CLI::PositiveNumber);

  VerifyPorepArgs vpa;
  auto* vp =
      app.add_subcommand("verify-porep",
                         "Verify PoRep C2 proofs against the challenges of their C1 output: exit 0 when "
                         "valid, 1 when invalid, 2 on unreadable input");
  vp->add_option("--vk", vpa.vk, "the PoRep circuit's .vk (or its .params)")->required();
  vp->add_option("--c1", vpa.c1, "the C1 output the proof is for")->required();
  vp->add_option("--proof", vpa.proof, "proof bytes (192 per partition)")->required();

  CircuitPorepArgs cpa;
  auto* circuit = app.add_subcommand("circuit", "Synthesize a built-in circuit and describe its size");
  circuit->require_subcommand(1);
  auto* cp = circuit->add_subcommand(
      "porep", "Filecoin's PoRep partition circuit: constraints, variables, non-zeros, densities");
  cp->add_option("--sector-size", cpa.sector_size, "2KiB, 8MiB, 512MiB, 32GiB or 64GiB")->required();
  cp->add_flag("--json", cpa.json, "Print one JSON object");
  cp->add_option("--record", cpa.record_dir,
                 "Record the matrices instead (record mode) and write DIR/porep-<size>.cpce");
  cp->add_option("--threads", threads, "Worker threads (default: all cores)")->check(CLI::PositiveNumber);
  CircuitPostArgs cwa, cwi;
  cwi.winning = true;
  auto* cw = circuit->add_subcommand(
      "post", "Filecoin's WindowPoSt partition circuit: constraints, variables, non-zeros, densities");
  auto* cwn = circuit->add_subcommand(
      "winning", "Filecoin's WinningPoSt circuit: constraints, variables, non-zeros, densities");
  for (auto [sub, args] : {std::pair{cw, &cwa}, std::pair{cwn, &cwi}}) {
    sub->add_option("--sector-size", args->sector_size, "2KiB, 8MiB, 512MiB, 32GiB or 64GiB")->required();
    sub->add_flag("--json", args->json, "Print one JSON object");
  }
  CircuitUpdateArgs cua;
  auto* cu = circuit->add_subcommand(
      "update",
      "Filecoin's SnapDeals (empty sector update) partition circuit: constraints, variables, densities");
  cu->add_option("--sector-size", cua.sector_size,
                 "2KiB, 8MiB, 512MiB, 32GiB or 64GiB (test sizes: 1, 4, 8, 16, 32KiB, 16MiB)")
      ->required();
  cu->add_flag("--json", cua.json, "Print one JSON object");

  std::string info_path;
  bool info_devices = false;
  auto* i = app.add_subcommand(
      "info", "Describe a .zkey, .wtns, .r1cs, .cpce, proof, public or verification key file, or the GPUs");
  auto* info_file = i->add_option("file", info_path, "File to describe");
  i->add_flag("--devices", info_devices,
              "Every GPU, and which code of this build it runs (machine code or PTX, multiply form)")
      ->excludes(info_file);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? 0 : (v->parsed() || vb->parsed() || vp->parsed() ? kBadInput : kFailed);
  }

  std::unique_ptr<tbb::global_control> limit;
  if (threads > 0)
    limit = std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism, threads);

  try {
    if (p->parsed()) return run_prove(prove);
    if (v->parsed()) return run_verify(verify);
    if (s->parsed()) return run_setup(setup);
    if (i->parsed() && info_devices) return run_info_devices();
    if (i->parsed() && info_path.empty()) throw std::invalid_argument("cuzk info: a file, or --devices");
    if (i->parsed()) return run_info(info_path);
    if (pb->parsed()) return run_prove_bellperson(pbp);
    if (vb->parsed()) return run_verify_bellperson(vbp);
    if (cp->parsed()) return run_circuit_porep(cpa);
    if (cw->parsed()) return run_circuit_post(cwa);
    if (cwn->parsed()) return run_circuit_post(cwi);
    if (cu->parsed()) return run_circuit_update(cua);
    if (pp->parsed()) return run_prove_porep(ppa);
    if (vp->parsed()) return run_verify_porep(vpa);
  } catch (const std::bad_alloc&) {
    std::cerr << "cuzk: error: out of memory\n";
  } catch (const std::exception& e) {
    std::cerr << "cuzk: error: " << e.what() << "\n";
  }
  return v->parsed() || vb->parsed() || vp->parsed() ? kBadInput : kFailed;
}
