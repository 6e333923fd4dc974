// A strict pull reader of JSON text (RFC 8259) for schema-driven readers of Filecoin's serde_json data
// (the C1 output): the reader walks the text once, asking for the value it expects next, and converts
// as it goes, so a 40 MB C1 output needs no document tree. Every failure throws JsonInputError naming the
// source, the field path the reader is at ("vanilla_proofs.StackedDrg32GiBV1[3][7].comm_d_proofs") and
// the byte offset in the text.
//
// Strict as serde_json's from_slice: no trailing commas, comments, leading zeros, BOM or trailing text;
// control characters in strings and bad escapes are errors. Strings are not checked to be UTF-8 (the
// schemas here compare them against ASCII names, so a non-UTF-8 one is simply unknown).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "io/error.hpp"

namespace cuzk::filecoin {

// Bad JSON input: "<source>: <path>: <what> (at byte <offset>)"; the path is empty at the top level and
// the offset absent for checks made after reading (then the path says where).
class JsonInputError : public io::FormatError {
 public:
  JsonInputError(const std::string& source, const std::string& path, std::optional<std::uint64_t> offset,
                 const std::string& what);

  const std::string& path() const { return path_; }
  std::optional<std::uint64_t> byte_offset() const { return byte_offset_; }
  const std::string& what_only() const { return what_; }  // the message without source, path and offset

 private:
  std::string path_;
  std::optional<std::uint64_t> byte_offset_;
  std::string what_;
};

class JsonCursor {
 public:
  JsonCursor(std::string_view text, std::string source);

  const std::string& source() const { return source_; }
  std::size_t offset() const { return pos_; }
  // Skips whitespace: the offset where the next value starts.
  std::size_t value_start() {
    skip_ws();
    return pos_;
  }

  // ---- the field path (for messages). Keys pushed must outlive their segment (the schema's names). ----
  void push_key(std::string_view key) { path_.push_back({key, 0, true}); }
  void push_index(std::size_t index) { path_.push_back({{}, index, false}); }
  void pop() { path_.pop_back(); }
  std::size_t depth() const { return path_.size(); }
  void truncate(std::size_t depth) { path_.resize(depth); }
  std::string path() const;

  [[noreturn]] void fail(const std::string& what) const { fail_at(pos_, what); }
  [[noreturn]] void fail_at(std::size_t offset, const std::string& what) const;
  // A check made after the value was read: the path, no offset.
  [[noreturn]] void fail_here(const std::string& what) const;

  // ---- structure ----
  void begin_object() { expect('{', "an object"); }
  void begin_array() { expect('[', "an array"); }
  // Before member `count` of an object (0 first): false (and consumed) at the closing '}', else the
  // member's key is read with its ':' and returned in `key` (valid until the next key is read).
  bool next_key(std::size_t count, std::string_view& key);
  // Before element `count` of an array: false (and consumed) at the closing ']'.
  bool next_element(std::size_t count);

  // ---- scalars ----
  std::uint64_t read_u64();
  std::string read_string();
  void read_null();
  // Any value, nested at most 128 deep (serde_json's recursion limit).
  void skip_value();
  // After the top-level value: only whitespace may follow.
  void finish();

  // [b0, …, b31]: exactly 32 integers 0..255 (serde_json's form of [u8; 32] and of the Domain newtypes).
  void read_bytes32(std::array<std::uint8_t, 32>& out);

  // What the next value is, for messages: "an object", "a string", …, or "the end of the text".
  std::string describe_next();

 private:
  struct Segment {
    std::string_view key;
    std::size_t index;
    bool is_key;
  };

  void skip_ws() {
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c != ' ' && c != '\n' && c != '\r' && c != '\t') return;
      ++pos_;
    }
  }
  void expect(char c, const char* what);
  std::string_view read_key();
  void read_string_into(std::string& out);
  void skip_value(unsigned depth);
  void skip_number();
  std::uint64_t read_u64_digits();

  std::string_view text_;
  std::string source_;
  std::size_t pos_ = 0;
  std::vector<Segment> path_;
  std::string key_buffer_;  // a key with escapes, decoded
};

}  // namespace cuzk::filecoin
