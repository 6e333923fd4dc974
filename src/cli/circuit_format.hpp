// How `cuzk circuit …` prints a circuit's size: grouped numbers, tree shapes, and a shape's counts as text
// rows or JSON members (cmd_circuit.cpp for PoRep, cmd_circuit_post.cpp for PoSt).
#pragma once

#include <cstdint>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "filecoin/porep_params.hpp"
#include "gadgets/shape.hpp"

namespace cuzk::cli {

// 130278869 → "130,278,869"
inline std::string grouped(std::uint64_t v) {
  std::string digits = std::to_string(v), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

inline std::string fixed(double x, int decimals) {
  std::ostringstream o;
  o << std::fixed << std::setprecision(decimals) << x;
  return o.str();
}

// rust-fil-proofs' LCTree<Poseidon, U8, U8, U0> reads "8-8-0".
inline std::string tree_name(const filecoin::TreeShape& t) {
  return std::to_string(t.base) + "-" + std::to_string(t.sub) + "-" + std::to_string(t.top);
}

inline std::string tree_text(const filecoin::TreeShape& t) {
  return "Poseidon " + tree_name(t) + ": " + std::to_string(t.base_levels) + " levels of arity " +
         std::to_string(t.base) + (t.sub ? ", one of " + std::to_string(t.sub) : "") +
         (t.top ? ", one of " + std::to_string(t.top) : "") + " (" + std::to_string(t.path_bits()) +
         " path bits)";
}

inline nlohmann::ordered_json tree_json(const filecoin::TreeShape& t) {
  return {{"base_arity", t.base},         {"sub_arity", t.sub},   {"top_arity", t.top},
          {"base_levels", t.base_levels}, {"levels", t.levels()}, {"path_bits", t.path_bits()}};
}

inline nlohmann::ordered_json density_json(const gadgets::Bitmap& b) {
  return {{"popcount", b.popcount()}, {"bits", b.size()}};
}

// The counts every circuit has, as JSON members.
inline void add_shape_json(nlohmann::ordered_json& j, const gadgets::Shape& s) {
  j["constraints_synthesized"] = s.constraints;
  j["constraints_prover"] = s.prover_constraints();  // + one `input · 1 = 0` row per input
  j["inputs"] = s.inputs;                            // ONE included
  j["aux"] = s.aux;
  j["nnz_a_synthesized"] = s.nnz_a;
  j["nnz_a_prover"] = s.prover_nnz_a();  // + one term per input row
  j["nnz_b"] = s.nnz_b;
  j["nnz_c"] = s.nnz_c;
  j["density"] = {{"a_aux", density_json(s.a_aux)},
                  {"b_input", density_json(s.b_input)},
                  {"b_aux", density_json(s.b_aux)}};
}

// The same as text rows.
inline std::vector<std::pair<std::string, std::string>> shape_rows(const gadgets::Shape& s) {
  return {
      {"constraints", grouped(s.constraints) + " synthesized, " + grouped(s.prover_constraints()) +
                          " as the prover counts them (+ one `input · 1 = 0` row per input)"},
      {"inputs", grouped(s.inputs) + " (ONE included)"},
      {"aux", grouped(s.aux)},
      {"non-zeros A", grouped(s.prover_nnz_a()) + " as the prover counts them (" + grouped(s.nnz_a) +
                          " synthesized + one per input row)"},
      {"non-zeros B", grouped(s.nnz_b)},
      {"non-zeros C", grouped(s.nnz_c)},
      {"density a_aux", grouped(s.a_aux.popcount()) + " of " + grouped(s.a_aux.size()) + " aux"},
      {"density b_input", grouped(s.b_input.popcount()) + " of " + grouped(s.b_input.size()) + " inputs"},
      {"density b_aux", grouped(s.b_aux.popcount()) + " of " + grouped(s.b_aux.size()) + " aux"},
  };
}

inline void print_rows(const std::string& title,
                       const std::vector<std::pair<std::string, std::string>>& rows) {
  std::size_t width = 0;
  for (const auto& [k, v] : rows) width = std::max(width, k.size());
  std::cout << title << "\n";
  for (const auto& [k, v] : rows)
    std::cout << "  " << std::left << std::setw(static_cast<int>(width) + 2) << k << v << "\n";
}

}  // namespace cuzk::cli
