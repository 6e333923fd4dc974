// TEST-ONLY PoRep C2 inputs (gen_porep_c1.cpp): shared by `cuzk-bench gen porep-c1` and `cuzk-bench
// porep-c2`, which prepares them when its directory does not have them yet.
#pragma once

#include <cstdint>
#include <filesystem>

#include "filecoin/porep_params.hpp"

namespace cuzk::bench {

// DIR/c1.json (Curio's envelope), DIR/phase1-out.json and, with_key, the TEST-ONLY key under its standard
// file name (DIR then serves as a parameter cache).
void write_test_porep_c1(const filecoin::PorepParams& params, const std::filesystem::path& dir,
                         std::uint64_t seed, std::uint64_t sector_number, bool with_key);

}  // namespace cuzk::bench
