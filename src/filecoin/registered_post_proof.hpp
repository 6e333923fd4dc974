// filecoin-proofs-api's RegisteredPoStProof: the 15 PoSt proof types a WindowPoSt or WinningPoSt request
// names (rust-filecoin-proofs-api src/registry.rs; go-state-types numbers them the same way), with what each
// fixes: the kind, the sector size and the API version, which decides how a WindowPoSt sector's challenges
// are numbered (storage-proofs-post fallback utils.rs get_challenge_index).
//
// Ids: 0..4 StackedDrgWinning<size>V1, 5..9 StackedDrgWindow<size>V1 (API 1.0), 10..14
// StackedDrgWindow<size>V1_2 (API 1.2: go-state-types calls them V1_1); within each group 2KiB, 8MiB,
// 512MiB, 32GiB, 64GiB. Every proof type of a kind and size shares one circuit and one parameter file.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "filecoin/post_params.hpp"
#include "filecoin/sdr_graph.hpp"

namespace cuzk::filecoin {

struct RegisteredPostProof {
  std::uint64_t id = 0;
  std::string_view name;  // "StackedDrgWindow32GiBV1_2"
  PostKind kind = PostKind::kWindow;
  std::uint64_t sector_bytes = 0;
  ApiVersion api_version = ApiVersion::V1_0_0;
};

// All 15, in id order.
std::span<const RegisteredPostProof> registered_post_proofs();
// nullptr when there is none.
const RegisteredPostProof* find_registered_post_proof(std::uint64_t id);
// The newest proof type of a kind and sector size (WindowPoSt V1_2, WinningPoSt V1): what a request that
// names only a sector size is taken to be. Throws std::invalid_argument for another size.
const RegisteredPostProof& latest_registered_post_proof(PostKind kind, std::uint64_t sector_bytes);

// The challenge number of challenge `challenge` of the partition's sector `sector_in_partition`
// (get_challenge_index): under API 1.0 and 1.1 WindowPoSt numbers challenges across the whole proof,
// (partition · sectors per partition + sector) · challenges per sector + challenge; under 1.2 every sector
// counts from 0 (the grinding fix). WinningPoSt's one sector counts from 0 either way.
std::uint64_t post_challenge_index(ApiVersion version, const PostParams& params, std::uint64_t partition,
                                   std::uint64_t sector_in_partition, std::uint64_t challenge);

}  // namespace cuzk::filecoin
