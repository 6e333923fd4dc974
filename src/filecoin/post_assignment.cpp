#include "filecoin/post_assignment.hpp"

#include <tbb/parallel_for.h>

#include <map>
#include <memory>
#include <mutex>

#include "filecoin/lent_column.hpp"
#include "filecoin/partition_evaluation.hpp"
#include "filecoin/post_synthesis.hpp"

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
  if (sectors.size() != params.sectors)
    throw gadgets::SynthesisError(what + ": " + std::to_string(sectors.size()) +
                                  " sector proofs, the circuit has " + std::to_string(params.sectors));
  for (std::size_t i = 0; i < sectors.size(); ++i)
    check_post_sector_shape(params, sectors[i], what + ", sector " + std::to_string(i));
  const PostLayout& layout = post_layout(params);
  bp::Assignment w = lent_assignment(layout.inputs(), layout.aux(), layout.prover_rows(), lend);
  PartitionEvaluation eval(w, layout.rows(), what);
  tbb::parallel_for(std::uint64_t{0}, std::uint64_t{params.sectors}, [&](std::uint64_t s) {
    eval.run(1 + s * layout.sector_inputs, layout.sector_inputs, s * layout.sector_aux, layout.sector_aux,
             s * layout.sector_rows, layout.sector_rows, "sector " + std::to_string(s),
             [&](auto& cs) { synthesize_post_sector(cs, params, &sectors[s]); });
  });
  if (const auto row = eval.finish())
    throw UnsatisfiedCircuit(
        what + ": row " + std::to_string(*row) + " of " + std::to_string(layout.prover_rows()) +
        " does not hold (a·b ≠ c): the vanilla proofs do not satisfy the " + to_string(params.kind) +
        " PoSt circuit (a leaf, path or commitment that is "
        "not the sector's), so no proof of them can verify");
  const PostDensities& d = post_densities(params);
  w.a_aux = d.a_aux;
  w.b_inputs = d.b_inputs;
  w.b_aux = d.b_aux;
  return w;
}

}  // namespace cuzk::filecoin
