// PoRep C2 from what Curio sends: its C1 envelope (or a bare SealCommitPhase1Output) read and validated
// (c1_output.hpp: every partition's challenges derived as Filecoin derives them for the proof type —
// interactive from the seed, synthetic from the seed's selection of the synthetic challenges,
// non-interactive from comm_r — and checked against the vanilla proofs, parents against the SDR graph), and
// the partitions' public inputs from those challenges and the graph, as StackedCompound's
// generate_public_inputs gives them. Each partition is then synthesized (porep_assignment.hpp) when it is
// proved, and its proof checked against these inputs.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "filecoin/porep_vanilla.hpp"
#include "filecoin/registered_proof.hpp"

namespace cuzk::filecoin {

struct PorepC2Input {
  const RegisteredSealProof* proof = nullptr;
  std::uint64_t sector_number = 0;  // the envelope's SectorNum (0 for a bare output)
  std::vector<PorepPartitionProof> partitions;
  std::vector<std::vector<Fr>> public_inputs;  // per partition, without ONE (bellperson's verifier order)
  const PorepParams& params() const { return proof->params(); }
};

// Curio's envelope ({"SectorNum", "Phase1Out": base64, "SectorSize"}) or the SealCommitPhase1Output JSON
// itself (told apart by the first key). `expected_sector_bytes` (0: any) is the request's sector size.
// Throws C1Error (c1_output.hpp) naming the field for anything malformed, and for challenges that are not
// the ones the seed (or comm_r) gives.
PorepC2Input read_porep_c1(std::span<const std::uint8_t> bytes, const std::string& source,
                           std::uint64_t expected_sector_bytes = 0);

}  // namespace cuzk::filecoin
