// TEST-ONLY PoRep C2 inputs (gen_porep_c1.cpp): shared by `cuzk-bench gen porep-c1` and `cuzk-bench
// porep-c2`, which prepares them when its directory does not have them yet.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>

#include "filecoin/registered_proof.hpp"
#include "groth16/bellperson.hpp"
#include "r1cs/csr.hpp"

namespace cuzk::bench {

// DIR/c1.json (Curio's envelope), DIR/phase1-out.json and, with_key, the TEST-ONLY key under its standard
// file name (DIR then serves as a parameter cache), for a sector sealed and challenged as `proof` does.
void write_test_porep_c1(const filecoin::RegisteredSealProof& proof, const std::filesystem::path& dir,
                         std::uint64_t seed, std::uint64_t sector_number, bool with_key);

// A TEST-ONLY Groth16 key of the circuit `record` gives (its recorded matrices: the test-only bellperson
// setup, random toxic waste; fixed-base products on the GPU when there is one), written as DIR/STEM.params
// and DIR/STEM.vk, with progress on stdout.
void write_test_key(const std::function<r1cs::CsrSystem<groth16::bellperson::Fr>()>& record,
                    const std::filesystem::path& dir, const std::string& stem);

// The proof type of `sector_size` that `type` names: "interactive" (V1_1, the default), "synthetic"
// (V1_1_Feat_SyntheticPoRep) or "non-interactive" (V1_2_Feat_NonInteractivePoRep). std::invalid_argument
// for anything else.
const filecoin::RegisteredSealProof& test_porep_proof_type(const std::string& sector_size,
                                                           const std::string& type);

}  // namespace cuzk::bench
