// Standard base64 (RFC 4648 §4: alphabet A-Z a-z 0-9 + /, '=' padding), as Go's encoding/json writes a
// []byte and Curio's Rust daemon reads it back (base64::engine::general_purpose::STANDARD: padding required,
// non-zero trailing bits rejected). Used for the C1 envelope's Phase1Out.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace cuzk::filecoin {

std::string base64_encode(std::span<const std::uint8_t> bytes);
std::string base64_encode(std::string_view bytes);

// Throws std::invalid_argument saying what is wrong and at which character (0-based): a character outside
// the alphabet (whitespace included), a length that is not a multiple of 4, misplaced or excess '=',
// non-zero bits after the last byte.
std::string base64_decode(std::string_view text);

}  // namespace cuzk::filecoin
