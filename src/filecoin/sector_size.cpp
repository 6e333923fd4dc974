#include "filecoin/sector_size.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace cuzk::filecoin {

std::optional<std::uint64_t> parse_sector_size(std::string_view text) {
  std::string s(text);
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  std::size_t digits = 0;
  while (digits < s.size() && s[digits] >= '0' && s[digits] <= '9') ++digits;
  if (digits == 0 || digits > 19) return std::nullopt;
  std::uint64_t number = 0;
  for (std::size_t i = 0; i < digits; ++i) {
    const std::uint64_t d = static_cast<std::uint64_t>(s[i] - '0');
    if (number > (~std::uint64_t{0} - d) / 10) return std::nullopt;
    number = number * 10 + d;
  }
  const std::string unit = s.substr(digits);
  if (unit.empty()) return number;
  static constexpr std::array<std::pair<char, unsigned>, 3> kUnits{{{'k', 10}, {'m', 20}, {'g', 30}}};
  for (const auto& [letter, shift] : kUnits) {
    const std::string l(1, letter);
    if (unit != l && unit != l + "b" && unit != l + "ib") continue;
    if (number > (~std::uint64_t{0} >> shift)) return std::nullopt;
    return number << shift;
  }
  return std::nullopt;
}

std::string sector_size_name(std::uint64_t bytes) {
  static constexpr std::array<std::pair<const char*, unsigned>, 3> kUnits{
      {{"GiB", 30}, {"MiB", 20}, {"KiB", 10}}};
  for (const auto& [unit, shift] : kUnits)
    if (bytes != 0 && bytes % (std::uint64_t{1} << shift) == 0) return std::to_string(bytes >> shift) + unit;
  return std::to_string(bytes);
}

}  // namespace cuzk::filecoin
