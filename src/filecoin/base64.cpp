#include "filecoin/base64.hpp"

#include <array>
#include <cstdio>
#include <stdexcept>

namespace cuzk::filecoin {
namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

constexpr std::array<std::int8_t, 256> decode_table() {
  std::array<std::int8_t, 256> t{};
  for (auto& v : t) v = -1;
  for (int i = 0; i < 64; ++i) t[static_cast<unsigned char>(kAlphabet[i])] = static_cast<std::int8_t>(i);
  return t;
}
constexpr std::array<std::int8_t, 256> kDecode = decode_table();

[[noreturn]] void bad(std::size_t at, const std::string& what) {
  throw std::invalid_argument("invalid base64 at character " + std::to_string(at) + ": " + what);
}

std::string describe(char c) {
  const auto u = static_cast<unsigned char>(c);
  if (u > 0x20 && u < 0x7f) return std::string("'") + c + "'";
  char hex[8];
  std::snprintf(hex, sizeof hex, "0x%02x", u);
  return std::string("byte ") + hex;
}

}  // namespace

std::string base64_encode(std::span<const std::uint8_t> bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const std::uint32_t v =
        (std::uint32_t{bytes[i]} << 16) | (std::uint32_t{bytes[i + 1]} << 8) | bytes[i + 2];
    out += kAlphabet[v >> 18];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
    out += kAlphabet[v & 63];
  }
  const std::size_t rest = bytes.size() - i;
  if (rest) {
    std::uint32_t v = std::uint32_t{bytes[i]} << 16;
    if (rest == 2) v |= std::uint32_t{bytes[i + 1]} << 8;
    out += kAlphabet[v >> 18];
    out += kAlphabet[(v >> 12) & 63];
    out += rest == 2 ? kAlphabet[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

std::string base64_encode(std::string_view bytes) {
  return base64_encode(std::span(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()));
}

std::string base64_decode(std::string_view text) {
  if (text.size() % 4)
    bad(text.size(),
        "the length " + std::to_string(text.size()) + " is not a multiple of 4 (padding is required)");
  std::size_t pad = 0;  // only in the last quartet, as "xx==" or "xxx="
  if (!text.empty() && text.back() == '=') pad = text[text.size() - 2] == '=' ? 2 : 1;
  std::string out(text.size() / 4 * 3 - pad, '\0');
  char* o = out.data();
  for (std::size_t q = 0; q < text.size(); q += 4) {
    const std::size_t chars = q + 4 == text.size() ? 4 - pad : 4;
    std::uint32_t v = 0;
    for (std::size_t j = 0; j < 4; ++j) {
      std::int8_t d = 0;
      if (j < chars) {
        const char c = text[q + j];
        d = kDecode[static_cast<unsigned char>(c)];
        if (d < 0) {
          if (c == '=')
            bad(q + j, "'=' padding inside the text (only the last one or two characters may be '=')");
          bad(q + j, describe(c) + " is not a base64 character");
        }
      }
      v = (v << 6) | static_cast<std::uint32_t>(d);
    }
    *o++ = static_cast<char>(v >> 16);
    if (chars > 2) *o++ = static_cast<char>((v >> 8) & 0xff);
    if (chars > 3) *o++ = static_cast<char>(v & 0xff);
    if (chars == 2 && (v & 0xffff)) bad(q + 1, "non-zero bits after the last byte (not canonical base64)");
    if (chars == 3 && (v & 0xff)) bad(q + 2, "non-zero bits after the last byte (not canonical base64)");
  }
  return out;
}

}  // namespace cuzk::filecoin
