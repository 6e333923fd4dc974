#include "filecoin/update_assignment.hpp"

#include <tbb/parallel_for.h>

#include <map>
#include <memory>
#include <mutex>

#include "filecoin/lent_column.hpp"
#include "filecoin/partition_evaluation.hpp"
#include "filecoin/update_synthesis.hpp"

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
  check_update_proof_shape(params, proof);
  const UpdateLayout& layout = update_layout(params);
  bp::Assignment w = lent_assignment(layout.inputs(), layout.aux(), layout.prover_rows(), lend);
  PartitionEvaluation eval(w, layout.rows(), what);
  // The top part: its prefix, then the apex tree a row at a time, each row's hashes at once (127 SHA-256
  // hashes at 32 GiB, 7 % of the partition's rows: one after another they took longer than every challenge
  // on 16 cores), then its suffix.
  UpdatePrefix prefix;
  eval.run(1, layout.top_inputs - 1, 0, layout.prefix_aux, 0, layout.prefix_rows, "the top part's prefix",
           [&](auto& cs) { prefix = synthesize_update_prefix(cs, params, &proof); });
  std::vector<AllocatedNum> row = prefix.top.apex_leafs;
  std::uint64_t hash = 0;  // the apex hashes before this row
  while (row.size() > 1) {
    std::vector<AllocatedNum> next(row.size() / 2);
    tbb::parallel_for(std::size_t{0}, next.size(), [&](std::size_t i) {
      eval.run(layout.inputs(), 0, layout.prefix_aux + (hash + i) * layout.apex_hash_aux,
               layout.apex_hash_aux, layout.prefix_rows + (hash + i) * layout.apex_hash_rows,
               layout.apex_hash_rows, "an apex hash",
               [&](auto& cs) { next[i] = sha256_tree_node_circuit(cs, row[2 * i], row[2 * i + 1]); });
    });
    hash += next.size();
    row = std::move(next);
  }
  const std::uint64_t aux_at = layout.prefix_aux + hash * layout.apex_hash_aux,
                      row_at = layout.prefix_rows + hash * layout.apex_hash_rows;
  eval.run(layout.inputs(), 0, aux_at, layout.top_aux - aux_at, row_at, layout.top_rows - row_at,
           "the top part's suffix", [&](auto& cs) { synthesize_update_suffix(cs, params, prefix, row[0]); });
  const UpdateTop& top = prefix.top;
  tbb::parallel_for(0u, params.challenges, [&](unsigned i) {
    eval.run(layout.inputs(), 0, layout.top_aux + i * layout.challenge_aux, layout.challenge_aux,
             layout.top_rows + i * layout.challenge_rows, layout.challenge_rows,
             "challenge " + std::to_string(i),
             [&](auto& cs) { synthesize_update_challenge(cs, params, top, i, &proof.challenges[i]); });
  });
  if (const auto row_failed = eval.finish())
    throw UnsatisfiedCircuit(
        what + ": row " + std::to_string(*row_failed) + " of " + std::to_string(layout.prover_rows()) +
        " does not hold (a·b ≠ c): the vanilla proof does not satisfy the SnapDeals circuit "
        "(a leaf, path or commitment that is not the sector's), so no proof of it can verify");
  const UpdateDensities& d = update_densities(params);
  w.a_aux = d.a_aux;
  w.b_inputs = d.b_inputs;
  w.b_aux = d.b_aux;
  return w;
}

}  // namespace cuzk::filecoin
