// cuzk-fuzz-seeds OUT FIXTURES: the fuzz harnesses' seed corpora, written as OUT/<harness>/<name>. The
// snarkjs files are the test fixtures' real ones (FIXTURES = tests/fixtures); the rest are made here with
// cuzk's own writers, small but valid, so that the fuzzers start inside every format: a bellperson key and
// verifying key of a two-row circuit, binary and JSON assignments, a 2 KiB PoRep C1 output (bare and in
// Curio's envelope), 2 KiB PoSt and SnapDeals vanilla proofs, and SubmitProofRequests of every kind.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "cuzk/v1/proving.pb.h"
#include "ff/encoding.hpp"
#include "filecoin/c1_output.hpp"
#include "filecoin/c1_test_data.hpp"
#include "filecoin/porep_vanilla_verify.hpp"
#include "filecoin/post_test_data.hpp"
#include "filecoin/registered_post_proof.hpp"
#include "filecoin/update_test_data.hpp"
#include "gadgets/constraint_system.hpp"
#include "groth16/bellperson.hpp"
#include "groth16/setup.hpp"
#include "io/bellperson.hpp"
#include "io/bellperson_assignment.hpp"
#include "io/bellperson_json.hpp"
#include "io/key_image.hpp"
#include "io/precompiled_circuit.hpp"

