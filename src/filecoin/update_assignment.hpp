// One SnapDeals partition as the bellperson prover takes it (groth16/bellperson.hpp Assignment), synthesized
// from its partition proof in evaluation mode: the assignments and every row's a, b, c, with no matrix built,
// every row checked as it is evaluated. The top part (commitments, apex tree, challenge bits) runs first;
// then every challenge on its own, in parallel, at the numbers its index gives (update_synthesis.hpp's
// layout). The densities come from the shape, once per sector size.
#pragma once

#include <string>

#include "filecoin/unsatisfied_circuit.hpp"
#include "filecoin/update_circuit.hpp"
#include "groth16/bellperson.hpp"
#include "io/bellperson_assignment.hpp"

namespace cuzk::filecoin {

struct UpdateDensities {
  groth16::bellperson::Density a_aux, b_inputs, b_aux;
};
const UpdateDensities& update_densities(const UpdateParams& params);  // cached per size; thread-safe

// Throws UnsatisfiedCircuit naming `what` and the first row with a·b ≠ c, and gadgets::SynthesisError for a
// proof of the wrong shape. `lend` (optional) is asked for kAbc (3 · prover rows) and then kAux.
groth16::bellperson::Assignment checked_update_prover_assignment(
    const UpdateParams& params, const UpdatePartitionProof& proof, const std::string& what,
    const io::bellperson_assignment::Lend& lend = {});

}  // namespace cuzk::filecoin
