// Sector sizes as operators and Curio write them: "32GiB", "32gib", "32G", "32GB", "2KiB", or the byte count
// "34359738368". Units are binary (K = 2^10, M = 2^20, G = 2^30), as Filecoin's sector sizes are.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cuzk::filecoin {

// The byte count, or nothing when `text` is not a size in one of those forms.
std::optional<std::uint64_t> parse_sector_size(std::string_view text);

// "2KiB", "8MiB", "32GiB" (the largest unit that divides it), or the byte count.
std::string sector_size_name(std::uint64_t bytes);

}  // namespace cuzk::filecoin
