// Filecoin's SnapDeals (empty sector update) circuit per sector size, as storage-proofs-update constants.rs
// and vanilla.rs PublicParams::from_sector_size set it up. A sector of N nodes (2^n, 32 bytes each) is
// proved in `partitions` partitions; partition k proves `challenges` nodes of its own N / partitions, each
// in three trees: tree R of the old replica (the sector key, comm_r_old = Poseidon2(comm_c, root_r_old)),
// tree D of the new data (binary SHA-256, root comm_d_new) and tree R of the new replica (comm_r_new =
// Poseidon2(comm_c, root_r_new)). The new replica's node is the old one + data · rho, where rho is a
// Poseidon hash of phi = H(comm_d_new, comm_r_old) and the node index's h high bits.
//
// Besides the five production sizes (the PoRep's, with the same tree shapes) storage-proofs-update defines
// test sizes 1, 4, 8, 16 and 32 KiB and 16 MiB with trees of their own; rust-fil-proofs' tests publish the
// constraint counts of 1–32 KiB and 32 GiB, which is why cuzk knows them too.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "filecoin/porep_params.hpp"
#include "gadgets/poseidon_constants.hpp"

namespace cuzk::filecoin {

struct UpdateParams {
  std::string name;  // "32GiB"
  std::uint64_t sector_bytes = 0, nodes = 0;
  bool production = false;      // a size Filecoin has a proof type for
  unsigned challenge_bits = 0;  // log2 nodes
  unsigned partitions = 0, partition_bits = 0;
  unsigned challenges = 0;                  // per partition
  unsigned apex_leaves = 0, apex_bits = 0;  // tree D nodes under the partition's root, as one "apex" tree
  std::array<unsigned, 6> hs{};             // the allowed h (high bits of a node index that select its rho)
  unsigned h_default = 0;                   // hs[3]: what filecoin-proofs encodes and proves with
  TreeShape tree;                           // trees R old and new (the sector's PoRep shape)

  // Bits of a challenge drawn from the randomness (the partition's index supplies the rest), and how many
  // challenges one 255-bit digest yields (Fr::CAPACITY / bits, as gen_challenge_bits computes it).
  unsigned random_bits() const { return challenge_bits - partition_bits; }
  unsigned challenges_per_digest() const { return 254 / random_bits(); }
  unsigned digests() const { return (challenges + challenges_per_digest() - 1) / challenges_per_digest(); }
  // ONE, k_and_h_select, comm_r_old, comm_d_new, comm_r_new.
  static constexpr std::uint64_t public_inputs() { return 5; }
};

// Every size storage-proofs-update allows, smallest first (ALLOWED_SECTOR_SIZES).
std::span<const UpdateParams> all_update_params();

// A size as parse_sector_size reads it ("32GiB", "2KiB", "16MiB", bytes). Throws std::invalid_argument
// naming the sizes there are for anything else.
const UpdateParams& update_params_for(std::string_view sector_size);
const UpdateParams& update_params_for_bytes(std::uint64_t sector_bytes);

// h_select: one bit, at h's position among params.hs (constants.rs h_select); throws std::invalid_argument
// for an h the size does not allow. k_and_h_select = k | h_select << partition_bits, the circuit's first
// public input.
std::uint64_t update_h_select(const UpdateParams& params, unsigned h);
std::uint64_t update_k_and_h_select(const UpdateParams& params, std::uint64_t k, unsigned h);

// Poseidon arity 2 with HashType::Custom(CType::Arbitrary(1)) (POSEIDON_CONSTANTS_GEN_RANDOMNESS): the
// MerkleTree arity-2 constants with the domain tag 1·2^40. phi, rho and the challenge digests use it.
const gadgets::PoseidonConstants& update_randomness_constants();

// The parameter set's identifier (vanilla.rs: "empty_sector_update::PublicParams{ sector_nodes: N }") and
// the stem its .params and .vk are published under ("v28-empty-sector-update-" + tree R's display + "-" +
// the identifier's hex SHA-256).
std::string update_parameter_identifier(const UpdateParams& params);
std::string update_parameter_file_stem(const UpdateParams& params);

}  // namespace cuzk::filecoin
