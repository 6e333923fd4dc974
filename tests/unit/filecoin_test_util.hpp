// Helpers shared by the filecoin unit tests: bytes as hex, strings as bytes.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace cuzk::filecoin::testing {

inline std::string hex(std::span<const std::uint8_t> bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (std::uint8_t b : bytes) {
    out += kDigits[b >> 4];
    out += kDigits[b & 15];
  }
  return out;
}

inline std::span<const std::uint8_t> ascii(std::string_view s) {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

}  // namespace cuzk::filecoin::testing
