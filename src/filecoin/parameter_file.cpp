#include "filecoin/parameter_file.hpp"

#include <span>

#include "filecoin/sha256.hpp"

namespace cuzk::filecoin {

std::string parameter_file_stem(std::string_view cache_prefix, std::string_view identifier) {
  const Sha256Digest digest =
      Sha256::hash(std::span(reinterpret_cast<const std::uint8_t*>(identifier.data()), identifier.size()));
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  for (std::uint8_t b : digest) {
    hex += kHex[b >> 4];
    hex += kHex[b & 15];
  }
  return "v28-" + std::string(cache_prefix) + "-" + hex;  // parameter_cache.rs VERSION = 28
}

std::string tree_display(const TreeShape& tree) {
  return "merkletree-poseidon_hasher-" + std::to_string(tree.base) + "-" + std::to_string(tree.sub) + "-" +
         std::to_string(tree.top);
}

}  // namespace cuzk::filecoin
