#include "filecoin/registered_post_proof.hpp"

#include <array>
#include <stdexcept>
#include <string>

#include "filecoin/porep_params.hpp"

namespace cuzk::filecoin {
namespace {

struct PostTable {
  std::array<std::string, 15> names;
  std::array<RegisteredPostProof, 15> proofs;
  PostTable() {
    const auto sizes = production_porep_params();  // smallest first, as the groups list them
    struct Group {
      std::string_view prefix, suffix;
      PostKind kind;
      ApiVersion version;
    };
    const Group groups[3] = {{"StackedDrgWinning", "V1", PostKind::kWinning, ApiVersion::V1_0_0},
                             {"StackedDrgWindow", "V1", PostKind::kWindow, ApiVersion::V1_0_0},
                             {"StackedDrgWindow", "V1_2", PostKind::kWindow, ApiVersion::V1_2_0}};
    for (std::size_t g = 0; g < 3; ++g)
      for (std::size_t s = 0; s < sizes.size(); ++s) {
        const std::size_t id = g * 5 + s;
        names[id] =
            std::string(groups[g].prefix) + sizes[s].name + std::string(groups[g].suffix);
        proofs[id] = {id, names[id], groups[g].kind, sizes[s].sector_bytes, groups[g].version};
      }
  }
};

const PostTable& post_table() {
  static const PostTable t;
  return t;
}

}  // namespace

std::span<const RegisteredPostProof> registered_post_proofs() {
  return post_table().proofs;
}

const RegisteredPostProof* find_registered_post_proof(std::uint64_t id) {
  return id < post_table().proofs.size() ? &post_table().proofs[id] : nullptr;
}

const RegisteredPostProof& latest_registered_post_proof(PostKind kind, std::uint64_t sector_bytes) {
  const RegisteredPostProof* found = nullptr;
  for (const RegisteredPostProof& p : post_table().proofs)
    if (p.kind == kind && p.sector_bytes == sector_bytes) found = &p;  // the last group is the newest
  if (!found)
    throw std::invalid_argument("no " + std::string(to_string(kind)) + " PoSt proof type for a sector of " +
                                std::to_string(sector_bytes) +
                                " bytes: the sizes are 2KiB, 8MiB, 512MiB, 32GiB and 64GiB");
  return *found;
}

std::uint64_t post_challenge_index(ApiVersion version, const PostParams& params, std::uint64_t partition,
                                   std::uint64_t sector_in_partition, std::uint64_t challenge) {
  if (params.kind == PostKind::kWinning || version == ApiVersion::V1_2_0) return challenge;
  return (partition * params.sectors + sector_in_partition) * params.challenges + challenge;
}

}  // namespace cuzk::filecoin
