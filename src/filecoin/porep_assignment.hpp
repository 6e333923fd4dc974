// One PoRep partition as the bellperson prover takes it (groth16/bellperson.hpp Assignment), synthesized from
// its vanilla proof: the assignments and every row's a, b, c in evaluation mode (porep_synthesis.hpp,
// porep_evaluate), and the circuit's density bitmaps, which do not depend on the values (computed once per
// sector size and process from the shape: 12 s at 32 GiB on 2 cores, 4 s on 16). The caller may lend the
// memory for a, b, c and aux (the engine's page-locked leases, so that they are written once, where the GPU
// upload reads them).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "filecoin/porep_params.hpp"
#include "filecoin/porep_vanilla.hpp"
#include "filecoin/unsatisfied_circuit.hpp"
#include "groth16/bellperson.hpp"
#include "io/bellperson_assignment.hpp"

namespace cuzk::filecoin {

struct PorepDensities {
  groth16::bellperson::Density a_aux, b_inputs, b_aux;
};
// The partition circuit's densities (cached per parameter set; thread-safe).
const PorepDensities& porep_densities(const PorepParams& params);

// The assignment of one partition. `lend` (optional) is asked for kAbc (3 · prover rows scalars) and then
// kAux; what it does not lend is allocated here. Throws gadgets::SynthesisError when the proof does not
// have the partition's shape.
groth16::bellperson::Assignment porep_prover_assignment(const PorepParams& params,
                                                        const PorepPartitionProof& proof,
                                                        const io::bellperson_assignment::Lend& lend = {});

// The same, with every row checked as it is evaluated (what a prover runs; the rows the gadgets write as
// computed hold by construction, gadgets/boolean.hpp ComputedRows): throws UnsatisfiedCircuit naming `what`
// (e.g. "partition 3") and the first row with a·b ≠ c.
groth16::bellperson::Assignment checked_porep_prover_assignment(
    const PorepParams& params, const PorepPartitionProof& proof, const std::string& what,
    const io::bellperson_assignment::Lend& lend = {});

// Throws UnsatisfiedCircuit naming `what` and the first row with a·b ≠ c: a separate pass over a, b, c.
void check_porep_rows(const groth16::bellperson::Assignment& w, const std::string& what);

}  // namespace cuzk::filecoin
