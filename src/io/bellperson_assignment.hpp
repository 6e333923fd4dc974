// Binary bellperson assignments ("CZKA", docs/filecoin.md): one partition's synthesis output as a synthesizer
// holds it in memory. Little-endian: "CZKA", u32 version 1, u64 abc_size, u64 inputs_size, u64 aux_size;
// a, b, c, inputs, aux as 32-byte Montgomery scalars; then the a_aux, b_inputs and b_aux density words.
// The daemon takes these as a bellperson circuit's partition witnesses; the C example reads them.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "groth16/bellperson.hpp"

namespace cuzk::io::bellperson_assignment {

struct Header {
  std::uint64_t abc_size = 0, inputs_size = 0, aux_size = 0;
};

// Memory for a, b and c that the caller lends the reader: 3·abc_size scalars (a, then b, then c, one after
// the other) and what keeps them alive. The engine lends a page-locked lease, so a PoRep partition's 12.9 GB
// of a, b, c are decoded once, where the GPU upload reads them (groth16::Column).
struct AbcMemory {
  std::span<groth16::bellperson::Fr> values;
  std::shared_ptr<void> owner;
};
// Asked once the header is read, with abc_size; no memory (nullopt, or too few values): vectors of their own.
using LendAbc = std::function<std::optional<AbcMemory>(std::uint64_t abc_size)>;

// Throws FormatError naming `name` (truncated, wrong magic or version, a value not reduced).
groth16::bellperson::Assignment read(const std::string& path, const LendAbc& lend = {});
groth16::bellperson::Assignment read_bytes(std::vector<std::uint8_t> bytes, const std::string& name);
// The header only, with the file's length checked against it.
Header peek(const std::string& path);

void write(const std::string& path, const groth16::bellperson::Assignment& w);

}  // namespace cuzk::io::bellperson_assignment
