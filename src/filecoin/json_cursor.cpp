#include "filecoin/json_cursor.hpp"

#include <cstdio>

namespace cuzk::filecoin {
namespace {

std::string compose(const std::string& path, std::optional<std::uint64_t> offset, const std::string& what) {
  std::string out = path.empty() ? what : path + ": " + what;
  if (offset) out += " (at byte " + std::to_string(*offset) + ")";
  return out;
}

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xc0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xe0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  } else {
    out += static_cast<char>(0xf0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  }
}

}  // namespace

JsonInputError::JsonInputError(const std::string& source, const std::string& path,
                               std::optional<std::uint64_t> offset, const std::string& what)
    : io::FormatError(source, compose(path, offset, what)), path_(path), byte_offset_(offset), what_(what) {}

JsonCursor::JsonCursor(std::string_view text, std::string source) : text_(text), source_(std::move(source)) {
  path_.reserve(32);
}

std::string JsonCursor::path() const {
  std::string out;
  for (const Segment& s : path_) {
    if (s.is_key) {
      if (!out.empty()) out += '.';
      out += s.key;
    } else {
      out += '[' + std::to_string(s.index) + ']';
    }
  }
  return out;
}

void JsonCursor::fail_at(std::size_t offset, const std::string& what) const {
  throw JsonInputError(source_, path(), offset, what);
}

void JsonCursor::fail_here(const std::string& what) const {
  throw JsonInputError(source_, path(), std::nullopt, what);
}

std::string JsonCursor::describe_next() {
  skip_ws();
  if (pos_ >= text_.size()) return "the end of the text (truncated?)";
  const char c = text_[pos_];
  switch (c) {
    case '{':
      return "an object";
    case '[':
      return "an array";
    case '"':
      return "a string";
    case 't':
    case 'f':
      return "a boolean";
    case 'n':
      return "null";
    default:
      break;
  }
  if (c == '-' || is_digit(c)) return "a number";
  const auto u = static_cast<unsigned char>(c);
  if (u >= 0x20 && u < 0x7f) return std::string("the character '") + c + "'";
  char hex[8];
  std::snprintf(hex, sizeof hex, "0x%02x", u);
  return std::string("the byte ") + hex;
}

void JsonCursor::expect(char c, const char* what) {
  skip_ws();
  if (pos_ < text_.size() && text_[pos_] == c) {
    ++pos_;
    return;
  }
  fail(std::string("expected ") + what + ", found " + describe_next());
}

bool JsonCursor::next_key(std::size_t count, std::string_view& key) {
  skip_ws();
  if (pos_ >= text_.size()) fail("the text ends inside an object (truncated?)");
  if (text_[pos_] == '}') {
    ++pos_;
    return false;
  }
  if (count > 0) {
    if (text_[pos_] != ',') fail("expected ',' or '}' after an object member, found " + describe_next());
    ++pos_;
    skip_ws();
    if (pos_ < text_.size() && text_[pos_] == '}') fail("a trailing comma before '}' (not JSON)");
  }
  if (pos_ >= text_.size() || text_[pos_] != '"') fail("expected a key (a string), found " + describe_next());
  key = read_key();
  expect(':', "':' after the key");
  return true;
}

bool JsonCursor::next_element(std::size_t count) {
  skip_ws();
  if (pos_ >= text_.size()) fail("the text ends inside an array (truncated?)");
  if (text_[pos_] == ']') {
    ++pos_;
    return false;
  }
  if (count > 0) {
    if (text_[pos_] != ',') fail("expected ',' or ']' after an array element, found " + describe_next());
    ++pos_;
    skip_ws();
    if (pos_ < text_.size() && text_[pos_] == ']') fail("a trailing comma before ']' (not JSON)");
  }
  return true;
}

std::string_view JsonCursor::read_key() {
  // At the opening quote. Plain keys (the only ones serde writes) are returned in place.
  const std::size_t start = pos_ + 1;
  for (std::size_t i = start; i < text_.size(); ++i) {
    const char c = text_[i];
    if (c == '"') {
      pos_ = i + 1;
      return text_.substr(start, i - start);
    }
    if (c == '\\' || static_cast<unsigned char>(c) < 0x20) break;
  }
  key_buffer_.clear();
  read_string_into(key_buffer_);
  return key_buffer_;
}

std::string JsonCursor::read_string() {
  skip_ws();
  if (pos_ >= text_.size() || text_[pos_] != '"') fail("expected a string, found " + describe_next());
  std::string out;
  read_string_into(out);
  return out;
}

