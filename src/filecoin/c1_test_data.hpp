// TEST-ONLY: a C1 output (c1_output.hpp) for a generated sector (porep_test_data.hpp), as
// StackedDrg<size>V1_1 (or another proof type of the size) would have it: the data of every test `cuzk-bench
// gen porep-c1` writes.
#pragma once

#include <cstdint>

#include "filecoin/c1_output.hpp"
#include "filecoin/porep_test_data.hpp"

namespace cuzk::filecoin {

// The sector's partitions under StackedDrg<size>V1_1 (registered_seal_proof_v1_1(params)), with its
// replica_id, comm_d, comm_r, seed and ticket.
C1Output c1_output_of(const PorepParams& params, const PorepTestSector& sector);

// c1_output_of(params, make_test_porep_sector(params, seed)).
C1Output make_test_c1_output(const PorepParams& params, std::uint64_t seed);
// The sector as `proof` has it (make_test_porep_sector(proof, seed)): synthetic and non-interactive too.
C1Output make_test_c1_output(const RegisteredSealProof& proof, std::uint64_t seed);

}  // namespace cuzk::filecoin
