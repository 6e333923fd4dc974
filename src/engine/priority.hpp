// Job priorities, with the wire values of cuzk.v1.Priority (LOW 1 … CRITICAL 4).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace cuzk::engine {

enum class Priority : int { kLow = 1, kNormal = 2, kHigh = 3, kCritical = 4 };

constexpr std::string_view to_string(Priority p) {
  switch (p) {
    case Priority::kLow:
      return "LOW";
    case Priority::kNormal:
      return "NORMAL";
    case Priority::kHigh:
      return "HIGH";
    case Priority::kCritical:
      return "CRITICAL";
  }
  return "?";
}

// "low", "NORMAL", "High", … → the priority; anything else → nullopt.
std::optional<Priority> parse_priority(std::string_view text);

// 1..4 → the priority; anything else → nullopt (0, "unspecified" on the wire, is the caller's default).
constexpr std::optional<Priority> priority_from_wire(int v) {
  if (v < 1 || v > 4) return std::nullopt;
  return static_cast<Priority>(v);
}

}  // namespace cuzk::engine
