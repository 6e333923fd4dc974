// Filecoin's fallback PoSt circuits per sector size (rust-fil-proofs filecoin-proofs constants.rs
// WINDOW_POST_SECTOR_COUNT, WINDOW_POST_CHALLENGE_COUNT = 10, WINNING_POST_SECTOR_COUNT = 1,
// WINNING_POST_CHALLENGE_COUNT = 66; parameters.rs window_post_setup_params, winning_post_setup_params).
//
// One WindowPoSt partition proves `sectors` sectors with `challenges` leaves of each sector's tree R
// (comm_r_last) each. WinningPoSt's 66 challenges of one sector are set up as 66 "sectors" of one challenge
// each (challenge_count / sector_count sectors of challenge_count / that many challenges), which is the
// circuit its Groth16 key was made for. Sector trees have the PoRep's shapes (porep_params.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "filecoin/porep_params.hpp"

namespace cuzk::filecoin {

enum class PostKind { kWindow, kWinning };
const char* to_string(PostKind kind);  // "window", "winning"

struct PostParams {
  PostKind kind = PostKind::kWindow;
  std::string name;  // the sector size, "32GiB"
  std::uint64_t sector_bytes = 0, nodes = 0;
  unsigned sectors = 0;     // per partition, as the circuit is set up
  unsigned challenges = 0;  // per sector, as the circuit is set up
  TreeShape tree;           // tree R (comm_r_last)

  // ONE, then per sector comm_r and each challenge's packed path bits (the challenged leaf's index).
  std::uint64_t public_inputs() const { return 1 + std::uint64_t{sectors} * (1 + challenges); }
};

// "2KiB" … "64GiB" as porep_params_for reads them; throws std::invalid_argument for other sizes.
PostParams post_params_for(PostKind kind, std::string_view sector_size);
PostParams post_params_for(PostKind kind, std::uint64_t sector_bytes);

// The parameter set's identifier (fallback vanilla.rs PublicParams::identifier: sector size, challenges per
// sector and sectors, no API version, so every proof type of a kind and size shares it) and the file stem
// its .params and .vk are published under ("v28-proof-of-spacetime-fallback-" + the tree + "-" + hex
// SHA-256 of the identifier: compound.rs cache_prefix, parameter_cache.rs).
std::string post_parameter_identifier(const PostParams& params);
std::string post_parameter_file_stem(const PostParams& params);

}  // namespace cuzk::filecoin
