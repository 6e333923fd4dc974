#include "filecoin/porep_circuit.hpp"

namespace cuzk::filecoin {

void check_porep_proof_shape(const PorepParams& params, const PorepPartitionProof& proof) {
  using gadgets::SynthesisError;
  if (proof.challenges.size() != params.challenges_per_partition)
    throw SynthesisError("PoRep vanilla proof: " + std::to_string(proof.challenges.size()) +
                         " challenges, a " + params.name + " partition has " +
                         std::to_string(params.challenges_per_partition));
  const TreeLevels tree_d = tree_d_levels(params.tree_d_levels);
  const TreeLevels tree_c = poseidon_tree_levels(params.tree);
  for (std::size_t i = 0; i < proof.challenges.size(); ++i) {
    const ChallengeProof& c = proof.challenges[i];
    const std::string at = "PoRep vanilla proof, challenge " + std::to_string(i);
    if (c.challenge >= params.nodes)
      throw SynthesisError(at + ": node " + std::to_string(c.challenge) + " is outside the sector");
    check_path_shape(tree_d, c.comm_d_path, at + ", tree D path");
    check_path_shape(tree_c, c.comm_r_last_path, at + ", tree R_last path");
    check_path_shape(tree_c, c.comm_c_path, at + ", tree C path");
    auto check_column = [&](const ColumnProof& col, const std::string& which) {
      if (col.rows.size() != params.layers)
        throw SynthesisError(at + ", " + which + ": " + std::to_string(col.rows.size()) + " rows, " +
                             std::to_string(params.layers) + " layers");
      check_path_shape(tree_c, col.path, at + ", " + which + " path");
    };
    for (unsigned p = 0; p < kDrgParents; ++p)
      check_column(c.drg_parents[p], "DRG parent " + std::to_string(p));
    for (unsigned p = 0; p < kExpanderParents; ++p)
      check_column(c.exp_parents[p], "expander parent " + std::to_string(p));
  }
}

std::vector<PorepSection> porep_sections(const PorepParams& params) {
  using Kind = PorepSection::Kind;
  std::vector<PorepSection> sections{{Kind::data}};
  for (unsigned p = 0; p < kDrgParents + kExpanderParents; ++p) sections.push_back({Kind::column, p});
  sections.push_back({Kind::challenge});
  for (unsigned layer = 1; layer <= params.layers; ++layer) sections.push_back({Kind::label, layer});
  sections.push_back({Kind::encoding});
  sections.push_back({Kind::column_hash});
  return sections;
}

}  // namespace cuzk::filecoin
