#include "gadgets/constraint_system.hpp"

#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <limits>

namespace cuzk::gadgets {

void Shape::append(const Shape& part) {
  if (part.first_input != first_input + inputs || part.first_aux != first_aux + aux)
    throw SynthesisError("shape: a part must be numbered right after what it is appended to");
  auto take = [](Bitmap& bits, std::uint64_t first, const Bitmap& part_bits,
                 const std::vector<std::uint32_t>& outer, std::vector<std::uint32_t>& own_outer) {
    bits.append(part_bits);
    for (std::uint32_t i : outer)
      if (i >= first)
        bits.set(i - first);
      else
        own_outer.push_back(i);
  };
  take(a_aux, first_aux, part.a_aux, part.outer_a_aux, outer_a_aux);
  take(b_aux, first_aux, part.b_aux, part.outer_b_aux, outer_b_aux);
  take(b_input, first_input, part.b_input, part.outer_b_input, outer_b_input);
  inputs += part.inputs;
  aux += part.aux;
  constraints += part.constraints;
  nnz_a += part.nnz_a, nnz_b += part.nnz_b, nnz_c += part.nnz_c;
}

r1cs::CsrSystem<Fr> PrecompiledCircuit::with_input_rows() const {
  r1cs::CsrSystem<Fr> out = system;
  for (std::uint32_t i = 0; i <= system.n_public; ++i) {
    out.a.add(i, Fr::one());
    out.a.end_row();
    out.b.end_row();
    out.c.end_row();
  }
  return out;
}

std::optional<std::size_t> first_unsatisfied_row(const r1cs::CsrSystem<Fr>& system,
                                                 std::span<const Fr> inputs, std::span<const Fr> aux) {
  const std::size_t n_in = inputs.size();
  if (n_in + aux.size() != system.n_vars || n_in != std::size_t{system.n_public} + 1)
    throw SynthesisError("satisfaction check: the assignment has " + std::to_string(n_in) + " inputs and " +
                         std::to_string(aux.size()) + " aux values; the circuit has " +
                         std::to_string(system.n_public + 1) + " inputs and " +
                         std::to_string(system.n_vars) + " variables");
  auto value = [&](std::uint32_t col) { return col < n_in ? inputs[col] : aux[col - n_in]; };
  auto row_value = [&](const r1cs::Csr<Fr>& m, std::size_t r) {
    Fr acc = Fr::zero();
    for (std::uint64_t k = m.row_start[r]; k < m.row_start[r + 1]; ++k) acc += value(m.col[k]) * m.val[k];
    return acc;
  };
  constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();
  const std::size_t first = tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, system.a.rows(), 1 << 14), kNone,
      [&](const tbb::blocked_range<std::size_t>& range, std::size_t found) {
        for (std::size_t r = range.begin(); r != range.end() && r < found; ++r)
          if (row_value(system.a, r) * row_value(system.b, r) != row_value(system.c, r)) return r;
        return found;
      },
      [](std::size_t x, std::size_t y) { return std::min(x, y); });
  if (first == kNone) return std::nullopt;
  return first;
}

}  // namespace cuzk::gadgets
