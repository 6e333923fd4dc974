#include "filecoin/porep_assignment.hpp"

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "filecoin/lent_column.hpp"
#include "filecoin/partition_evaluation.hpp"
#include "filecoin/porep_synthesis.hpp"

namespace cuzk::filecoin {

namespace bp = groth16::bellperson;

const PorepDensities& porep_densities(const PorepParams& params) {
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const PorepDensities>> cache;
  const std::string key = params.name + "/" + std::to_string(params.nodes) + "/" +
                          std::to_string(params.layers) + "/" +
                          std::to_string(params.challenges_per_partition);
  {
    const std::lock_guard lock(mutex);
    if (auto it = cache.find(key); it != cache.end()) return *it->second;
  }
  const gadgets::Shape shape = porep_shape(params);
  auto d = std::make_shared<PorepDensities>(
      PorepDensities{to_density(shape.a_aux), to_density(shape.b_input), to_density(shape.b_aux)});
  const std::lock_guard lock(mutex);
  return *cache.emplace(key, std::move(d)).first->second;  // a racing thread's copy is as good
}

namespace {

bp::Assignment evaluate(const PorepParams& params, const PorepPartitionProof& proof,
                        const io::bellperson_assignment::Lend& lend,
                        std::optional<std::uint64_t>& unsatisfied) {
  const PorepLayout& layout = porep_layout(params);
  bp::Assignment w = lent_assignment(layout.inputs(), layout.aux(), layout.prover_rows(), lend);
  unsatisfied = porep_evaluate(params, proof, {w.inputs, w.aux, w.a, w.b, w.c});
  const PorepDensities& d = porep_densities(params);
  w.a_aux = d.a_aux;
  w.b_inputs = d.b_inputs;
  w.b_aux = d.b_aux;
  return w;
}

[[noreturn]] void throw_unsatisfied(const std::string& what, std::uint64_t row, std::uint64_t rows) {
  throw UnsatisfiedCircuit(what + ": row " + std::to_string(row) + " of " + std::to_string(rows) +
                           " does not hold (a·b ≠ c): the vanilla proof does not satisfy the PoRep circuit "
                           "(a label, path, leaf or commitment that is not the sector's), so no proof of it "
                           "can verify");
}

}  // namespace

bp::Assignment porep_prover_assignment(const PorepParams& params, const PorepPartitionProof& proof,
                                       const io::bellperson_assignment::Lend& lend) {
  std::optional<std::uint64_t> unsatisfied;
  return evaluate(params, proof, lend, unsatisfied);
}

bp::Assignment checked_porep_prover_assignment(const PorepParams& params, const PorepPartitionProof& proof,
                                               const std::string& what,
                                               const io::bellperson_assignment::Lend& lend) {
  std::optional<std::uint64_t> unsatisfied;
  bp::Assignment w = evaluate(params, proof, lend, unsatisfied);
  if (unsatisfied) throw_unsatisfied(what, *unsatisfied, w.a.size());
  return w;
}

void check_porep_rows(const bp::Assignment& w, const std::string& what) {
  if (const auto row = porep_first_unsatisfied_abc(w.a, w.b, w.c)) throw_unsatisfied(what, *row, w.a.size());
}

}  // namespace cuzk::filecoin
