// Size and range checks shared by the buffer owners. They run before any CUDA call, so a bad size or
// range is a plain C++ exception and never reaches the device, where an out-of-range access would be
// silent corruption or a sticky error that takes the whole context down.
#pragma once

#include <cstddef>
#include <limits>
#include <stdexcept>
#include <string>

namespace cuzk::cuda::detail {

// Throws std::out_of_range unless [offset, offset + n) lies inside [0, size); overflow-safe.
inline void check_range(const char* op, std::size_t offset, std::size_t n, std::size_t size) {
  if (offset > size || n > size - offset)
    throw std::out_of_range(std::string(op) + ": elements [" + std::to_string(offset) + ", " +
                            std::to_string(offset) + " + " + std::to_string(n) +
                            ") out of range for a buffer of " + std::to_string(size) + " elements");
}

// n * sizeof(T) in bytes; std::length_error if that does not fit in size_t.
template <class T>
std::size_t checked_bytes(std::size_t n) {
  if (n > std::numeric_limits<std::size_t>::max() / sizeof(T))
    throw std::length_error("buffer of " + std::to_string(n) + " elements of " + std::to_string(sizeof(T)) +
                            " bytes overflows size_t");
  return n * sizeof(T);
}

}  // namespace cuzk::cuda::detail
