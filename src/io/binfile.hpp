// Reader for the iden3/snarkjs binary container shared by .r1cs, .wtns, .zkey and .ptau:
//
//   magic[4]  u32 version  u32 nSections  { u32 id, u64 size, bytes[size] } × nSections
//
// all little-endian. Section order is not fixed (groth16 setup writes zkey sections 1,2,4,3,9,8,5,6,7,10),
// so sections are looked up by id; a repeated id is rejected because it would make the file ambiguous.
// Bytes after the last section are ignored, as snarkjs does.
//
// A Cursor reads one section front to back with bounds checks; every failure throws FormatError with
// the file, section id, section name and the absolute byte offset.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "io/error.hpp"
#include "io/mapped_file.hpp"

namespace cuzk::io {

// Points and field elements are copied from file bytes into limb arrays with memcpy.
static_assert(std::endian::native == std::endian::little, "cuzk::io assumes a little-endian host");

struct SectionInfo {
  std::uint32_t id;
  std::uint64_t offset;  // absolute offset of the section's first payload byte
  std::uint64_t size;
};

class Cursor;

class BinFile {
 public:
  // Opens and maps the file and parses the container header. `magic` is the expected 4-byte magic
  // ("zkey", "wtns", "r1cs", …); an empty string accepts any magic (see magic()).
  BinFile(const std::string& path, std::string_view magic) : BinFile(path, {magic}) {}
  // Accepts any of several magics (peek_curve: ".zkey, .wtns or .r1cs").
  BinFile(const std::string& path, std::initializer_list<std::string_view> magics)
      : BinFile(path, MappedFile(path), magics) {}
  // Parses bytes already loaded; `name` stands for the path in error messages.
  BinFile(std::string name, MappedFile data, std::initializer_list<std::string_view> magics);

  const std::string& path() const { return path_; }
  std::string_view magic() const { return {reinterpret_cast<const char*>(file_.bytes().data()), 4}; }
  std::uint32_t version() const { return version_; }
  const std::vector<SectionInfo>& sections() const { return sections_; }
  std::span<const std::uint8_t> bytes() const { return file_.bytes(); }

  // nullptr when absent.
  const SectionInfo* find(std::uint32_t id) const;
  // A cursor over section `id`; throws FormatError ("missing section 3 (IC points)") when absent.
  // `name` is a short human description used in every error message about this section.
  Cursor section(std::uint32_t id, std::string_view name) const;
  Cursor cursor(const SectionInfo& s, std::string_view name) const;

  // Throws unless version() == expected.
  void require_version(std::uint32_t expected) const;

  [[noreturn]] void fail(const std::string& what) const { throw FormatError(path_, what); }

 private:
  std::string path_;
  MappedFile file_;
  std::uint32_t version_ = 0;
  std::vector<SectionInfo> sections_;
};

// Bounds-checked little-endian reader over one section.
class Cursor {
 public:
  Cursor(const BinFile& file, const SectionInfo& s, std::string_view name)
      : file_(&file), info_(s), name_(name), data_(file.bytes().data() + s.offset) {}

  std::uint32_t id() const { return info_.id; }
  std::uint64_t size() const { return info_.size; }
  std::uint64_t remaining() const { return info_.size - pos_; }
  // Absolute file offset of the next unread byte.
  std::uint64_t offset() const { return info_.offset + pos_; }
  // Absolute file offset of section-relative position `rel`.
  std::uint64_t offset_of(std::uint64_t rel) const { return info_.offset + rel; }
  std::uint64_t position() const { return pos_; }

  // Throws "truncated: <what> needs N bytes but only M remain" unless n bytes are left.
  void require(std::uint64_t n, std::string_view what) const;

  std::uint32_t u32(std::string_view what) {
    std::uint32_t v;
    std::memcpy(&v, take(4, what), 4);
    return v;
  }
  std::uint64_t u64(std::string_view what) {
    std::uint64_t v;
    std::memcpy(&v, take(8, what), 8);
    return v;
  }
  // Returns a pointer to the next n bytes and advances past them.
  const std::uint8_t* take(std::uint64_t n, std::string_view what) {
    require(n, what);
    const std::uint8_t* p = data_ + pos_;
    pos_ += n;
    return p;
  }

  // Throws unless the section size is exactly `expected` bytes; `how` explains the expectation,
  // e.g. "(nPublic+1) × 64 = 128".
  void require_size(std::uint64_t expected, const std::string& how) const;
  // Throws unless every byte of the section has been consumed.
  void require_end() const;

  [[noreturn]] void fail(const std::string& what) const { fail_at(offset(), what); }
  [[noreturn]] void fail_at(std::uint64_t abs_offset, const std::string& what) const {
    throw FormatError(file_->path(), info_.id, name_, abs_offset, what);
  }

 private:
  const BinFile* file_;
  SectionInfo info_;
  std::string name_;
  const std::uint8_t* data_;
  std::uint64_t pos_ = 0;
};

}  // namespace cuzk::io
