#include "filecoin/porep_params.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <optional>
#include <stdexcept>

#include "filecoin/sector_size.hpp"

namespace cuzk::filecoin {

unsigned TreeShape::path_bits() const {
  auto bits = [](unsigned arity) { return arity ? static_cast<unsigned>(std::countr_zero(arity)) : 0u; };
  return base_levels * bits(base) + bits(sub) + bits(top);
}

TreeShape tree_shape_for(std::uint64_t nodes, unsigned base, unsigned sub, unsigned top) {
  auto power_of_two = [](unsigned a) { return a != 0 && (a & (a - 1)) == 0; };
  if (!power_of_two(base) || base < 2 || (sub && !power_of_two(sub)) || (top && !power_of_two(top)) ||
      (top && !sub))
    throw std::invalid_argument("tree shape: arities must be powers of two, a top level needs a sub level");
  std::uint64_t leaves = nodes;
  for (unsigned a : {sub, top})
    if (a) {
      if (leaves % a) throw std::invalid_argument("tree shape: the node count does not split into sub-trees");
      leaves /= a;
    }
  TreeShape s{base, sub, top, 0};
  while (leaves > 1) {
    if (leaves % base) throw std::invalid_argument("tree shape: the node count is not a power of the arity");
    leaves /= base;
    ++s.base_levels;
  }
  return s;
}

namespace {

PorepParams make(std::string name, unsigned log_bytes, unsigned layers, unsigned partitions,
                 unsigned minimum_challenges, unsigned sub, unsigned top) {
  PorepParams p;
  p.name = std::move(name);
  p.sector_bytes = std::uint64_t{1} << log_bytes;
  p.nodes = p.sector_bytes / kNodeBytes;
  p.layers = layers;
  p.partitions = partitions;
  p.challenges_per_partition = (minimum_challenges + partitions - 1) / partitions;  // div_ceil
  p.tree = tree_shape_for(p.nodes, 8, sub, top);
  p.tree_d_levels = static_cast<unsigned>(std::countr_zero(p.nodes));
  return p;
}

const std::array<PorepParams, 5>& table() {
  // SectorShapeBase = LCTree<Poseidon, U8, U0, U0>, SectorShapeSub8 = <U8, U8, U0>, SectorShapeTop2 = <U8,
  // U8, U2>.
  static const std::array<PorepParams, 5> t{
      make("2KiB", 11, 2, 1, 2, 0, 0),      make("8MiB", 23, 2, 1, 2, 0, 0),
      make("512MiB", 29, 2, 1, 2, 0, 0),    make("32GiB", 35, 11, 10, 176, 8, 0),
      make("64GiB", 36, 11, 10, 176, 8, 2),
  };
  return t;
}

[[noreturn]] void unknown(std::string_view what) {
  throw std::invalid_argument("unknown PoRep sector size '" + std::string(what) +
                              "': the production sizes are 2KiB, 8MiB, 512MiB, 32GiB and 64GiB");
}

}  // namespace

std::span<const PorepParams> production_porep_params() {
  return table();
}

const PorepParams& porep_params_for_bytes(std::uint64_t sector_bytes) {
  for (const PorepParams& p : table())
    if (p.sector_bytes == sector_bytes) return p;
  unknown(std::to_string(sector_bytes));
}

const PorepParams& porep_params_for(std::string_view sector_size) {
  const std::optional<std::uint64_t> bytes = parse_sector_size(sector_size);
  if (bytes)
    for (const PorepParams& p : table())
      if (p.sector_bytes == *bytes) return p;
  unknown(sector_size);
}

}  // namespace cuzk::filecoin
