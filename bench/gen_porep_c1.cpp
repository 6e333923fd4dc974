// cuzk-bench gen porep-c1 --sector-size S --out DIR [--proof-type T] [--seed X] [--no-key]
//
// TEST-ONLY inputs for PoRep C2 as Curio sends them, without a sector:
//   DIR/c1.json           Curio's envelope {"SectorNum", "Phase1Out": base64, "SectorSize"} around
//   DIR/phase1-out.json   the SealCommitPhase1Output JSON, byte for byte as filecoin-proofs-api writes it,
//                         from consistent generated vanilla data of one sector (filecoin/porep_test_data.hpp;
//                         StackedDrg<size>V1_1 and the seed's interactive challenges by default;
//                         --proof-type synthetic or non-interactive: a sector of 2 KiB or 8 MiB generated
//                         whole, its challenges drawn from comm_r as those proof types draw them);
//   DIR/<v28-…>.params    a TEST-ONLY Groth16 key of the PoRep circuit (the recorded circuit through the
//   DIR/<v28-…>.vk        test-only bellperson setup, random toxic waste; fixed-base products on the GPU when
//                         there is one), under the standard file name, so DIR serves as a parameter cache
//                         (`cuzk-daemon --parameter-cache DIR`, `cuzk prove-porep --params
//                         DIR/<v28-…>.params`).
// Such a key must never prove anything of value: its toxic waste is in nobody's hands but could have been.
#include "gen_porep_c1.hpp"

#include <CLI/CLI.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <string>

#include "filecoin/c1_output.hpp"
#include "filecoin/c1_test_data.hpp"
#include "filecoin/porep_synthesis.hpp"
#include "filecoin/registered_proof.hpp"
#include "groth16/bellperson.hpp"
#include "groth16/timings.hpp"
#include "io/bellperson.hpp"

#ifdef CUZK_HAVE_CUDA
#include "cuda/device.hpp"
#include "ec/fixed_base_gpu.hpp"
#endif

namespace cuzk::bench {

namespace {

namespace bp = groth16::bellperson;

using groth16::seconds_since;

void write_text(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  out.close();
  if (!out) throw std::runtime_error("writing " + path.string() + " failed");
}

groth16::FixedBaseMul<bp::Curve> fixed_base_mul() {
#ifdef CUZK_HAVE_CUDA
  if (cuda::device_count() > 0)
    return {[](const auto& t, const auto& k) { return ec::gpu::fixed_base_mul_all(t, k); },
            [](const auto& t, const auto& k) { return ec::gpu::fixed_base_mul_all(t, k); }};
#endif
  return {};  // the CPU's
}

}  // namespace

const filecoin::RegisteredSealProof& test_porep_proof_type(const std::string& sector_size,
                                                           const std::string& type) {
  const filecoin::PorepParams& params = filecoin::porep_params_for(sector_size);
  if (type == "interactive")
    return filecoin::registered_seal_proof_by_id(filecoin::registered_seal_proof_v1_1(params));
  if (type == "synthetic")
    return filecoin::registered_seal_proof_for(params, filecoin::ApiVersion::V1_2_0,
                                               filecoin::PorepFeature::kSyntheticPoRep);
  if (type == "non-interactive")
    return filecoin::registered_seal_proof_for(params, filecoin::ApiVersion::V1_2_0,
                                               filecoin::PorepFeature::kNonInteractivePoRep);
  throw std::invalid_argument("proof type '" + type + "': interactive, synthetic or non-interactive");
}

void write_test_porep_c1(const filecoin::RegisteredSealProof& proof, const std::filesystem::path& dir,
                         std::uint64_t seed, std::uint64_t sector_number, bool with_key) {
  const filecoin::PorepParams& params = proof.params();
  std::filesystem::create_directories(dir);
  const auto t0 = std::chrono::steady_clock::now();
  const filecoin::C1Output c1 = filecoin::make_test_c1_output(proof, seed);
  const std::string json = filecoin::write_seal_commit_phase1_output(c1);
  write_text(dir / "phase1-out.json", json);
  write_text(dir / "c1.json", filecoin::write_curio_c1_envelope(sector_number, params.sector_bytes, json));
  std::cout << proof.name << ": C1 output of " << c1.partitions.size() << " partitions × "
            << params.challenges_per_partition << " challenges (" << json.size() << " bytes of JSON) in "
            << seconds_since(t0) << " s → " << (dir / "c1.json").string() << "\n";
  if (!with_key) return;

  write_test_key([&] { return filecoin::porep_record(params).system; }, dir, proof.parameter_file_stem());
}

void write_test_key(const std::function<r1cs::CsrSystem<groth16::bellperson::Fr>()>& record,
                    const std::filesystem::path& dir, const std::string& stem) {
  std::filesystem::create_directories(dir);
  const auto r0 = std::chrono::steady_clock::now();
  auto system = record();
  std::cout << "circuit recorded: " << system.a.rows() << " rows, " << system.n_vars << " variables in "
            << seconds_since(r0) << " s\n";
  const auto s0 = std::chrono::steady_clock::now();
  const io::bellperson::Params key =
      bp::setup(std::move(system), groth16::random_toxic_waste<bp::Curve>(), fixed_base_mul());
  std::cout << "TEST-ONLY key: h " << key.h.size() << ", l " << key.l.size() << ", a " << key.a.size()
            << ", b " << key.b_g1.size() << " points in " << seconds_since(s0) << " s\n";
  const auto w0 = std::chrono::steady_clock::now();
  io::bellperson::write_params((dir / (stem + ".params")).string(), key);
  io::bellperson::write_vk((dir / (stem + ".vk")).string(), key.vk);
  std::cout << "written in " << seconds_since(w0) << " s → " << (dir / (stem + ".params")).string()
            << " (TEST-ONLY parameters)" << std::endl;
}

int run_gen_porep_c1(int argc, char** argv) {
  CLI::App app{"cuzk-bench gen porep-c1: TEST-ONLY C1 output and PoRep key for a sector size"};
  std::string size, out, type = "interactive";
  std::uint64_t seed = 1, sector_number = 1;
  bool no_key = false;
  app.add_option("--sector-size", size, "2KiB, 8MiB, 512MiB, 32GiB or 64GiB")->required();
  app.add_option("--out", out, "output directory")->required();
  app.add_option("--proof-type", type,
                 "interactive (StackedDrg<size>V1_1), synthetic or non-interactive (2KiB and 8MiB only)");
  app.add_option("--seed", seed, "the generated sector follows from it");
  app.add_option("--sector-number", sector_number, "the envelope's SectorNum");
  app.add_flag("--no-key", no_key, "write the C1 files only (a key for this size is there already)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  write_test_porep_c1(test_porep_proof_type(size, type), out, seed, sector_number, !no_key);
  return 0;
}

}  // namespace cuzk::bench
