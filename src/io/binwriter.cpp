#include "io/binwriter.hpp"

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace cuzk::io {

BinWriter::BinWriter(const std::string& path, std::string_view magic, std::uint32_t version,
                     std::uint32_t n_sections)
    : path_(path), tmp_path_(path + ".partial"), expected_sections_(n_sections) {
  if (magic.size() != 4) throw std::invalid_argument("BinWriter: magic must be 4 bytes");
  f_ = std::fopen(tmp_path_.c_str(), "wb");
  if (!f_) fail(std::string("cannot create ") + tmp_path_ + ": " + std::strerror(errno));
  // Large buffer: zkeys are written as millions of small point records.
  std::setvbuf(f_, nullptr, _IOFBF, 1 << 20);
  bytes(magic.data(), 4);
  u32(version);
  u32(n_sections);
}

BinWriter::~BinWriter() {
  if (f_) std::fclose(f_);
  if (!finished_) std::remove(tmp_path_.c_str());
}

void BinWriter::fail(const std::string& what) const {
  throw std::runtime_error(path_ + ": " + what);
}

void BinWriter::bytes(const void* p, std::size_t n) {
  if (n && std::fwrite(p, 1, n, f_) != n) fail(std::string("write failed: ") + std::strerror(errno));
  section_bytes_ += n;
}

void BinWriter::zeros(std::size_t n) {
  static const std::uint8_t z[4096] = {};
  while (n) {
    std::size_t k = n < sizeof z ? n : sizeof z;
    bytes(z, k);
    n -= k;
  }
}

void BinWriter::begin_section(std::uint32_t id) {
  if (in_section_) throw std::logic_error("BinWriter: begin_section inside a section");
  u32(id);
  section_size_pos_ = ftello(f_);
  if (section_size_pos_ < 0) fail(std::string("ftell failed: ") + std::strerror(errno));
  u64(0);
  in_section_ = true;
  section_bytes_ = 0;
}

void BinWriter::end_section() {
  if (!in_section_) throw std::logic_error("BinWriter: end_section without begin_section");
  const std::uint64_t size = section_bytes_;
  const long long end = ftello(f_);
  if (end < 0 || fseeko(f_, section_size_pos_, SEEK_SET) != 0)
    fail(std::string("seek failed: ") + std::strerror(errno));
  u64(size);
  if (fseeko(f_, end, SEEK_SET) != 0) fail(std::string("seek failed: ") + std::strerror(errno));
  in_section_ = false;
  ++written_sections_;
}

void BinWriter::finish() {
  if (in_section_) throw std::logic_error("BinWriter: finish inside a section");
  if (written_sections_ != expected_sections_)
    throw std::logic_error("BinWriter: wrote " + std::to_string(written_sections_) + " sections, declared " +
                           std::to_string(expected_sections_));
  const bool flush_failed = std::fflush(f_) != 0;
  const int close_rc = std::fclose(f_);
  f_ = nullptr;
  if (flush_failed || close_rc != 0) fail(std::string("write failed: ") + std::strerror(errno));
  if (std::rename(tmp_path_.c_str(), path_.c_str()) != 0)
    fail(std::string("cannot rename ") + tmp_path_ + ": " + std::strerror(errno));
  finished_ = true;
}

}  // namespace cuzk::io
