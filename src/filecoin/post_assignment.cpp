#include "filecoin/post_assignment.hpp"

#include <tbb/parallel_for.h>

#include <atomic>
#include <map>
#include <memory>
#include <mutex>

#include "filecoin/lent_column.hpp"
#include "filecoin/post_synthesis.hpp"
#include "gadgets/evaluation_slice.hpp"

namespace cuzk::filecoin {

namespace bp = groth16::bellperson;

namespace {

std::string cache_key(const PostParams& p) {
  return std::string(to_string(p.kind)) + "/" + p.name + "/" + std::to_string(p.sectors) + "/" +
         std::to_string(p.challenges);
}

// A per-parameter-set cache of something made from the parameters (a racing thread's copy is as good).
template <class T, class Make>
const T& cached(const PostParams& params, Make make) {
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const T>> cache;
  const std::string key = cache_key(params);
  {
    const std::lock_guard lock(mutex);
    if (auto it = cache.find(key); it != cache.end()) return *it->second;
  }
  auto made = std::make_shared<const T>(make());
  const std::lock_guard lock(mutex);
  return *cache.emplace(key, std::move(made)).first->second;
}

}  // namespace

const PostLayout& post_layout(const PostParams& params) {
  return cached<PostLayout>(params, [&] {
    gadgets::StructuralShapeCS one(1, 0);  // a sector's part, right after ONE
    synthesize_post_sector(one, params, nullptr);
    return PostLayout{one.num_inputs(), one.num_aux(), one.num_constraints(), params.sectors};
  });
}

const PostDensities& post_densities(const PostParams& params) {
  return cached<PostDensities>(params, [&] {
    const gadgets::Shape shape = post_shape(params);
    return PostDensities{to_density(shape.a_aux), to_density(shape.b_input), to_density(shape.b_aux)};
  });
}

bp::Assignment checked_post_prover_assignment(const PostParams& params,
                                              std::span<const PostSectorProof> sectors,
                                              const std::string& what,
                                              const io::bellperson_assignment::Lend& lend) {
  using io::bellperson_assignment::Part;
  if (sectors.size() != params.sectors)
    throw gadgets::SynthesisError(what + ": " + std::to_string(sectors.size()) +
                                  " sector proofs, the circuit has " + std::to_string(params.sectors));
  for (std::size_t i = 0; i < sectors.size(); ++i)
    check_post_sector_shape(params, sectors[i], what + ", sector " + std::to_string(i));
  const PostLayout& layout = post_layout(params);
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
  constexpr std::uint64_t kNone = ~std::uint64_t{0};
  std::atomic<std::uint64_t> first_unsatisfied{kNone};
  tbb::parallel_for(std::uint64_t{0}, std::uint64_t{params.sectors}, [&](std::uint64_t s) {
    const std::uint64_t first_input = 1 + s * layout.sector_inputs, first_aux = s * layout.sector_aux,
                        first_row = s * layout.sector_rows;
    const gadgets::EvaluationScope scope(&values);
    gadgets::EvaluationSlice cs(
        gadgets::WitnessSlice(inputs.subspan(first_input, layout.sector_inputs), first_input,
                              aux_values.subspan(first_aux, layout.sector_aux), first_aux),
        a.subspan(first_row, layout.sector_rows), b.subspan(first_row, layout.sector_rows),
        c.subspan(first_row, layout.sector_rows));
    synthesize_post_sector(cs, params, &sectors[s]);
    if (cs.inputs_written() != layout.sector_inputs || cs.aux_written() != layout.sector_aux ||
        cs.rows_written() != layout.sector_rows)
      throw gadgets::SynthesisError(what + ": sector " + std::to_string(s) +
                                    " allocated or enforced other than its shape");
    if (const auto row = cs.first_unsatisfied()) {
      std::uint64_t seen = first_unsatisfied.load();
      while (first_row + *row < seen && !first_unsatisfied.compare_exchange_weak(seen, first_row + *row)) {
      }
    }
  });
  // bellperson's input rows: input_i · 0 = 0, after the circuit's (A holds the input, B and C nothing).
  for (std::uint64_t i = 0; i < layout.inputs(); ++i) {
    a[layout.rows() + i] = inputs[i];
    b[layout.rows() + i] = Fr::zero();
    c[layout.rows() + i] = Fr::zero();
  }
  if (const std::uint64_t row = first_unsatisfied.load(); row != kNone)
    throw UnsatisfiedCircuit(what + ": row " + std::to_string(row) + " of " + std::to_string(rows) +
                             " does not hold (a·b ≠ c): the vanilla proofs do not satisfy the " +
                             to_string(params.kind) +
                             " PoSt circuit (a leaf, path or commitment that is "
                             "not the sector's), so no proof of them can verify");
  const PostDensities& d = post_densities(params);
  w.a_aux = d.a_aux;
  w.b_inputs = d.b_inputs;
  w.b_aux = d.b_aux;
  return w;
}

}  // namespace cuzk::filecoin
