// The StackedDRG PoRep circuit's parameters per sector size (rust-fil-proofs
// filecoin-proofs/src/constants.rs: LAYERS, POREP_PARTITIONS, the interactive minimum challenges, the sector
// shapes; the graph's degrees from storage-proofs-core drgraph.rs and storage-proofs-porep
// stacked/vanilla/graph.rs).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace cuzk::filecoin {

inline constexpr unsigned kDrgParents = 6;       // BASE_DEGREE
inline constexpr unsigned kExpanderParents = 8;  // EXP_DEGREE
inline constexpr unsigned kTotalParents = 37;    // TOTAL_PARENTS: the label hash's parent slots
inline constexpr std::uint64_t kNodeBytes = 32;

// A Poseidon Merkle tree of Filecoin's "LC" shapes: `base_levels` levels of arity `base`, then at most one
// level of arity `sub`, then at most one of arity `top` (0 = absent).
struct TreeShape {
  unsigned base = 8, sub = 0, top = 0;
  unsigned base_levels = 0;

  // Index bits one inclusion path carries (packed into one public input).
  unsigned path_bits() const;
  unsigned levels() const { return base_levels + (sub ? 1 : 0) + (top ? 1 : 0); }
};

struct PorepParams {
  std::string name;  // "32GiB"
  std::uint64_t sector_bytes = 0;
  std::uint64_t nodes = 0;  // sector_bytes / 32
  unsigned layers = 0;
  unsigned partitions = 0;
  unsigned challenges_per_partition = 0;
  TreeShape tree;              // trees C and R_last
  unsigned tree_d_levels = 0;  // binary SHA-256 tree over the data

  // Public inputs of one partition: replica_id, comm_d, comm_r, then per challenge the packed path of its
  // data leaf, of its 6 DRG and 8 expander parents, the challenge itself, and the two paths of the node
  // (generate_public_inputs).
  std::uint64_t public_inputs() const { return 3 + std::uint64_t{challenges_per_partition} * 18; }
};

// The five production sizes, smallest first.
std::span<const PorepParams> production_porep_params();

// "2KiB", "8MiB", "512MiB", "32GiB", "64GiB" (also "2kib", "32G", "34359738368", …), or the byte count.
// Throws std::invalid_argument naming the sizes there are for anything else.
const PorepParams& porep_params_for(std::string_view sector_size);
const PorepParams& porep_params_for_bytes(std::uint64_t sector_bytes);

// A tree of `nodes` leaves in the shape of the given arities (nodes must be a multiple of sub·top and the
// rest a power of the base arity); throws std::invalid_argument otherwise.
TreeShape tree_shape_for(std::uint64_t nodes, unsigned base, unsigned sub, unsigned top);

}  // namespace cuzk::filecoin
