// The NTT twiddle table's two layouts (ntt/gpu.hpp), and their sizes: host-only, so the GPU plans
// (groth16/gpu_plan.hpp) size them without CUDA.
#pragma once

#include <cstddef>

namespace cuzk::ntt {

// kFull: T[i] = ω_2N^i for every i < N. kCompact: T[i] = L[i mod 2^l]·U[i >> l], l = ⌈log N / 2⌉.
enum class TableLayout { kFull, kCompact };

constexpr unsigned compact_low_log(std::size_t log_n) {
  return static_cast<unsigned>((log_n + 1) / 2);
}

// Field elements the tables of a 2^log_n domain hold in `layout`.
constexpr std::size_t table_elements(std::size_t log_n, TableLayout layout) {
  if (layout == TableLayout::kFull) return std::size_t(1) << log_n;
  const unsigned l = compact_low_log(log_n);
  return (std::size_t(1) << l) + (std::size_t(1) << (log_n - l));
}

}  // namespace cuzk::ntt
