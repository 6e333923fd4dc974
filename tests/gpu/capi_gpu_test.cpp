// The C ABI's "cuda" backend: proofs for fixed r and s are the CPU backend's byte for byte, random ones
// verify, and "auto" picks the GPU.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "cuzk/cuzk.h"
#include "gpu/gpu_test_util.hpp"
#include "groth16/bellperson.hpp"
#include "r1cs/porep_like.hpp"

namespace cuzk {
namespace {

namespace bp = groth16::bellperson;

cuzk_density abi(const bp::Density& d) {
  return {d.words.data(), d.bits, d.popcount()};
}
const cuzk_fr* abi(std::span<const bp::Fr> v) {
  return reinterpret_cast<const cuzk_fr*>(v.data());
}
cuzk_assignment abi(const bp::Assignment& w) {
  return {abi(w.a_aux), abi(w.b_inputs), abi(w.b_aux),    abi(w.a),   abi(w.b),    abi(w.c),
          w.a.size(),   abi(w.inputs),   w.inputs.size(), abi(w.aux), w.aux.size()};
}

TEST(CApiGpu, CudaProofsEqualTheCpusAndVerify) {
  CUZK_REQUIRE_GPU();
  const auto circuit = r1cs::porep_like<bp::Fr>(13, 5, 3);
  const auto params = bp::setup(circuit.system, groth16::random_toxic_waste<bp::Curve>());
  const auto file = std::filesystem::temp_directory_path() / ("cuzk-capi-gpu-" + std::to_string(::getpid()));
  io::bellperson::write_params(file.string(), params);
  std::vector<bp::Assignment> parts;
  std::vector<cuzk_assignment> views;
  for (const auto& z : circuit.witnesses) parts.push_back(bp::synthesize(circuit.system, z));
  for (const auto& w : parts) views.push_back(abi(w));
  const auto rs = test::random_field_vector<bp::Fr>(2 * parts.size(), 17);
  std::vector<bp::Fr> r(rs.begin(), rs.begin() + parts.size()), s(rs.begin() + parts.size(), rs.end());

  auto prove = [&](const char* backend, bool fixed) {
    cuzk_engine* e = nullptr;
    cuzk_params* p = nullptr;
    char* error = nullptr;
    EXPECT_EQ(cuzk_engine_create(backend, &e, &error), CUZK_OK) << (error ? error : "");
    EXPECT_EQ(cuzk_params_load(e, file.c_str(), 0, &p, nullptr), CUZK_OK);
    std::vector<std::uint8_t> out(192 * parts.size());
    EXPECT_EQ(cuzk_prove(e, p, views.data(), views.size(), fixed ? abi(r) : nullptr, fixed ? abi(s) : nullptr,
                         out.data(), &error),
              CUZK_OK)
        << (error ? error : "");
    for (std::size_t k = 0; k < parts.size(); ++k) {
      const std::vector<bp::Fr> pub(parts[k].inputs.begin() + 1, parts[k].inputs.end());
      EXPECT_EQ(cuzk_verify(p, abi(pub), pub.size(), out.data() + 192 * k, nullptr), CUZK_OK) << backend;
    }
    cuzk_params_free(p);
    cuzk_engine_destroy(e);
    return out;
  };
  EXPECT_EQ(prove("cuda", true), prove("cpu", true));
  prove("cuda", false);
  prove("auto", false);
  std::filesystem::remove(file);
}

}  // namespace
}  // namespace cuzk
