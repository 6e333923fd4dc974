// filecoin-proofs-api's RegisteredSealProof: the 20 seal proof types a C1 output names in its
// "registered_proof" field (rust-filecoin-proofs-api src/registry.rs), with what each one fixes for C2:
// sector size, API version and feature, partition count, porep_id, the StackedDRG parameters and the
// parameter file the Groth16 keys are published under. See docs/porting/c1-format.md §5.
//
// The ids are append-only and never change (registry.rs REGISTERED_PROOF_IDS): 0..4 StackedDrg<size>V1,
// 5..9 V1_1, 10..14 V1_1_Feat_SyntheticPoRep (API version 1.2 despite the name), 15..19
// V1_2_Feat_NonInteractivePoRep; within each group 2KiB, 8MiB, 512MiB, 32GiB, 64GiB.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "filecoin/porep_params.hpp"
#include "filecoin/sdr_graph.hpp"

namespace cuzk::filecoin {

// filecoin-proofs' ApiFeature as it applies to a seal proof: the challenges a partition proves.
enum class PorepFeature {
  kNone,                 // interactive challenges from the seed
  kSyntheticPoRep,       // a selection of the synthetic challenges (SynthChallenges)
  kNonInteractivePoRep,  // challenges from comm_r (non_interactive_challenges)
};

std::string_view porep_feature_name(PorepFeature feature);  // "none", "SyntheticPoRep", …

struct RegisteredSealProof {
  std::uint64_t id = 0;   // REGISTERED_PROOF_IDS: the number in porep_id and in FFI's enum
  std::string_view name;  // the serde variant name, e.g. "StackedDrg32GiBV1_1"
  std::uint64_t sector_bytes = 0;
  ApiVersion api_version = ApiVersion::V1_1_0;  // V1_0_0 selects the legacy DRG parent order
  PorepFeature feature = PorepFeature::kNone;
  // Partitions of one C1 output (POREP_PARTITIONS: 1 for the test sizes, 10 for 32/64 GiB;
  // non-interactive: 13 and 126, chosen so that challenges per partition stay params().
  // challenges_per_partition and the parameter files stay the same, filecoin-proofs constants.rs).
  unsigned partitions = 0;
  PorepId porep_id{};  // porep_id_for(id): nonce 0 for every proof so far

  // The StackedDRG parameters of the sector size (layers, trees, challenges per partition; its
  // `partitions` is the interactive count: use this struct's `partitions`).
  const PorepParams& params() const;
  // filecoin-proofs-api's VanillaSealProof variant: per sector size only ("StackedDrg32GiBV1").
  std::string_view vanilla_proof_variant() const;
  // The parameter file stem shared by .params, .vk and .meta ("v28-stacked-proof-of-replication-…").
  const std::string& parameter_file_stem() const;
  // Challenges of the whole C1 output: partitions × challenges per partition.
  std::uint64_t total_challenges() const;
};

// All 20, in id order (registered_seal_proofs()[id].id == id).
std::span<const RegisteredSealProof> registered_seal_proofs();

// nullptr when there is none.
const RegisteredSealProof* find_registered_seal_proof(std::uint64_t id);
const RegisteredSealProof* find_registered_seal_proof(std::string_view name);  // exact variant name
// Throw std::invalid_argument naming what is known.
const RegisteredSealProof& registered_seal_proof_by_id(std::uint64_t id);
const RegisteredSealProof& registered_seal_proof_by_name(std::string_view name);
// The proof of one sector size, version and feature (V1_0_0 and V1_1_0 only without a feature; synthetic
// and non-interactive only with V1_2_0). Throws std::invalid_argument for a combination there is none of.
const RegisteredSealProof& registered_seal_proof_for(const PorepParams& params, ApiVersion api_version,
                                                     PorepFeature feature = PorepFeature::kNone);

// StackedDrg<size>V1_1's id: 5, 6, 7, 8, 9 for 2KiB, 8MiB, 512MiB, 32GiB, 64GiB. Throws
// std::invalid_argument for another size.
std::uint64_t registered_seal_proof_v1_1(const PorepParams& params);

// The VanillaSealProof variant of a sector size: "StackedDrg2KiBV1", …, "StackedDrg64GiBV1".
std::string_view vanilla_seal_proof_variant(const PorepParams& params);

// rust-fil-proofs' parameter set identifier of the StackedDRG circuit of a sector size
// (layered_drgporep::PublicParams::identifier: the graph's, the layers, the challenges per partition and
// the tree; no seed, porep_id or API version, so every proof type of one size shares it), and the file
// stem "v28-" + cache_prefix + "-" + hex(SHA-256(identifier)) (storage-proofs-core parameter_cache.rs).
std::string porep_parameter_identifier(const PorepParams& params);
std::string porep_parameter_file_stem(const PorepParams& params);

// The SDR graph a sector of this proof type is sealed with: SdrGraph(nodes, porep_id, api_version).
SdrGraph porep_graph(const RegisteredSealProof& proof);

}  // namespace cuzk::filecoin