namespace {

namespace fs = std::filesystem;
namespace bp = cuzk::groth16::bellperson;
using namespace cuzk;

void write(const fs::path& file, const std::string& bytes) {
  fs::create_directories(file.parent_path());
  std::ofstream(file, std::ios::binary) << bytes;
}
std::string text(const std::vector<std::uint8_t>& b) {
  return {b.begin(), b.end()};
}
std::string read(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// x·x = y, y·1 = y: ONE, one public input, one aux variable.
r1cs::CsrSystem<bp::Fr> two_rows() {
  r1cs::CsrSystem<bp::Fr> s;
  s.n_vars = 3, s.n_public = 1;
  s.a.add(1, bp::Fr::one()), s.a.end_row(), s.a.add(2, bp::Fr::one()), s.a.end_row();
  s.b.add(1, bp::Fr::one()), s.b.end_row(), s.b.add(0, bp::Fr::one()), s.b.end_row();
  s.c.add(2, bp::Fr::one()), s.c.end_row(), s.c.add(2, bp::Fr::one()), s.c.end_row();
  return s;
}

bp::Assignment small_assignment() {
  const bp::Fr x = bp::Fr::from_u64(3), y = x * x;
  bp::Assignment w;
  w.a = std::vector<bp::Fr>{x, y, bp::Fr::one(), x};
  w.b = std::vector<bp::Fr>{x, bp::Fr::one(), bp::Fr::zero(), bp::Fr::zero()};
  w.c = std::vector<bp::Fr>{y, y, bp::Fr::zero(), bp::Fr::zero()};
  w.inputs = {bp::Fr::one(), x};
  w.aux = std::vector<bp::Fr>{y};
  w.a_aux = bp::Density::of_size(1), w.b_inputs = bp::Density::of_size(2), w.b_aux = bp::Density::of_size(1);
  w.a_aux.set(0), w.b_inputs.set(0), w.b_inputs.set(1);
  return w;
}

std::string repr(const filecoin::Fr& x) {
  const auto r = filecoin::fr_to_repr(x);
  return {r.begin(), r.end()};
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: cuzk-fuzz-seeds OUT FIXTURES\n");
    return 2;
  }
  const fs::path out = argv[1], fixtures = argv[2];
  for (const char* curve : {"bn128", "bls12381"})
    for (const char* f : {"multiplier.zkey", "multiplier.wtns", "multiplier.r1cs"})
      write(out / "snarkjs_files" / (std::string(curve) + "-" + f), read(fixtures / "io" / curve / f));

  const auto key = bp::setup(two_rows(), groth16::random_toxic_waste<bp::Curve>());
  const fs::path tmp = out / "tmp";
  fs::create_directories(tmp);
  io::bellperson::write_params((tmp / "k.params").string(), key);
  io::bellperson::write_vk((tmp / "k.vk").string(), key.vk);
  io::bellperson_assignment::write((tmp / "a.bin").string(), small_assignment());
  io::bellperson_json::write_assignments((tmp / "a.json").string(), {small_assignment()});
  {  // x·x = y, y·1 = y recorded: a two-row pre-compiled circuit
    gadgets::RecordCS<> cs;
    static const bp::Fr one = bp::Fr::one();  // the value callbacks return a reference: not to a temporary
    const auto x = cs.alloc_input([]() -> const bp::Fr& { return one; });
    const auto y = cs.alloc([]() -> const bp::Fr& { return one; });
    cs.enforce([&](gadgets::LC& a) { a.add(x); }, [&](gadgets::LC& b) { b.add(x); },
               [&](gadgets::LC& c) { c.add(y); });
    cs.enforce([&](gadgets::LC& a) { a.add(y); }, [](gadgets::LC& b) { b.add(gadgets::kOne); },
               [&](gadgets::LC& c) { c.add(y); });
    io::write_precompiled_circuit((tmp / "c.cpce").string(), std::move(cs).finish(), "seed");
  }
  {  // the key as a key image (the worker processes' shared form)
    io::key_image::Builder image(tmp / "k.key", fs::file_size(tmp / "k.params") + (1 << 20));
    auto decoded = io::bellperson::read_params((tmp / "k.params").string(), false, false, &image);
    image.finish(decoded, io::key_image::identify(tmp / "k.params"));
  }
  for (const char* f : {"k.params", "k.vk", "a.bin", "a.json", "c.cpce", "k.key"})
    write(out / "bellperson_files" / f, read(tmp / f));
  // Regressions, found by the campaign: a JSON number past a double's range (nlohmann's out_of_range, which
  // escaped the JSON assignment reader's catch of parse errors only).
  write(out / "bellperson_files" / "regression-json-number-overflow",
        std::string("666666666666666666666666E6666666") + '\0');
  fs::remove_all(tmp);

  const filecoin::PorepParams& porep = filecoin::porep_params_for("2KiB");
  const std::string c1 = filecoin::write_seal_commit_phase1_output(filecoin::make_test_c1_output(porep, 1));
  write(out / "c1_output" / "phase1-out.json", c1);
  write(out / "c1_output" / "envelope.json", filecoin::write_curio_c1_envelope(1, porep.sector_bytes, c1));

  std::array<std::uint8_t, 32> randomness{};
  for (std::size_t i = 0; i < 31; ++i) randomness[i] = static_cast<std::uint8_t>(17 * i + 3);
  filecoin::PostParams window = filecoin::post_params_for(filecoin::PostKind::kWindow, "2KiB");
  filecoin::PostParams winning = filecoin::post_params_for(filecoin::PostKind::kWinning, "2KiB");
  winning.challenges = winning.sectors * winning.challenges;
  const std::string wpost = text(filecoin::encode_post_vanilla_proof(
      filecoin::make_test_post_vanilla_proof(window, randomness, 5, 9), window));
  const std::string winpost = text(filecoin::encode_post_vanilla_proof(
      filecoin::make_test_post_vanilla_proof(winning, randomness, 6, 9), winning));
  const filecoin::UpdateParams& update = filecoin::update_params_for("2KiB");
  const filecoin::UpdateTestSector sector = filecoin::make_test_update_sector(update, 3);
  const std::string snap = text(filecoin::encode_update_vanilla_proof(sector.partitions[0], update));
  write(out / "vanilla_proofs" / "window-post", wpost);
  write(out / "vanilla_proofs" / "winning-post", winpost);
  write(out / "vanilla_proofs" / "snap-partition", snap);

  v1::SubmitProofRequest q;
  q.set_request_id("wdpost");
  q.set_proof_kind(v1::WINDOW_POST_PARTITION);
  q.set_sector_size(2048);
  q.set_randomness(std::string(randomness.begin(), randomness.end()));
  q.add_vanilla_proofs(wpost);
  write(out / "grpc_request" / "window-post", q.SerializeAsString());
  q.set_proof_kind(v1::WINNING_POST);
  q.clear_vanilla_proofs();
  q.add_vanilla_proofs(winpost);
  write(out / "grpc_request" / "winning-post", q.SerializeAsString());
  v1::SubmitProofRequest s;
  s.set_request_id("snap");
  s.set_proof_kind(v1::SNAP_DEALS_UPDATE);
  s.set_sector_size(2048);
  s.add_vanilla_proofs(snap);
  s.set_comm_r_old(repr(sector.commitments.comm_r_old));
  s.set_comm_r_new(repr(sector.commitments.comm_r_new));
  s.set_comm_d_new(repr(sector.commitments.comm_d_new));
  write(out / "grpc_request" / "snap", s.SerializeAsString());
  v1::SubmitProofRequest p;
  p.set_request_id("porep");
  p.set_proof_kind(v1::POREP_SEAL_COMMIT);
  p.set_vanilla_proof(filecoin::write_curio_c1_envelope(1, porep.sector_bytes, c1));
  write(out / "grpc_request" / "porep", p.SerializeAsString());
  v1::SubmitProofRequest w;
  w.set_request_id("circuit");
  w.set_circuit_id("multiplier");
  w.set_witness(read(fixtures / "io" / "bls12381" / "multiplier.wtns"));
  w.add_witness_paths("/tmp/a.wtns");
  write(out / "grpc_request" / "witness", w.SerializeAsString());
  std::printf("seed corpora written under %s\n", out.string().c_str());
  return 0;
}
