// The JSON forms of `cuzk prove-bellperson` / `verify-bellperson` (docs/filecoin.md):
//
//   assignment: {"a": [...], "b": [...], "c": [...], "inputs": [...], "aux": [...],
//                "a_aux_density": "0110…", "b_input_density": "1…", "b_aux_density": "…"}
//               or an array of such objects, one per partition. Values are canonical field elements as
//               0x-prefixed big-endian hex or decimal strings; a, b, c include the input constraints and
//               inputs start with ONE. The densities (character i = bit i) are optional: without them every
//               variable counts as present, which the key must then agree with.
//   inputs:     the public inputs without ONE, as an array of values, or an array of arrays (partitions).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "groth16/bellperson.hpp"

namespace cuzk::io::bellperson_json {

using Fr = groth16::bellperson::Fr;

// Throws FormatError (file, partition, field, index) on anything malformed. A density left out has bits = 0.
std::vector<groth16::bellperson::Assignment> read_assignments(const std::string& path);
void write_assignments(const std::string& path, const std::vector<groth16::bellperson::Assignment>& parts);

std::vector<std::vector<Fr>> read_inputs(const std::string& path);
void write_inputs(const std::string& path, const std::vector<std::vector<Fr>>& parts);

// "0x…" (big-endian hex) or decimal; nullopt unless it is a canonical element.
std::optional<Fr> parse_value(const std::string& text);

}  // namespace cuzk::io::bellperson_json
