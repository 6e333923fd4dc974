#include "filecoin/update_params.hpp"

#include <array>
#include <bit>
#include <stdexcept>

#include "filecoin/parameter_file.hpp"
#include "filecoin/sector_size.hpp"

namespace cuzk::filecoin {

namespace {

constexpr std::uint64_t kib(std::uint64_t n) {
  return n << 10;
}

// constants.rs: partition_count, challenge_count, apex_leaf_count and hs by sector nodes.
UpdateParams make(std::uint64_t sector_bytes, unsigned sub, unsigned top, bool production) {
  UpdateParams p;
  p.sector_bytes = sector_bytes;
  p.nodes = sector_bytes / 32;
  p.name = sector_size_name(sector_bytes);
  p.production = production;
  p.challenge_bits = static_cast<unsigned>(std::countr_zero(p.nodes));
  const std::uint64_t n = p.nodes;
  p.partitions = n <= kib(8) / 32 ? 1 : n <= kib(32) / 32 ? 2 : n <= (std::uint64_t{16} << 20) / 32 ? 4 : 16;
  p.partition_bits = static_cast<unsigned>(std::countr_zero(p.partitions));
  p.challenges = n <= (std::uint64_t{16} << 20) / 32 ? 10 : 86;
  p.apex_leaves = n <= kib(8) / 32 ? 8 : 128;
  p.apex_bits = static_cast<unsigned>(std::countr_zero(p.apex_leaves));
  if (n <= kib(32) / 32)
    p.hs = {1, 1, 1, 1, 1, 1};
  else
    p.hs = {7, 8, 9, 10, 11, 12};
  p.h_default = p.hs[3];
  p.tree = tree_shape_for(p.nodes, 8, sub, top);  // validate_tree_r_shape
  return p;
}

const std::array<UpdateParams, 11>& table() {
  static const std::array<UpdateParams, 11> t{
      make(kib(1), 4, 0, false),
      make(kib(2), 0, 0, true),
      make(kib(4), 2, 0, false),
      make(kib(8), 4, 0, false),
      make(kib(16), 8, 0, false),
      make(kib(32), 8, 2, false),
      make(kib(8) << 10, 0, 0, true),
      make(kib(16) << 10, 2, 0, false),
      make(kib(512) << 10, 0, 0, true),
      make(std::uint64_t{32} << 30, 8, 0, true),
      make(std::uint64_t{64} << 30, 8, 2, true),
  };
  return t;
}

[[noreturn]] void unknown(std::string_view what) {
  throw std::invalid_argument(
      "no SnapDeals circuit for sector size '" + std::string(what) +
      "': the production sizes are 2KiB, 8MiB, 512MiB, 32GiB and 64GiB (test sizes 1, "
      "4, 8, 16, 32 KiB and 16MiB)");
}

}  // namespace

std::span<const UpdateParams> all_update_params() {
  return table();
}

const UpdateParams& update_params_for_bytes(std::uint64_t sector_bytes) {
  for (const UpdateParams& p : table())
    if (p.sector_bytes == sector_bytes) return p;
  unknown(std::to_string(sector_bytes));
}

const UpdateParams& update_params_for(std::string_view sector_size) {
  const std::optional<std::uint64_t> bytes = parse_sector_size(sector_size);
  if (bytes)
    for (const UpdateParams& p : table())
      if (p.sector_bytes == *bytes) return p;
  unknown(sector_size);
}

std::uint64_t update_h_select(const UpdateParams& params, unsigned h) {
  for (unsigned i = 0; i < params.hs.size(); ++i)
    if (params.hs[i] == h) return std::uint64_t{1} << i;  // the first match, as position() finds it
  throw std::invalid_argument("SnapDeals " + params.name + ": h = " + std::to_string(h) +
                              " is not one the sector size allows");
}

std::uint64_t update_k_and_h_select(const UpdateParams& params, std::uint64_t k, unsigned h) {
  if (k >= params.partitions)
    throw std::invalid_argument("SnapDeals " + params.name + ": partition " + std::to_string(k) + " of " +
                                std::to_string(params.partitions));
  return k | update_h_select(params, h) << params.partition_bits;
}

const gadgets::PoseidonConstants& update_randomness_constants() {
  static const gadgets::PoseidonConstants constants = [] {
    gadgets::PoseidonConstants c = gadgets::poseidon_constants(2);
    c.domain_tag = gadgets::Fr::from_u64(std::uint64_t{1} << 40);  // CType::Arbitrary(1): id · 2^40
    return c;
  }();
  return constants;
}

std::string update_parameter_identifier(const UpdateParams& params) {
  return "empty_sector_update::PublicParams{ sector_nodes: " + std::to_string(params.nodes) + " }";
}

std::string update_parameter_file_stem(const UpdateParams& params) {
  return parameter_file_stem("empty-sector-update-" + tree_display(params.tree),
                             update_parameter_identifier(params));
}

}  // namespace cuzk::filecoin
