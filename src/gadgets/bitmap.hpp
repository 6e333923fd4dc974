// A growable bit vector in bellperson's layout (bit i = words[i / 64] >> (i % 64) & 1, BitVec<u64, Lsb0>):
// the density trackers of the A and B queries.
#pragma once

#include <bit>
#include <cstdint>
#include <vector>

namespace cuzk::gadgets {

class Bitmap {
 public:
  void push_back_zero() {
    if (bits_ % 64 == 0) words_.push_back(0);
    ++bits_;
  }
  void resize(std::size_t bits) {
    words_.resize((bits + 63) / 64, 0);
    bits_ = bits;
  }
  void set(std::size_t i) { words_[i / 64] |= std::uint64_t{1} << (i % 64); }
  bool test(std::size_t i) const { return (words_[i / 64] >> (i % 64)) & 1; }
  std::size_t size() const { return bits_; }
  // Appends `other`'s bits after this one's.
  void append(const Bitmap& other) {
    const std::size_t shift = bits_ % 64;
    if (shift == 0) {
      words_.insert(words_.end(), other.words_.begin(), other.words_.end());
    } else {
      for (std::uint64_t w : other.words_) {
        words_.back() |= w << shift;
        words_.push_back(w >> (64 - shift));
      }
    }
    bits_ += other.bits_;
    words_.resize((bits_ + 63) / 64);
  }
  std::size_t popcount() const {
    std::size_t n = 0;
    for (std::uint64_t w : words_) n += static_cast<std::size_t>(std::popcount(w));
    return n;
  }
  const std::vector<std::uint64_t>& words() const { return words_; }
  bool operator==(const Bitmap&) const = default;

 private:
  std::vector<std::uint64_t> words_;
  std::size_t bits_ = 0;
};

}  // namespace cuzk::gadgets