void JsonCursor::read_string_into(std::string& out) {
  const std::size_t open = pos_++;
  auto read_hex4 = [&]() -> std::uint32_t {
    if (pos_ + 4 > text_.size()) fail("the text ends inside a \\u escape (truncated?)");
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
      const int h = hex_value(text_[pos_ + i]);
      if (h < 0) fail("a \\u escape needs four hex digits");
      v = v * 16 + static_cast<std::uint32_t>(h);
    }
    pos_ += 4;
    return v;
  };
  while (true) {
    if (pos_ >= text_.size()) fail_at(open, "the text ends inside a string (truncated?)");
    const char c = text_[pos_];
    if (c == '"') {
      ++pos_;
      return;
    }
    if (static_cast<unsigned char>(c) < 0x20) fail("a control character inside a string (not JSON)");
    if (c != '\\') {  // a run of plain characters at once (Phase1Out is tens of MB of them)
      std::size_t end = pos_ + 1;
      while (end < text_.size() && text_[end] != '"' && text_[end] != '\\' &&
             static_cast<unsigned char>(text_[end]) >= 0x20)
        ++end;
      out.append(text_.data() + pos_, end - pos_);
      pos_ = end;
      continue;
    }
    ++pos_;
    if (pos_ >= text_.size()) fail_at(open, "the text ends inside a string (truncated?)");
    const char e = text_[pos_++];
    switch (e) {
      case '"':
      case '\\':
      case '/':
        out += e;
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'u': {
        std::uint32_t cp = read_hex4();
        if (cp >= 0xdc00 && cp <= 0xdfff) fail("a lone trailing surrogate in a \\u escape");
        if (cp >= 0xd800 && cp <= 0xdbff) {
          if (pos_ + 2 > text_.size() || text_[pos_] != '\\' || text_[pos_ + 1] != 'u')
            fail("a lone leading surrogate in a \\u escape");
          pos_ += 2;
          const std::uint32_t low = read_hex4();
          if (low < 0xdc00 || low > 0xdfff) fail("a leading surrogate not followed by a trailing one");
          cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
        }
        append_utf8(out, cp);
        break;
      }
      default:
        fail_at(pos_ - 2, std::string("an invalid escape '\\") + e + "' in a string");
    }
  }
}

std::uint64_t JsonCursor::read_u64_digits() {
  const std::size_t start = pos_;
  if (text_[pos_] == '0' && pos_ + 1 < text_.size() && is_digit(text_[pos_ + 1]))
    fail("a number with a leading zero (not JSON)");
  std::uint64_t v = 0;
  while (pos_ < text_.size() && is_digit(text_[pos_])) {
    const std::uint64_t d = static_cast<std::uint64_t>(text_[pos_] - '0');
    if (v > (UINT64_MAX - d) / 10) fail_at(start, "an integer larger than 2^64 - 1");
    v = v * 10 + d;
    ++pos_;
  }
  if (pos_ < text_.size() && (text_[pos_] == '.' || text_[pos_] == 'e' || text_[pos_] == 'E'))
    fail_at(start, "expected an unsigned integer, found a number with a fraction or an exponent");
  return v;
}

std::uint64_t JsonCursor::read_u64() {
  skip_ws();
  if (pos_ < text_.size() && is_digit(text_[pos_])) return read_u64_digits();
  if (pos_ < text_.size() && text_[pos_] == '-') fail("a negative number, expected an unsigned integer");
  fail("expected an unsigned integer, found " + describe_next());
}

void JsonCursor::read_null() {
  skip_ws();
  if (text_.substr(pos_, 4) == "null") {
    pos_ += 4;
    return;
  }
  fail("expected null, found " + describe_next());
}

void JsonCursor::read_bytes32(std::array<std::uint8_t, 32>& out) {
  begin_array();
  for (std::size_t i = 0; i < 32; ++i) {
    if (!next_element(i))
      fail_at(pos_ - 1, "an array of " + std::to_string(i) + " numbers, a 32-byte value has 32");
    skip_ws();
    const std::size_t start = pos_;
    push_index(i);
    const std::uint64_t v = read_u64();
    if (v > 255) fail_at(start, std::to_string(v) + " is not a byte (0..255)");
    pop();
    out[i] = static_cast<std::uint8_t>(v);
  }
  if (next_element(32)) fail("more than 32 numbers, a 32-byte value has 32");
}

void JsonCursor::skip_number() {
  const std::size_t start = pos_;
  if (text_[pos_] == '-') ++pos_;
  if (pos_ >= text_.size() || !is_digit(text_[pos_])) fail_at(start, "a malformed number");
  if (text_[pos_] == '0' && pos_ + 1 < text_.size() && is_digit(text_[pos_ + 1]))
    fail_at(start, "a number with a leading zero (not JSON)");
  while (pos_ < text_.size() && is_digit(text_[pos_])) ++pos_;
  if (pos_ < text_.size() && text_[pos_] == '.') {
    ++pos_;
    if (pos_ >= text_.size() || !is_digit(text_[pos_])) fail_at(start, "a malformed number");
    while (pos_ < text_.size() && is_digit(text_[pos_])) ++pos_;
  }
  if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
    ++pos_;
    if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
    if (pos_ >= text_.size() || !is_digit(text_[pos_])) fail_at(start, "a malformed number");
    while (pos_ < text_.size() && is_digit(text_[pos_])) ++pos_;
  }
}

void JsonCursor::skip_value() {
  skip_value(0);
}

void JsonCursor::skip_value(unsigned depth) {
  if (depth >= 128) fail("nested more than 128 deep");
  skip_ws();
  if (pos_ >= text_.size()) fail("expected a value, found the end of the text (truncated?)");
  const char c = text_[pos_];
  if (c == '{') {
    ++pos_;
    std::string_view key;
    for (std::size_t n = 0; next_key(n, key); ++n) skip_value(depth + 1);
  } else if (c == '[') {
    ++pos_;
    for (std::size_t n = 0; next_element(n); ++n) skip_value(depth + 1);
  } else if (c == '"') {
    std::string ignored;
    read_string_into(ignored);
  } else if (c == '-' || is_digit(c)) {
    skip_number();
  } else if (text_.substr(pos_, 4) == "true" || text_.substr(pos_, 4) == "null") {
    pos_ += 4;
  } else if (text_.substr(pos_, 5) == "false") {
    pos_ += 5;
  } else {
    fail("expected a value, found " + describe_next());
  }
}

void JsonCursor::finish() {
  skip_ws();
  if (pos_ != text_.size()) fail("unexpected text after the JSON value: " + describe_next());
}

}  // namespace cuzk::filecoin
