// cuzk-bench: Google Benchmark entry point (the benchmarks live in the other files of bench/), plus
//   cuzk-bench kernels [max_log2] [reps] [field,ntt,g1,g2,prove,porep,bellperson]   GPU kernel table
//   cuzk-bench pcie [GIB]                                   host-to-device upload rates (gpu/pcie_probe.cpp)
//   cuzk-bench pinned [GIB] [KILL_GIB]                      page-locking and a killed holder's teardown
//                                                           (gpu/pinned_probe.cpp)
//   cuzk-bench interference [LOG_N] [GIB] [REPS]           an MSM beside another thread's uploads and
//                                                           allocations (gpu/interference_probe.cpp)
//   cuzk-bench overlap [LOG_N] [REPS]                      one proof's NTTs beside another's MSM
//                                                           (gpu/overlap_probe.cpp)
//   cuzk-bench circuit <bn128|bls12381> <constraints> <out-dir>
//   cuzk-bench synth porep --sector-size S [--partitions N] [--mode witness|shape|check|recorded]
//   (synth_porep.cpp), synth update … (synth_update.cpp), synth post [--kind window|winning] …
//   (synth_post.cpp) cuzk-bench gen porep-like --log-domain K [--seed S] [--witnesses N] [--curve C] --out
//   DIR cuzk-bench gen porep-c1 --sector-size S --out DIR [--seed X] [--no-key]   TEST-ONLY C1 + key
//   (gen_porep_c1.cpp) cuzk-bench key-image KEY [--dir DIR]   a worker's key: read, image, map, pin
//   (key_image_bench.cpp) cuzk-bench [--addr A] single|batch|stress|status|metrics|preload|evict …   daemon
//   client (client/)
// which writes a synthetic mulchain circuit (circuit.r1cs, witness.wtns) for whole-proof comparisons with
// other provers (bench/compare_snarkjs.sh): cuzk setup makes the key, then each prover runs on the same
// files.
#include <benchmark/benchmark.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>

#include "ec/bls12_381.hpp"
#include "ec/bn254.hpp"
#include "groth16/bellperson.hpp"
#include "groth16/setup.hpp"
#include "io/bellperson.hpp"
#include "io/bellperson_assignment.hpp"
#include "io/bellperson_json.hpp"
#include "io/huge_pages.hpp"
#include "io/r1cs_file.hpp"
#include "io/wtns.hpp"
#include "r1cs/porep_like.hpp"
#include "r1cs/synthetic.hpp"

#ifdef CUZK_HAVE_CUDA
namespace cuzk::bench {
int run_kernels(int argc, char** argv);
int run_sticky_probe(int argc, char** argv);
int run_pcie_probe(int argc, char** argv);
int run_pinned_probe(int argc, char** argv);
int run_interference_probe(int argc, char** argv);
int run_overlap_probe(int argc, char** argv);
}  // namespace cuzk::bench
#endif
#ifdef CUZK_HAVE_CLIENT
namespace cuzk::bench {
int run_client(int argc, char** argv);
}
#endif
namespace cuzk::bench {
int run_synth(int argc, char** argv);         // synth_porep.cpp
int run_gen_porep_c1(int argc, char** argv);  // gen_porep_c1.cpp
int run_key_image(int argc, char** argv);     // key_image_bench.cpp
}  // namespace cuzk::bench

