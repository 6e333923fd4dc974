// A WindowPoSt partition or a WinningPoSt as Curio asks for it (filecoin-proofs
// generate_single_window_post_with_vanilla, generate_winning_post_with_vanilla): the sectors' vanilla
// proofs, the randomness, the proof type (RegisteredPoStProof: kind, sector size, API version) and, for
// WindowPoSt, the partition's index. Read and checked at submit: every proof decoded
// (post_vanilla.hpp), its leaves the ones the randomness challenges, the partition padded as Filecoin pads
// it, the public inputs as FallbackPoStCompound::generate_public_inputs computes them.
#pragma once

#include <memory>

#include "filecoin/vanilla_job.hpp"

namespace cuzk::filecoin {

// Throws VanillaRequestError (or PostVanillaError for a malformed proof) saying what is wrong.
std::shared_ptr<const VanillaJob> read_post_job(const VanillaRequest& request);

}  // namespace cuzk::filecoin
