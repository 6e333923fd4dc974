#include "filecoin/registered_proof.hpp"

#include <array>
#include <stdexcept>
#include <vector>

#include "filecoin/parameter_file.hpp"

namespace cuzk::filecoin {
namespace {

// get_porep_non_interactive_partitions (filecoin-proofs constants.rs): 13 for the test sizes, 126 for
// 32/64 GiB.
unsigned non_interactive_partitions(const PorepParams& params) {
  return params.partitions == 1 ? 13 : 126;
}

struct Table {
  std::vector<std::string> names;  // storage for the entries' string_views
  std::array<std::string, 5> stems;
  std::array<RegisteredSealProof, 20> proofs;

  Table() {
    const auto sizes = production_porep_params();  // smallest first, as the groups list them
    for (std::size_t s = 0; s < sizes.size(); ++s) stems[s] = porep_parameter_file_stem(sizes[s]);
    struct Group {
      std::string_view suffix;
      ApiVersion version;
      PorepFeature feature;
    };
    // registry.rs version() and as_v1_config(): the synthetic group is V1_2_0 although its name says 1_1.
    const Group groups[4] = {
        {"V1", ApiVersion::V1_0_0, PorepFeature::kNone},
        {"V1_1", ApiVersion::V1_1_0, PorepFeature::kNone},
        {"V1_1_Feat_SyntheticPoRep", ApiVersion::V1_2_0, PorepFeature::kSyntheticPoRep},
        {"V1_2_Feat_NonInteractivePoRep", ApiVersion::V1_2_0, PorepFeature::kNonInteractivePoRep},
    };
    names.reserve(proofs.size());
    for (std::size_t g = 0; g < 4; ++g)
      for (std::size_t s = 0; s < sizes.size(); ++s)
        names.push_back("StackedDrg" + sizes[s].name + std::string(groups[g].suffix));
    for (std::size_t g = 0; g < 4; ++g)
      for (std::size_t s = 0; s < sizes.size(); ++s) {
        RegisteredSealProof& p = proofs[g * 5 + s];
        p.id = g * 5 + s;
        p.name = names[p.id];
        p.sector_bytes = sizes[s].sector_bytes;
        p.api_version = groups[g].version;
        p.feature = groups[g].feature;
        p.partitions = p.feature == PorepFeature::kNonInteractivePoRep ? non_interactive_partitions(sizes[s])
                                                                       : sizes[s].partitions;
        p.porep_id = porep_id_for(p.id);
      }
  }
};

const Table& table() {
  static const Table t;
  return t;
}

std::size_t size_index(std::uint64_t sector_bytes) {
  const auto sizes = production_porep_params();
  for (std::size_t s = 0; s < sizes.size(); ++s)
    if (sizes[s].sector_bytes == sector_bytes) return s;
  throw std::invalid_argument("no registered seal proof for a sector of " + std::to_string(sector_bytes) +
                              " bytes: the sizes are 2KiB, 8MiB, 512MiB, 32GiB and 64GiB");
}

std::string known_names() {
  std::string out;
  for (const RegisteredSealProof& p : table().proofs) {
    if (!out.empty()) out += ", ";
    out += std::string(p.name) + " (" + std::to_string(p.id) + ")";
  }
  return out;
}

std::string_view version_name(ApiVersion v) {
  switch (v) {
    case ApiVersion::V1_0_0:
      return "1.0.0";
    case ApiVersion::V1_1_0:
      return "1.1.0";
    case ApiVersion::V1_2_0:
      return "1.2.0";
  }
  return "?";
}

}  // namespace

std::string_view porep_feature_name(PorepFeature feature) {
  switch (feature) {
    case PorepFeature::kNone:
      return "none";
    case PorepFeature::kSyntheticPoRep:
      return "SyntheticPoRep";
    case PorepFeature::kNonInteractivePoRep:
      return "NonInteractivePoRep";
  }
  return "?";
}

const PorepParams& RegisteredSealProof::params() const {
  return porep_params_for_bytes(sector_bytes);
}

std::string_view RegisteredSealProof::vanilla_proof_variant() const {
  return vanilla_seal_proof_variant(params());
}

const std::string& RegisteredSealProof::parameter_file_stem() const {
  return table().stems[size_index(sector_bytes)];
}

std::uint64_t RegisteredSealProof::total_challenges() const {
  return std::uint64_t{partitions} * params().challenges_per_partition;
}

std::span<const RegisteredSealProof> registered_seal_proofs() {
  return table().proofs;
}

const RegisteredSealProof* find_registered_seal_proof(std::uint64_t id) {
  return id < table().proofs.size() ? &table().proofs[id] : nullptr;
}

const RegisteredSealProof* find_registered_seal_proof(std::string_view name) {
  for (const RegisteredSealProof& p : table().proofs)
    if (p.name == name) return &p;
  return nullptr;
}

const RegisteredSealProof& registered_seal_proof_by_id(std::uint64_t id) {
  if (const RegisteredSealProof* p = find_registered_seal_proof(id)) return *p;
  throw std::invalid_argument("unknown registered seal proof id " + std::to_string(id) +
                              ": the known ones are " + known_names());
}

const RegisteredSealProof& registered_seal_proof_by_name(std::string_view name) {
  if (const RegisteredSealProof* p = find_registered_seal_proof(name)) return *p;
  throw std::invalid_argument("unknown registered seal proof \"" + std::string(name) +
                              "\": the known ones are " + known_names());
}

const RegisteredSealProof& registered_seal_proof_for(const PorepParams& params, ApiVersion api_version,
                                                     PorepFeature feature) {
  for (const RegisteredSealProof& p : table().proofs)
    if (p.sector_bytes == params.sector_bytes && p.api_version == api_version && p.feature == feature)
      return p;
  throw std::invalid_argument("no registered seal proof for " + params.name +
                              " with API version " + std::string(version_name(api_version)) +
                              " and feature " + std::string(porep_feature_name(feature)));
}

std::uint64_t registered_seal_proof_v1_1(const PorepParams& params) {
  return registered_seal_proof_for(params, ApiVersion::V1_1_0).id;
}

std::string_view vanilla_seal_proof_variant(const PorepParams& params) {
  static const std::array<std::string, 5> variants = [] {
    std::array<std::string, 5> v;
    const auto sizes = production_porep_params();  // smallest first, as size_index counts
    for (std::size_t s = 0; s < v.size(); ++s) v[s] = "StackedDrg" + sizes[s].name + "V1";
    return v;
  }();
  return variants[size_index(params.sector_bytes)];
}

std::string porep_parameter_identifier(const PorepParams& params) {
  // StackedGraph's id around BucketGraph's (stacked/vanilla/graph.rs, drgraph.rs: the base graph is
  // keyed by the tree hasher, Poseidon), then LayerChallenges and the tree's display() (merkle/tree.rs).
  const std::string graph =
      "stacked_graph::StackedGraph{expansion_degree: " + std::to_string(kExpanderParents) +
      " base_graph: drgraph::BucketGraph{size: " + std::to_string(params.nodes) +
      "; degree: " + std::to_string(kDrgParents) + "; hasher: poseidon_hasher} }";
  return "layered_drgporep::PublicParams{ graph: " + graph +
         ", challenges: LayerChallenges { layers: " + std::to_string(params.layers) +
         ", max_count: " + std::to_string(params.challenges_per_partition) +
         " }, tree: " + tree_display(params.tree) + " }";
}

std::string porep_parameter_file_stem(const PorepParams& params) {
  // cache_prefix from stacked/circuit/proof.rs: the tree, then tree D's hasher (SHA-256).
  return parameter_file_stem("stacked-proof-of-replication-" + tree_display(params.tree) + "-sha256_hasher",
                             porep_parameter_identifier(params));
}

SdrGraph porep_graph(const RegisteredSealProof& proof) {
  return SdrGraph(proof.params().nodes, proof.porep_id, proof.api_version);
}

}  // namespace cuzk::filecoin