namespace {

template <class Curve>
int write_circuit(std::size_t constraints, const std::filesystem::path& dir) {
  auto circ = cuzk::r1cs::mulchain<Curve>(constraints - 1);  // mulchain(n) has n + 1 constraints
  std::filesystem::create_directories(dir);
  cuzk::io::write_r1cs<Curve>((dir / "circuit.r1cs").string(), circ.cs);
  cuzk::io::write_wtns<Curve>((dir / "witness.wtns").string(), circ.witness);
  std::cout << "wrote " << dir / "circuit.r1cs"
            << " (" << circ.cs.constraints.size() << " constraints) and " << dir / "witness.wtns"
            << "\n";
  return 0;
}

// PoRep-shaped circuit (r1cs/porep_like.hpp): circuit.r1cs and witness-<i>.wtns in `dir`.
template <class Curve>
int write_porep_like(unsigned k, std::uint64_t seed, std::size_t witnesses,
                     const std::filesystem::path& dir) {
  const auto g = cuzk::r1cs::porep_like<typename Curve::Fr>(k, seed, witnesses);
  const auto& s = g.system;
  std::filesystem::create_directories(dir);
  cuzk::io::write_r1cs<Curve>((dir / "circuit.r1cs").string(), cuzk::r1cs::to_constraint_system<Curve>(s));
  for (std::size_t i = 0; i < g.witnesses.size(); ++i)
    cuzk::io::write_wtns<Curve>((dir / ("witness-" + std::to_string(i) + ".wtns")).string(), g.witnesses[i]);
  const double rows = double(s.a.rows());
  std::cout << "porep-like K=" << k << " seed=" << seed << " (" << Curve::display_name << "): " << s.a.rows()
            << " constraints, " << s.n_public << " public + " << (s.n_vars - 1 - s.n_public)
            << " aux variables; non-zeros per row A " << s.a.nnz() / rows << ", B " << s.b.nnz() / rows
            << ", C " << s.c.nnz() / rows << "; " << g.witnesses.size() << " witnesses → " << dir << "\n";
  return 0;
}

// TEST-ONLY bellperson-style files for a PoRep-shaped circuit (issue 7's CLI and C ABI tests).
int write_bellperson(unsigned k, std::uint64_t seed, std::size_t partitions,
                     const std::filesystem::path& dir) {
  namespace bp = cuzk::groth16::bellperson;
  if (k > 20) throw std::invalid_argument("--log-domain above 20 would take the CPU setup too long");
  const auto g = cuzk::r1cs::porep_like<bp::Fr>(k, seed, partitions);
  const auto params = bp::setup(g.system, cuzk::groth16::random_toxic_waste<bp::Curve>());
  std::filesystem::create_directories(dir);
  cuzk::io::bellperson::write_params((dir / "circuit.params").string(), params);
  cuzk::io::bellperson::write_vk((dir / "circuit.vk").string(), params.vk);
  std::vector<bp::Assignment> parts;
  std::vector<std::vector<bp::Fr>> inputs;
  for (const auto& z : g.witnesses) {
    parts.push_back(bp::synthesize(g.system, z));
    inputs.emplace_back(z.begin() + 1, z.begin() + 1 + g.system.n_public);
  }
  cuzk::io::bellperson_json::write_assignments((dir / "assignment.json").string(), parts);
  cuzk::io::bellperson_json::write_inputs((dir / "inputs.json").string(), inputs);
  for (std::size_t k = 0; k < parts.size(); ++k)
    cuzk::io::bellperson_assignment::write((dir / ("assignment-" + std::to_string(k) + ".bin")).string(),
                                           parts[k]);
  std::cout << "bellperson K=" << k << ": " << g.system.a.rows() << " constraints, " << partitions
            << " partitions → " << dir << " (TEST-ONLY parameters)\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  // As the daemon and the CLI run: the io benchmarks measure the reads the product does.
  cuzk::io::use_huge_pages_for_malloc(argv);
  // Daemon client: cuzk-bench [--addr A] single|batch|stress|status|metrics|preload|evict …
  static const char* const kClient[] = {"-a",      "--addr",  "single", "batch", "stress",   "status",
                                        "metrics", "preload", "evict",  "porep", "porep-c2", "filecoin"};
  if (argc >= 2 && std::any_of(std::begin(kClient), std::end(kClient),
                               [&](const char* c) { return std::strcmp(argv[1], c) == 0; })) {
#ifdef CUZK_HAVE_CLIENT
    try {
      return cuzk::bench::run_client(argc, argv);
    } catch (const std::exception& e) {
      std::cerr << "cuzk-bench: " << e.what() << "\n";
      return 1;
    }
#else
    std::cerr << "cuzk-bench: this build has no gRPC client (install libgrpc++-dev: bash scripts/setup)\n";
    return 1;
#endif
  }
  if (argc >= 3 && std::strcmp(argv[1], "gen") == 0 && std::strcmp(argv[2], "porep-c1") == 0) {
    try {
      return cuzk::bench::run_gen_porep_c1(argc - 2, argv + 2);
    } catch (const std::exception& e) {
      std::cerr << "cuzk-bench gen porep-c1: " << e.what() << "\n";
      return 1;
    }
  }
  if (argc >= 2 && std::strcmp(argv[1], "key-image") == 0) {
    try {
      return cuzk::bench::run_key_image(argc - 1, argv + 1);
    } catch (const std::exception& e) {
      std::cerr << "cuzk-bench key-image: " << e.what() << "\n";
      return 1;
    }
  }
  if (argc >= 2 && std::strcmp(argv[1], "synth") == 0) {
    try {
      return cuzk::bench::run_synth(argc, argv);
    } catch (const std::exception& e) {
      std::cerr << "cuzk-bench synth: " << e.what() << "\n";
      return 1;
    }
  }
  // The GPU tools: kernels [max_log2=24] [reps=5] [field,ntt,g1,g2,prove,porep,bellperson], sticky-probe …,
  // pcie [GIB]. Without a CUDA backend each is named and refused.
  struct GpuTool {
    const char* name;
    int (*run)(int, char**);
  };
#ifdef CUZK_HAVE_CUDA
  const GpuTool gpu_tools[] = {{"kernels", cuzk::bench::run_kernels},
                               {"sticky-probe", cuzk::bench::run_sticky_probe},
                               {"pcie", cuzk::bench::run_pcie_probe},
                               {"pinned", cuzk::bench::run_pinned_probe},
                               {"interference", cuzk::bench::run_interference_probe},
                               {"overlap", cuzk::bench::run_overlap_probe}};
#else
  const GpuTool gpu_tools[] = {{"kernels", nullptr},
                               {"sticky-probe", nullptr},
                               {"pcie", nullptr},
                               {"pinned", nullptr},
                               {"interference", nullptr},
                               {"overlap", nullptr}};
#endif
  for (const auto& [name, run] : gpu_tools) {
    if (argc < 2 || std::strcmp(argv[1], name) != 0) continue;
    if (run) return run(argc - 2, argv + 2);
    std::cerr << "cuzk-bench " << name << ": this build has no CUDA backend\n";
    return 1;
  }
  if (argc >= 3 && std::strcmp(argv[1], "gen") == 0 && std::strcmp(argv[2], "porep-like") == 0) {
    CLI::App app{"cuzk-bench gen porep-like: a PoRep-partition-shaped circuit and witnesses"};
    unsigned k = 16;
    std::uint64_t seed = 1;
    std::size_t witnesses = 1;
    std::string curve = "bls12381", out;
    app.add_option("--log-domain", k, "FFT domain 2^K (10..27); K = 27 is a full 32 GiB PoRep partition")
        ->required();
    app.add_option("--seed", seed, "matrices and witnesses follow from it");
    app.add_option("--witnesses", witnesses, "distinct witnesses (partitions) for the same matrices");
    app.add_option("--curve", curve, "bls12381 (Filecoin) or bn128")
        ->check(CLI::IsMember({"bls12381", "bn128"}));
    app.add_option("--out", out, "output directory")->required();
    try {
      app.parse(argc - 2, argv + 2);
      return curve == "bn128" ? write_porep_like<cuzk::Bn254>(k, seed, witnesses, out)
                              : write_porep_like<cuzk::Bls12_381>(k, seed, witnesses, out);
    } catch (const CLI::ParseError& e) {
      return app.exit(e);
    } catch (const std::exception& e) {
      std::cerr << "cuzk-bench gen: " << e.what() << "\n";
      return 1;
    }
  }
  if (argc >= 3 && std::strcmp(argv[1], "gen") == 0 && std::strcmp(argv[2], "bellperson") == 0) {
    CLI::App app{
        "cuzk-bench gen bellperson: TEST-ONLY bellperson .params/.vk for a PoRep-shaped circuit, and "
        "assignments as bellperson's synthesis would hand them to a prover"};
    unsigned k = 12;
    std::uint64_t seed = 1;
    std::size_t partitions = 1;
    std::string out;
    app.add_option("--log-domain", k, "FFT domain 2^K of the circuit (10..20)")->required();
    app.add_option("--seed", seed, "matrices and witnesses follow from it");
    app.add_option("--partitions", partitions, "assignments (partitions) in assignment.json");
    app.add_option("--out", out, "output directory: circuit.params, circuit.vk, assignment.json, inputs.json")
        ->required();
    try {
      app.parse(argc - 2, argv + 2);
      return write_bellperson(k, seed, partitions, out);
    } catch (const CLI::ParseError& e) {
      return app.exit(e);
    } catch (const std::exception& e) {
      std::cerr << "cuzk-bench gen: " << e.what() << "\n";
      return 1;
    }
  }
  if (argc >= 2 && std::strcmp(argv[1], "circuit") == 0) {
    if (argc != 5) {
      std::cerr << "usage: cuzk-bench circuit <bn128|bls12381> <constraints> <out-dir>\n";
      return 2;
    }
    const std::string curve = argv[2];
    const std::size_t n = std::stoull(argv[3]);
    if (n < 2) {
      std::cerr << "cuzk-bench circuit: need at least 2 constraints\n";
      return 2;
    }
    try {
      if (curve == "bn128" || curve == "bn254") return write_circuit<cuzk::Bn254>(n, argv[4]);
      if (curve == "bls12381") return write_circuit<cuzk::Bls12_381>(n, argv[4]);
    } catch (const std::exception& e) {
      std::cerr << "cuzk-bench circuit: " << e.what() << "\n";
      return 1;
    }
    std::cerr << "cuzk-bench circuit: unknown curve '" << curve << "' (bn128 or bls12381)\n";
    return 2;
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
