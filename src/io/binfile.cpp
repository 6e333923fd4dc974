#include "io/binfile.hpp"

#include <cctype>
#include <cstdio>

namespace cuzk::io {

namespace {

// The magic as text when printable, else as hex, so that a PNG or a JSON file gives a readable error.
std::string show_magic(std::span<const std::uint8_t> m) {
  bool printable = true;
  for (auto c : m) printable &= std::isprint(c) != 0;
  if (printable) {
    std::string s = "\"";
    s.append(m.begin(), m.end());
    return s += '"';
  }
  std::string s = "0x";
  char buf[3];
  for (auto c : m) {
    std::snprintf(buf, sizeof buf, "%02x", c);
    s += buf;
  }
  return s;
}

std::uint32_t load_u32(const std::uint8_t* p) {
  std::uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
std::uint64_t load_u64(const std::uint8_t* p) {
  std::uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

}  // namespace

BinFile::BinFile(std::string name, MappedFile data, std::initializer_list<std::string_view> magics)
    : path_(std::move(name)), file_(std::move(data)) {
  const auto b = file_.bytes();
  const std::uint64_t n = b.size();
  // ".zkey" or ".zkey, .wtns or .r1cs"; an empty magic accepts anything.
  std::string kind;
  bool any = false;
  for (std::size_t i = 0; i < magics.size(); ++i) {
    const std::string_view m = magics.begin()[i];
    any |= m.empty();
    if (i) kind += i + 1 == magics.size() ? " or " : ", ";
    kind += '.';
    kind += m;
  }
  if (any) kind = "snarkjs binary";
  if (n < 12)
    fail("truncated: " + std::to_string(n) + " bytes, but a " + kind +
         " file starts with a 12-byte header (magic, version, section count)");
  bool magic_ok = any;
  for (std::string_view m : magics) magic_ok |= m.size() == 4 && std::memcmp(b.data(), m.data(), 4) == 0;
  if (!magic_ok) {
    std::string expected;
    for (std::string_view m : magics) {
      if (!expected.empty()) expected += " or ";
      expected += '"';
      expected += m;
      expected += '"';
    }
    fail("not a " + kind + " file: magic is " + show_magic(b.first(4)) + ", expected " + expected);
  }
  version_ = load_u32(b.data() + 4);
  const std::uint32_t n_sections = load_u32(b.data() + 8);

  std::uint64_t pos = 12;
  for (std::uint32_t i = 0; i < n_sections; ++i) {
    if (n - pos < 12)
      fail("truncated at offset " + std::to_string(pos) + ": header of section #" + std::to_string(i + 1) +
           " of " + std::to_string(n_sections) + " needs 12 bytes, only " + std::to_string(n - pos) +
           " remain");
    const std::uint32_t id = load_u32(b.data() + pos);
    const std::uint64_t size = load_u64(b.data() + pos + 4);
    pos += 12;
    if (size > n - pos)
      fail("truncated: section " + std::to_string(id) + " at offset " + std::to_string(pos) + " declares " +
           std::to_string(size) + " bytes, but only " + std::to_string(n - pos) + " remain in the file");
    if (find(id))
      fail("section " + std::to_string(id) + " appears twice (second copy at offset " +
           std::to_string(pos - 12) + ")");
    sections_.push_back({id, pos, size});
    pos += size;
  }
}

const SectionInfo* BinFile::find(std::uint32_t id) const {
  for (const auto& s : sections_)
    if (s.id == id) return &s;
  return nullptr;
}

Cursor BinFile::section(std::uint32_t id, std::string_view name) const {
  const SectionInfo* s = find(id);
  if (!s) fail("missing section " + std::to_string(id) + " (" + std::string(name) + ")");
  return Cursor(*this, *s, name);
}

Cursor BinFile::cursor(const SectionInfo& s, std::string_view name) const {
  return Cursor(*this, s, name);
}

void BinFile::require_version(std::uint32_t expected) const {
  if (version_ != expected)
    fail("unsupported ." + std::string(magic()) + " version " + std::to_string(version_) + " (expected " +
         std::to_string(expected) + ")");
}

void Cursor::require(std::uint64_t n, std::string_view what) const {
  if (n > remaining())
    fail("truncated: " + std::string(what) + " needs " + std::to_string(n) + " bytes but only " +
         std::to_string(remaining()) + " remain in the section");
}

void Cursor::require_size(std::uint64_t expected, const std::string& how) const {
  if (info_.size != expected)
    fail_at(info_.offset, "section size is " + std::to_string(info_.size) + " bytes, expected " + how +
                              " = " + std::to_string(expected));
}

void Cursor::require_end() const {
  if (remaining() != 0)
    fail(std::to_string(remaining()) + " unexpected trailing bytes (section size " +
         std::to_string(info_.size) + ")");
}

}  // namespace cuzk::io
