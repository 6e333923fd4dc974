// The C ABI from C++: proofs equal the library's for fixed r and s and verify; many threads prove with one
// engine and one key at once; every misuse is a status and a message, never an abort, a failed call writes no
// proof, and a call's errors come in partition order although the next partition is read in ahead.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <thread>

#include "cuzk/cuzk.h"
#include "groth16/bellperson.hpp"
#include "r1cs/porep_like.hpp"

namespace cuzk {
namespace {

namespace bp = groth16::bellperson;

struct Fixture {
  r1cs::PorepLike<bp::Fr> circuit = r1cs::porep_like<bp::Fr>(11, 9, 2);
  io::bellperson::Params params = bp::setup(circuit.system, groth16::random_toxic_waste<bp::Curve>());
  std::vector<bp::Assignment> parts;
  std::filesystem::path file =
      std::filesystem::temp_directory_path() / ("cuzk-capi-" + std::to_string(::getpid()) + ".params");
  Fixture() {
    for (const auto& z : circuit.witnesses) parts.push_back(bp::synthesize(circuit.system, z));
    io::bellperson::write_params(file.string(), params);
  }
  ~Fixture() { std::filesystem::remove(file); }
};

Fixture& fixture() {
  static Fixture f;
  return f;
}

const cuzk_fr* abi(std::span<const bp::Fr> v) {
  return reinterpret_cast<const cuzk_fr*>(v.data());
}

cuzk_density abi(const bp::Density& d) {
  return {d.words.data(), d.bits, d.popcount()};
}

cuzk_assignment abi(const bp::Assignment& w) {
  return {abi(w.a_aux), abi(w.b_inputs), abi(w.b_aux),    abi(w.a),   abi(w.b),    abi(w.c),
          w.a.size(),   abi(w.inputs),   w.inputs.size(), abi(w.aux), w.aux.size()};
}

// An engine and loaded parameters, released at scope end.
struct Session {
  cuzk_engine* engine = nullptr;
  cuzk_params* params = nullptr;
  Session() {
    EXPECT_EQ(cuzk_engine_create("cpu", &engine, nullptr), CUZK_OK);
    EXPECT_EQ(cuzk_params_load(engine, fixture().file.c_str(), 1, &params, nullptr), CUZK_OK);
  }
  ~Session() {
    cuzk_params_free(params);
    cuzk_engine_destroy(engine);
  }
};

TEST(CApi, ProofsEqualTheLibrarysAndVerify) {
  auto& f = fixture();
  Session s;
  const std::vector<cuzk_assignment> views = {abi(f.parts[0]), abi(f.parts[1])};
  const std::vector<bp::Fr> r = {bp::Fr::from_u64(11), bp::Fr::from_u64(12)},
                            sv = {bp::Fr::from_u64(21), bp::Fr::from_u64(22)};
  std::vector<std::uint8_t> proofs(2 * 192);
  char* error = nullptr;
  ASSERT_EQ(cuzk_prove(s.engine, s.params, views.data(), 2, abi(r), abi(sv), proofs.data(), &error), CUZK_OK)
      << (error ? error : "");
  EXPECT_EQ(error, nullptr);
  for (std::size_t k = 0; k < 2; ++k) {
    const auto expect = bp::encode_proof(bp::prove(f.params, f.parts[k], r[k], sv[k]));
    EXPECT_TRUE(std::equal(expect.begin(), expect.end(), proofs.begin() + 192 * k)) << "partition " << k;
    const std::vector<bp::Fr> pub(f.parts[k].inputs.begin() + 1, f.parts[k].inputs.end());
    EXPECT_EQ(cuzk_verify(s.params, abi(pub), pub.size(), proofs.data() + 192 * k, nullptr), CUZK_OK);
    // Other public inputs: a well-formed proof that does not verify.
    auto other = pub;
    other[0] += bp::Fr::one();
    EXPECT_EQ(cuzk_verify(s.params, abi(other), other.size(), proofs.data() + 192 * k, &error),
              CUZK_ERR_INVALID_PROOF);
    cuzk_string_free(error);
  }
}

TEST(CApi, ManyThreadsShareOneEngineAndKey) {
  auto& f = fixture();
  Session s;
  const cuzk_assignment view = abi(f.parts[0]);
  const std::vector<bp::Fr> r = {bp::Fr::from_u64(5)}, sv = {bp::Fr::from_u64(6)};
  const auto expect = bp::encode_proof(bp::prove(f.params, f.parts[0], r[0], sv[0]));
  std::vector<std::vector<std::uint8_t>> out(6, std::vector<std::uint8_t>(192));
  std::vector<cuzk_status> status(out.size());
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < out.size(); ++t)
    threads.emplace_back([&, t] {
      status[t] = cuzk_prove(s.engine, s.params, &view, 1, abi(r), abi(sv), out[t].data(), nullptr);
    });
  for (auto& t : threads) t.join();
  for (std::size_t t = 0; t < out.size(); ++t) {
    EXPECT_EQ(status[t], CUZK_OK);
    EXPECT_TRUE(std::equal(expect.begin(), expect.end(), out[t].begin())) << "thread " << t;
  }
}

TEST(CApi, MisuseIsAStatusAndAMessage) {
  auto& f = fixture();
  Session s;
  char* error = nullptr;
  auto expect = [&](cuzk_status got, cuzk_status want, const std::string& needle) {
    EXPECT_EQ(got, want) << needle;
    ASSERT_NE(error, nullptr) << needle;
    EXPECT_NE(std::string(error).find(needle), std::string::npos) << error;
    cuzk_string_free(error);
    error = nullptr;
  };
  cuzk_engine* e = nullptr;
  expect(cuzk_engine_create("tpu", &e, &error), CUZK_ERR_INVALID_ARGUMENT, "tpu");
  // "auto" always gives an engine (the CPU without a GPU); "cuda" without one is a clear refusal.
  ASSERT_EQ(cuzk_engine_create("auto", &e, nullptr), CUZK_OK);
  cuzk_engine_destroy(e);
  e = nullptr;
  if (const cuzk_status st = cuzk_engine_create("cuda", &e, &error); st == CUZK_OK) {
    cuzk_engine_destroy(e);  // a GPU machine: tests/gpu/capi_gpu_test.cpp proves on it
    e = nullptr;
  } else {
    expect(st, CUZK_ERR_NO_DEVICE, "no usable CUDA device");
    EXPECT_EQ(e, nullptr);
  }
  cuzk_params* p = nullptr;
  expect(cuzk_params_load(s.engine, "/nonexistent.params", 0, &p, &error), CUZK_ERR_FORMAT, "nonexistent");
  EXPECT_EQ(p, nullptr);

  std::vector<std::uint8_t> proofs(2 * 192, 0xAB);
  auto view = abi(f.parts[0]);
  expect(cuzk_prove(s.engine, nullptr, &view, 1, nullptr, nullptr, proofs.data(), &error),
         CUZK_ERR_INVALID_ARGUMENT, "NULL");
  auto wrong_popcount = view;
  wrong_popcount.b_aux.popcount += 1;
  expect(cuzk_prove(s.engine, s.params, &wrong_popcount, 1, nullptr, nullptr, proofs.data(), &error),
         CUZK_ERR_INVALID_ARGUMENT, "popcount");
  auto short_aux = view;
  short_aux.aux_size -= 1;
  short_aux.a_aux.bit_len = short_aux.b_aux.bit_len = short_aux.aux_size;
  short_aux.a_aux.popcount = f.parts[0].a_aux.popcount() - f.parts[0].a_aux.test(short_aux.aux_size);
  short_aux.b_aux.popcount = f.parts[0].b_aux.popcount() - f.parts[0].b_aux.test(short_aux.aux_size);
  expect(cuzk_prove(s.engine, s.params, &short_aux, 1, nullptr, nullptr, proofs.data(), &error),
         CUZK_ERR_INVALID_ARGUMENT, "aux values");
  // Partition 1 does not satisfy the circuit: an error naming it, and no proof written at all.
  auto bad = f.parts[1];
  bad.aux[7] += bp::Fr::one();
  const std::vector<cuzk_assignment> views = {view, abi(bad)};
  expect(cuzk_prove(s.engine, s.params, views.data(), 2, nullptr, nullptr, proofs.data(), &error),
         CUZK_ERR_UNSATISFIED, "partition 1");
  EXPECT_TRUE(std::all_of(proofs.begin(), proofs.end(), [](std::uint8_t b) { return b == 0xAB; }));
  // Partition k + 1 is read in while partition k proves, yet errors come in partition order: partition 1's
  // unsatisfied assignment is reported, not partition 2's malformed bitmap (read by then).
  const std::vector<cuzk_assignment> three = {view, abi(bad), wrong_popcount};
  std::vector<std::uint8_t> three_proofs(3 * 192, 0xAB);
  expect(cuzk_prove(s.engine, s.params, three.data(), 3, nullptr, nullptr, three_proofs.data(), &error),
         CUZK_ERR_UNSATISFIED, "partition 1");
  const std::vector<cuzk_assignment> last_bad = {view, view, wrong_popcount};
  expect(cuzk_prove(s.engine, s.params, last_bad.data(), 3, nullptr, nullptr, three_proofs.data(), &error),
         CUZK_ERR_INVALID_ARGUMENT, "partition 2: b_aux: popcount");
  EXPECT_TRUE(
      std::all_of(three_proofs.begin(), three_proofs.end(), [](std::uint8_t b) { return b == 0xAB; }));
  // A proof that is not a point: a format error.
  const std::vector<bp::Fr> pub(f.parts[0].inputs.begin() + 1, f.parts[0].inputs.end());
  std::vector<std::uint8_t> junk(192, 0x17);
  expect(cuzk_verify(s.params, abi(pub), pub.size(), junk.data(), &error), CUZK_ERR_FORMAT, "A");
  expect(cuzk_verify(s.params, abi(pub), pub.size() - 1, junk.data(), &error), CUZK_ERR_INVALID_ARGUMENT,
         "public inputs");
  cuzk_engine_destroy(nullptr);  // both are no-ops on NULL
  cuzk_params_free(nullptr);
  EXPECT_STREQ(cuzk_version(), "cuzk 0.1.0");
}

}  // namespace
}  // namespace cuzk
