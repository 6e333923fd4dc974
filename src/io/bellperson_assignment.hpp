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

// Memory that the caller lends the reader for the large vectors: `values` and what keeps them alive. The
// engine lends page-locked leases, so a PoRep partition's a, b, c (12.9 GB) and aux (4.2 GB) are decoded
// once, where the GPU upload reads them (groth16::Column views them).
struct LentMemory {
  std::span<groth16::bellperson::Fr> values;
  std::shared_ptr<void> owner;
};
enum class Part {
  kAbc,  // a, b and c one after the other: 3·abc_size scalars
  kAux,  // aux_size scalars
};
// Asked once the header is read, for kAbc and then kAux, with the number of scalars; no memory (nullopt, or
// too few values) leaves that part in vectors of its own.
using Lend = std::function<std::optional<LentMemory>(Part part, std::uint64_t count)>;

// Throws FormatError naming `name` (truncated, wrong magic or version, a value not reduced).
groth16::bellperson::Assignment read(const std::string& path, const Lend& lend = {});
groth16::bellperson::Assignment read_bytes(std::vector<std::uint8_t> bytes, const std::string& name);
// The header only, with the file's length checked against it.
Header peek(const std::string& path);

void write(const std::string& path, const groth16::bellperson::Assignment& w);

}  // namespace cuzk::io::bellperson_assignment
