#include "filecoin/update_assignment.hpp"

#include <tbb/parallel_for.h>

#include <atomic>
#include <map>
#include <memory>
#include <mutex>

#include "filecoin/lent_column.hpp"
#include "filecoin/update_synthesis.hpp"
#include "gadgets/evaluation_slice.hpp"

namespace cuzk::filecoin {

namespace bp = groth16::bellperson;

const UpdateDensities& update_densities(const UpdateParams& params) {
  static std::mutex mutex;
  static std::map<std::uint64_t, std::shared_ptr<const UpdateDensities>> cache;
  {
    const std::lock_guard lock(mutex);
    if (auto it = cache.find(params.sector_bytes); it != cache.end()) return *it->second;
  }
  const gadgets::Shape shape = update_shape(params);
  auto d = std::make_shared<const UpdateDensities>(
      UpdateDensities{to_density(shape.a_aux), to_density(shape.b_input), to_density(shape.b_aux)});
  const std::lock_guard lock(mutex);
  return *cache.emplace(params.sector_bytes, std::move(d)).first->second;  // a racing thread's is as good
}

bp::Assignment checked_update_prover_assignment(const UpdateParams& params, const UpdatePartitionProof& proof,
                                                const std::string& what,
                                                const io::bellperson_assignment::Lend& lend) {
  using io::bellperson_assignment::Part;
  check_update_proof_shape(params, proof);
  const UpdateLayout& layout = update_layout(params);
  const std::uint64_t rows = layout.prover_rows();
  std::optional<io::bellperson_assignment::LentMemory> abc, aux;
  if (lend) abc = lend(Part::kAbc, 3 * rows);
  if (lend) aux = lend(Part::kAux, layout.aux());
  bp::Assignment w;
  w.a = column_in(abc, 0, rows);
  w.b = column_in(abc, rows, rows);
  w.c = column_in(abc, 2 * rows, rows);
  w.aux = column_in(aux, 0, layout.aux());
  w.inputs.resize(layout.inputs());
  w.inputs[0] = Fr::one();
  const std::span<Fr> inputs(w.inputs), aux_values(w.aux), a(w.a), b(w.b), c(w.c);
  const gadgets::VariableValues values{inputs.data(), aux_values.data()};
  auto part = [&](std::uint64_t first_input, std::uint64_t input_count, std::uint64_t first_aux,
                  std::uint64_t aux_count, std::uint64_t first_row, std::uint64_t row_count) {
    return gadgets::EvaluationSlice(
        gadgets::WitnessSlice(inputs.subspan(first_input, input_count), first_input,
                              aux_values.subspan(first_aux, aux_count), first_aux),
        a.subspan(first_row, row_count), b.subspan(first_row, row_count), c.subspan(first_row, row_count));
  };
  auto check_written = [&](const gadgets::EvaluationSlice& cs, std::uint64_t input_count,
                           std::uint64_t aux_count, std::uint64_t row_count, const std::string& part_name) {
    if (cs.inputs_written() != input_count || cs.aux_written() != aux_count || cs.rows_written() != row_count)
      throw gadgets::SynthesisError(what + ": " + part_name + " allocated or enforced other than its shape");
  };
  constexpr std::uint64_t kNone = ~std::uint64_t{0};
  std::atomic<std::uint64_t> first_unsatisfied{kNone};
  auto note_unsatisfied = [&](const gadgets::EvaluationSlice& cs, std::uint64_t first_row) {
    if (const auto row = cs.first_unsatisfied()) {
      std::uint64_t seen = first_unsatisfied.load();
      while (first_row + *row < seen && !first_unsatisfied.compare_exchange_weak(seen, first_row + *row)) {
      }
    }
  };
  // The top part: its prefix, then the apex tree a row at a time, each row's hashes at once (127 SHA-256
  // hashes at 32 GiB, 7 % of the partition's rows: one after another they took longer than every challenge
  // on 16 cores), then its suffix.
  UpdatePrefix prefix;
  {
    const gadgets::EvaluationScope scope(&values);
    gadgets::EvaluationSlice cs = part(1, layout.top_inputs - 1, 0, layout.prefix_aux, 0, layout.prefix_rows);
    prefix = synthesize_update_prefix(cs, params, &proof);
    check_written(cs, layout.top_inputs - 1, layout.prefix_aux, layout.prefix_rows, "the top part's prefix");
    note_unsatisfied(cs, 0);
  }
  std::vector<AllocatedNum> row = prefix.top.apex_leafs;
  std::uint64_t hash = 0;  // the apex hashes before this row
  while (row.size() > 1) {
    std::vector<AllocatedNum> next(row.size() / 2);
    tbb::parallel_for(std::size_t{0}, next.size(), [&](std::size_t i) {
      const gadgets::EvaluationScope scope(&values);
      const std::uint64_t first_row = layout.prefix_rows + (hash + i) * layout.apex_hash_rows;
      gadgets::EvaluationSlice cs =
          part(layout.inputs(), 0, layout.prefix_aux + (hash + i) * layout.apex_hash_aux,
               layout.apex_hash_aux, first_row, layout.apex_hash_rows);
      next[i] = sha256_tree_node_circuit(cs, row[2 * i], row[2 * i + 1]);
      check_written(cs, 0, layout.apex_hash_aux, layout.apex_hash_rows, "an apex hash");
      note_unsatisfied(cs, first_row);
    });
    hash += next.size();
    row = std::move(next);
  }
  {
    const gadgets::EvaluationScope scope(&values);
    const std::uint64_t aux_at = layout.prefix_aux + hash * layout.apex_hash_aux,
                        row_at = layout.prefix_rows + hash * layout.apex_hash_rows;
    gadgets::EvaluationSlice cs =
        part(layout.inputs(), 0, aux_at, layout.top_aux - aux_at, row_at, layout.top_rows - row_at);
    synthesize_update_suffix(cs, params, prefix, row[0]);
    check_written(cs, 0, layout.top_aux - aux_at, layout.top_rows - row_at, "the top part's suffix");
    note_unsatisfied(cs, row_at);
  }
  const UpdateTop& top = prefix.top;
  tbb::parallel_for(0u, params.challenges, [&](unsigned i) {
    const gadgets::EvaluationScope scope(&values);
    const std::uint64_t first_row = layout.top_rows + i * layout.challenge_rows;
    gadgets::EvaluationSlice cs = part(layout.inputs(), 0, layout.top_aux + i * layout.challenge_aux,
                                       layout.challenge_aux, first_row, layout.challenge_rows);
    synthesize_update_challenge(cs, params, top, i, &proof.challenges[i]);
    check_written(cs, 0, layout.challenge_aux, layout.challenge_rows, "challenge " + std::to_string(i));
    note_unsatisfied(cs, first_row);
  });
  // bellperson's input rows: input_i · 0 = 0, after the circuit's (A holds the input, B and C nothing).
  for (std::uint64_t i = 0; i < layout.inputs(); ++i) {
    a[layout.rows() + i] = inputs[i];
    b[layout.rows() + i] = Fr::zero();
    c[layout.rows() + i] = Fr::zero();
  }
  if (const std::uint64_t row = first_unsatisfied.load(); row != kNone)
    throw UnsatisfiedCircuit(
        what + ": row " + std::to_string(row) + " of " + std::to_string(rows) +
        " does not hold (a·b ≠ c): the vanilla proof does not satisfy the SnapDeals circuit "
        "(a leaf, path or commitment that is not the sector's), so no proof of it can verify");
  const UpdateDensities& d = update_densities(params);
  w.a_aux = d.a_aux;
  w.b_inputs = d.b_inputs;
  w.b_aux = d.b_aux;
  return w;
}

}  // namespace cuzk::filecoin
