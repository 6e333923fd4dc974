// One fallback PoSt partition as the bellperson prover takes it (groth16/bellperson.hpp Assignment),
// synthesized from its sector proofs in evaluation mode: the assignments and every row's a, b, c, with no
// matrix built, every row checked as it is evaluated (but those written as computed, which hold by
// construction: gadgets/boolean.hpp ComputedRows). Every sector's part of the circuit has one shape
// (post_synthesis.hpp), so each sector is evaluated on its own, in parallel, at the numbers its index gives
// (2,349 sectors fill any host's cores). The densities come from the shape, once per parameter set.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "filecoin/post_circuit.hpp"
#include "filecoin/unsatisfied_circuit.hpp"
#include "groth16/bellperson.hpp"
#include "io/bellperson_assignment.hpp"

namespace cuzk::filecoin {

// Where each sector's variables and rows are: ONE first, then the sectors one after another.
struct PostLayout {
  std::uint64_t sector_inputs = 0, sector_aux = 0, sector_rows = 0;
  unsigned sectors = 0;
  std::uint64_t inputs() const { return 1 + sectors * sector_inputs; }
  std::uint64_t aux() const { return sectors * sector_aux; }
  std::uint64_t rows() const { return sectors * sector_rows; }
  // What the bellperson prover takes: the circuit's rows, then one `input · 0 = 0` row per input.
  std::uint64_t prover_rows() const { return rows() + inputs(); }
};
const PostLayout& post_layout(const PostParams& params);  // cached per parameter set; thread-safe

struct PostDensities {
  groth16::bellperson::Density a_aux, b_inputs, b_aux;
};
const PostDensities& post_densities(const PostParams& params);  // cached per parameter set; thread-safe

// The partition's assignment from its circuit sectors (post_circuit_sectors: params.sectors of them), every
// row checked: throws UnsatisfiedCircuit naming `what` and the first row with a·b ≠ c, and
// gadgets::SynthesisError for a sector of the wrong shape. `lend` (optional) is asked for kAbc
// (3 · prover rows) and then kAux.
groth16::bellperson::Assignment checked_post_prover_assignment(
    const PostParams& params, std::span<const PostSectorProof> sectors, const std::string& what,
    const io::bellperson_assignment::Lend& lend = {});

}  // namespace cuzk::filecoin
