#include "filecoin/post_params.hpp"

#include <stdexcept>
#include <string>

#include "filecoin/parameter_file.hpp"

namespace cuzk::filecoin {

const char* to_string(PostKind kind) {
  return kind == PostKind::kWindow ? "window" : "winning";
}

namespace {

// WINDOW_POST_SECTOR_COUNT: 2 for the test sizes; 2,349 at 32 GiB and 2,300 at 64 GiB, the most that fit in
// one partition's circuit (constants.rs: 125,279,217 and 129,887,900 constraints).
unsigned window_post_sectors(std::uint64_t sector_bytes) {
  if (sector_bytes == std::uint64_t{32} << 30) return 2349;
  if (sector_bytes == std::uint64_t{64} << 30) return 2300;
  return 2;
}

constexpr unsigned kWindowPostChallenges = 10;
constexpr unsigned kWinningPostChallenges = 66, kWinningPostSectors = 1;

}  // namespace

PostParams post_params_for(PostKind kind, std::string_view sector_size) {
  const PorepParams* found = nullptr;  // the sector sizes and tree shapes are the PoRep's
  try {
    found = &porep_params_for(sector_size);
  } catch (const std::invalid_argument&) {
    throw std::invalid_argument("unknown PoSt sector size '" + std::string(sector_size) +
                                "': the production sizes are 2KiB, 8MiB, 512MiB, 32GiB and 64GiB");
  }
  const PorepParams& porep = *found;
  PostParams p;
  p.kind = kind;
  p.name = porep.name;
  p.sector_bytes = porep.sector_bytes;
  p.nodes = porep.nodes;
  p.tree = porep.tree;
  if (kind == PostKind::kWindow) {
    p.sectors = window_post_sectors(porep.sector_bytes);
    p.challenges = kWindowPostChallenges;
  } else {  // winning_post_setup_params
    p.sectors = kWinningPostChallenges / kWinningPostSectors;
    p.challenges = kWinningPostChallenges / p.sectors;
  }
  return p;
}

PostParams post_params_for(PostKind kind, std::uint64_t sector_bytes) {
  for (const PorepParams& p : production_porep_params())
    if (p.sector_bytes == sector_bytes) return post_params_for(kind, p.name);
  throw std::invalid_argument("no PoSt circuit for a sector of " + std::to_string(sector_bytes) +
                              " bytes: the production sizes are 2KiB, 8MiB, 512MiB, 32GiB and 64GiB");
}

std::string post_parameter_identifier(const PostParams& params) {
  return "FallbackPoSt::PublicParams{sector_size: " + std::to_string(params.sector_bytes) +
         ", challenge_count: " + std::to_string(params.challenges) +
         ", sector_count: " + std::to_string(params.sectors) + "}";
}

std::string post_parameter_file_stem(const PostParams& params) {
  return parameter_file_stem("proof-of-spacetime-fallback-" + tree_display(params.tree),
                             post_parameter_identifier(params));
}

}  // namespace cuzk::filecoin
