// Column: a vector of values that either owns its storage or views memory kept alive by another owner.
// A 32 GiB PoRep partition's a, b and c are 12.9 GB; the engine decodes them straight into a page-locked
// lease from its pinned pool, so they are written once and go to the GPU from there, instead of filling a
// fresh pageable vector and then being copied into the lease (two more passes over 12.9 GB, and 12.9 GB more
// resident per worker). Everything else reads a column as it would read a vector.
#pragma once

#include <algorithm>
#include <cstddef>
#include <memory>
#include <span>
#include <utility>
#include <vector>

namespace cuzk::groth16 {

template <class T>
class Column {
 public:
  Column() = default;
  // Implicit: synthesis and the readers fill a vector and hand it over.
  Column(std::vector<T> values) : owned_(std::move(values)) {}  // NOLINT(google-explicit-constructor)
  // A view of `values`, valid while `owner` lives. Copies of such a column share its memory.
  Column(std::span<T> values, std::shared_ptr<void> owner) : view_(values), owner_(std::move(owner)) {}

  std::size_t size() const { return owner_ ? view_.size() : owned_.size(); }
  bool empty() const { return size() == 0; }
  T* data() { return owner_ ? view_.data() : owned_.data(); }
  const T* data() const { return owner_ ? view_.data() : owned_.data(); }
  T& operator[](std::size_t i) { return data()[i]; }
  const T& operator[](std::size_t i) const { return data()[i]; }
  T* begin() { return data(); }
  T* end() { return data() + size(); }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size(); }
  operator std::span<const T>() const { return {data(), size()}; }  // NOLINT(google-explicit-constructor)
  operator std::span<T>() { return {data(), size()}; }              // NOLINT(google-explicit-constructor)
  // Whether the values live in memory the column does not own.
  bool borrowed() const { return owner_ != nullptr; }

  friend bool operator==(const Column& x, const Column& y) {
    return std::ranges::equal(std::span<const T>(x), std::span<const T>(y));
  }

 private:
  std::vector<T> owned_;
  std::span<T> view_;
  std::shared_ptr<void> owner_;
};

}  // namespace cuzk::groth16
