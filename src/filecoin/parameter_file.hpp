// The name Filecoin publishes a circuit's Groth16 parameters under (storage-proofs-core parameter_cache.rs
// CacheableParameters::cache_identifier): "v28-" + the circuit's cache prefix + "-" + the hex SHA-256 of
// its public parameters' identifier string; .params, .vk and .meta share the stem.
#pragma once

#include <string>
#include <string_view>

#include "filecoin/porep_params.hpp"

namespace cuzk::filecoin {

std::string parameter_file_stem(std::string_view cache_prefix, std::string_view identifier);

// A tree's display() in prefixes (merkle/tree.rs): "merkletree-poseidon_hasher-8-8-0".
std::string tree_display(const TreeShape& tree);

}  // namespace cuzk::filecoin
