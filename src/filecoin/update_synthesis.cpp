#include "filecoin/update_synthesis.hpp"

#include <tbb/parallel_for.h>

#include <deque>
#include <map>
#include <mutex>
#include <string>

#include "gadgets/check_cs.hpp"

namespace cuzk::filecoin {

namespace {

// Every generated challenge bit must already be in A and B (its booleanity row) for challenge 0's part to
// stand for every other one's.
void check_bits_marked(const gadgets::Shape& top_shape, const UpdateTop& top) {
  for (const auto& bits : top.generated_bits)
    for (const Boolean& b : bits) {
      const std::uint32_t i = b.variable().index();
      if (!top_shape.a_aux.test(i) || !top_shape.b_aux.test(i))
        throw gadgets::SynthesisError(
            "SnapDeals shape: a challenge bit is not in A and B before the challenges");
    }
}

}  // namespace

const UpdateLayout& update_layout(const UpdateParams& params) {
  static std::mutex mutex;
  static std::map<std::uint64_t, UpdateLayout> cache;
  {
    const std::lock_guard lock(mutex);
    if (auto it = cache.find(params.sector_bytes); it != cache.end()) return it->second;
  }
  // The top part section by section (synthesize_update_top's order), noting where each starts.
  UpdateLayout layout;
  gadgets::StructuralShapeCS top_cs;
  UpdatePrefix prefix = synthesize_update_prefix(top_cs, params, nullptr);
  layout.prefix_aux = top_cs.num_aux();
  layout.prefix_rows = top_cs.num_constraints();
  std::vector<AllocatedNum> row = prefix.top.apex_leafs;
  while (row.size() > 1) {
    std::vector<AllocatedNum> next;
    for (std::size_t i = 0; i + 1 < row.size(); i += 2) {
      const std::uint64_t aux = top_cs.num_aux(), rows = top_cs.num_constraints();
      next.push_back(sha256_tree_node_circuit(top_cs, row[i], row[i + 1]));
      if (layout.apex_hash_rows == 0) layout.apex_hash_aux = top_cs.num_aux() - aux;
      if (layout.apex_hash_rows == 0) layout.apex_hash_rows = top_cs.num_constraints() - rows;
    }
    row = std::move(next);
  }
  synthesize_update_suffix(top_cs, params, prefix, row[0]);
  const UpdateTop& top = prefix.top;
  gadgets::StructuralShapeCS one(top_cs.next_input(), top_cs.next_aux());
  synthesize_update_challenge(one, params, top, 0, nullptr);
  if (one.num_inputs() != 0)
    throw gadgets::SynthesisError("SnapDeals circuit: a challenge allocated an input");
  layout.top_inputs = top_cs.num_inputs();
  layout.top_aux = top_cs.num_aux();
  layout.top_rows = top_cs.num_constraints();
  layout.challenge_aux = one.num_aux();
  layout.challenge_rows = one.num_constraints();
  layout.challenges = params.challenges;
  const std::lock_guard lock(mutex);
  return cache.emplace(params.sector_bytes, layout).first->second;
}

gadgets::Shape update_shape(const UpdateParams& params) {
  gadgets::StructuralShapeCS whole;
  const UpdateTop top = synthesize_update_top(whole, params, nullptr);
  check_bits_marked(whole.shape(), top);
  gadgets::StructuralShapeCS first(whole.next_input(), whole.next_aux());
  synthesize_update_challenge(first, params, top, 0, nullptr);
  gadgets::Shape part = first.shape();
  gadgets::Shape shape = whole.shape();
  for (unsigned i = 0; i < params.challenges; ++i) {
    part.first_input = shape.first_input + shape.inputs;
    part.first_aux = shape.first_aux + shape.aux;
    shape.append(part);
  }
  return shape;
}

gadgets::Shape update_shape_sequential(const UpdateParams& params) {
  gadgets::StructuralShapeCS cs;
  synthesize_update_partition(cs, params, nullptr);
  return cs.shape();
}

gadgets::PrecompiledCircuit update_record(const UpdateParams& params) {
  // The challenges recorded in parallel, each at its layout's numbers, then joined in order: the same
  // matrices as one sequential run (tests compare them), in a fraction of the time at 32 GiB.
  const UpdateLayout& layout = update_layout(params);
  gadgets::RecordCS<> cs;
  const UpdateTop top = synthesize_update_top(cs, params, nullptr);
  std::deque<gadgets::RecordCS<>> parts;  // stable addresses
  for (unsigned i = 0; i < params.challenges; ++i)
    parts.emplace_back(cs.next_input(), layout.top_aux + i * layout.challenge_aux);
  tbb::parallel_for(0u, params.challenges,
                    [&](unsigned i) { synthesize_update_challenge(parts[i], params, top, i, nullptr); });
  cs.append_all(parts);
  return std::move(cs).finish();
}

UpdateWitness update_witness(const UpdateParams& params, const UpdatePartitionProof& proof) {
  gadgets::WitnessCS cs;
  synthesize_update_partition(cs, params, &proof);
  UpdateWitness w;
  w.inputs = std::move(cs).take_inputs();
  w.aux = std::move(cs).take_aux();
  return w;
}

std::optional<std::uint64_t> update_first_unsatisfied(const UpdateParams& params,
                                                      const UpdatePartitionProof& proof) {
  gadgets::CheckCS cs;
  synthesize_update_partition(cs, params, &proof);
  const auto failure = cs.first_failure();
  if (!failure) return std::nullopt;
  return static_cast<std::uint64_t>(*failure);
}

}  // namespace cuzk::filecoin
