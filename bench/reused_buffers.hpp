// The memory a synthesis benchmark lends to every repetition (io::bellperson_assignment::Lend), made on first
// use and then reused, as a daemon worker reuses its page-locked leases: after the first repetition the
// figures are the synthesis, not the kernel zeroing fresh pages (a third of a 32 GiB partition's time on a
// small VM).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "ff/bls12_381.hpp"
#include "io/bellperson_assignment.hpp"

namespace cuzk::bench {

class ReusedBuffers {
 public:
  io::bellperson_assignment::Lend lend() {
    return [this](io::bellperson_assignment::Part part,
                  std::uint64_t count) -> std::optional<io::bellperson_assignment::LentMemory> {
      auto& b = buffers_[part == io::bellperson_assignment::Part::kAbc ? 0 : 1];
      if (!b || b->size() < count) b = std::make_shared<std::vector<ff::bls12_381::Fr>>(count);
      return io::bellperson_assignment::LentMemory{std::span(b->data(), count), b};
    };
  }

 private:
  std::shared_ptr<std::vector<ff::bls12_381::Fr>> buffers_[2];
};

}  // namespace cuzk::bench
