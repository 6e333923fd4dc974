// Where a synthesized assignment's big arrays go: memory the caller lends (the engine's page-locked leases,
// written once, where the GPU upload reads them), or memory of their own.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include "gadgets/assignment.hpp"
#include "gadgets/bitmap.hpp"
#include "groth16/bellperson.hpp"
#include "io/bellperson_assignment.hpp"

namespace cuzk::filecoin {

// A column of `count` scalars at `at` in lent memory (`lent` the lender's answer for the part), or owned.
inline groth16::Column<groth16::bellperson::Fr> column_in(
    std::optional<io::bellperson_assignment::LentMemory>& lent, std::uint64_t at, std::uint64_t count) {
  if (lent && lent->values.size() >= at + count) return {lent->values.subspan(at, count), lent->owner};
  // Uninitialised (every value is written): a vector would zero gigabytes first, on one thread.
  auto owned = std::make_shared<gadgets::Assignment>(count);
  return {std::span<groth16::bellperson::Fr>(*owned), owned};
}

inline groth16::bellperson::Density to_density(const gadgets::Bitmap& bits) {
  return {bits.words(), bits.size()};
}

}  // namespace cuzk::filecoin
