// Reading the big files a proof starts from, on the CPU: a bellperson .params key and a binary assignment
// (Filecoin's flow) and a snarkjs .zkey, each for a PoRep-shaped circuit of 2^K constraints written once per
// process to a temporary folder; and writing the .params key (what the PoRep benchmark's test-only setup
// does at every size): `cuzk-bench --benchmark_filter=io/`. Bytes per second are the file's.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <memory>

#include "ec/bls12_381.hpp"
#include "groth16/bellperson.hpp"
#include "groth16/setup.hpp"
#include "io/bellperson.hpp"
#include "io/bellperson_assignment.hpp"
#include "io/zkey.hpp"
#include "r1cs/porep_like.hpp"

namespace {

using namespace cuzk;
namespace bp = groth16::bellperson;

struct Files {
  std::filesystem::path dir, params, assignment, zkey;
  ~Files() { std::filesystem::remove_all(dir); }
};

// The circuit's files, made once per size (the test-only setups are the slow part).
const Files& files(int log_domain) {
  static std::map<int, std::unique_ptr<Files>> cache;
  auto& slot = cache[log_domain];
  if (!slot) {
    slot = std::make_unique<Files>();
    slot->dir = std::filesystem::temp_directory_path() /
                ("cuzk-io-bench-" + std::to_string(::getpid()) + "-" + std::to_string(log_domain));
    std::filesystem::create_directories(slot->dir);
    slot->params = slot->dir / "circuit.params";
    slot->assignment = slot->dir / "assignment.bin";
    slot->zkey = slot->dir / "circuit.zkey";
    const auto g = r1cs::porep_like<bp::Fr>(static_cast<unsigned>(log_domain), 1, 1);
    io::bellperson::write_params(slot->params.string(),
                                 bp::setup(g.system, groth16::random_toxic_waste<bp::Curve>()));
    io::bellperson_assignment::write(slot->assignment.string(), bp::synthesize(g.system, g.witnesses[0]));
    io::write_zkey<Bls12_381>(slot->zkey.string(),
                              groth16::setup(g.system, groth16::random_toxic_waste<Bls12_381>()));
  }
  return *slot;
}

template <class Read>
void read_file(benchmark::State& state, const std::filesystem::path& path, Read&& read) {
  for (auto _ : state) benchmark::DoNotOptimize(read(path.string()));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * std::filesystem::file_size(path)));
}

void BM_ReadParams(benchmark::State& state) {
  read_file(state, files(static_cast<int>(state.range(0))).params,
            [](const std::string& p) { return io::bellperson::read_params(p); });
}
void BM_ReadAssignment(benchmark::State& state) {
  read_file(state, files(static_cast<int>(state.range(0))).assignment,
            [](const std::string& p) { return io::bellperson_assignment::read(p); });
}
void BM_ReadZkey(benchmark::State& state) {
  read_file(state, files(static_cast<int>(state.range(0))).zkey,
            [](const std::string& p) { return io::read_zkey<Bls12_381>(p); });
}

void BM_WriteParams(benchmark::State& state) {
  const auto& f = files(static_cast<int>(state.range(0)));
  const auto params = io::bellperson::read_params(f.params.string());
  const auto out = f.dir / "written.params";
  for (auto _ : state) io::bellperson::write_params(out.string(), params);
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * std::filesystem::file_size(out)));
  std::filesystem::remove(out);
}

}  // namespace

BENCHMARK(BM_WriteParams)
    ->Name("io/write_params")
    ->Arg(20)
    ->Iterations(3)  // the first write of a file also allocates its pages
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_ReadParams)->Name("io/read_params")->Arg(20)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ReadAssignment)
    ->Name("io/read_assignment")
    ->Arg(20)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_ReadZkey)->Name("io/read_zkey")->Arg(20)->Unit(benchmark::kMillisecond)->UseRealTime();
