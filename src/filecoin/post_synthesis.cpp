#include "filecoin/post_synthesis.hpp"

#include <tbb/parallel_for.h>

#include <deque>
#include <string>

#include "gadgets/check_cs.hpp"

namespace cuzk::filecoin {

namespace {

void check_sectors(const PostParams& params, std::span<const PostSectorProof> sectors) {
  if (sectors.size() != params.sectors)
    throw gadgets::SynthesisError(std::string(to_string(params.kind)) + " PoSt " + params.name + ": " +
                                  std::to_string(sectors.size()) + " sector proofs, the circuit has " +
                                  std::to_string(params.sectors));
  for (std::size_t i = 0; i < sectors.size(); ++i)
    check_post_sector_shape(params, sectors[i], "sector " + std::to_string(i));
}

}  // namespace

gadgets::Shape post_shape(const PostParams& params) {
  // A sector's part reads nothing of the circuit before it but ONE, and its shape does not depend on any
  // value: every sector's is sector 0's, numbered after the one before. So sector 0 is synthesized once and
  // its shape appended `sectors` times, renumbered (125 M constraints in a fraction of a second, where
  // synthesizing each of the 2,349 sectors took 80 s of two cores).
  gadgets::StructuralShapeCS whole;
  gadgets::StructuralShapeCS first(whole.next_input(), whole.next_aux());
  synthesize_post_sector(first, params, nullptr);
  gadgets::Shape part = first.shape();
  for (const auto* outer : {&part.outer_a_aux, &part.outer_b_aux})
    if (!outer->empty())
      throw gadgets::SynthesisError("PoSt circuit: a sector reads another's aux variables");
  for (std::uint32_t i : part.outer_b_input)
    if (i != 0) throw gadgets::SynthesisError("PoSt circuit: a sector reads another's inputs");
  gadgets::Shape shape = whole.shape();
  for (unsigned s = 0; s < params.sectors; ++s) {
    part.first_input = shape.first_input + shape.inputs;
    part.first_aux = shape.first_aux + shape.aux;
    shape.append(part);
  }
  return shape;
}

gadgets::PrecompiledCircuit post_record(const PostParams& params) {
  // Every sector recorded on its own, in parallel, at the numbers its index gives (each has sector 0's
  // counts), then joined in order: one sequential run's matrices (tests compare them), 2,349 sectors at once.
  gadgets::StructuralShapeCS one(1, 0);
  synthesize_post_sector(one, params, nullptr);
  gadgets::RecordCS<> cs;
  std::deque<gadgets::RecordCS<>> parts;  // stable addresses
  for (unsigned s = 0; s < params.sectors; ++s)
    parts.emplace_back(1 + s * one.num_inputs(), s * one.num_aux());
  tbb::parallel_for(0u, params.sectors,
                    [&](unsigned s) { synthesize_post_sector(parts[s], params, nullptr); });
  cs.append_all(parts);
  return std::move(cs).finish();
}

PostWitness post_witness(const PostParams& params, std::span<const PostSectorProof> sectors) {
  check_sectors(params, sectors);
  gadgets::WitnessCS cs;
  for (const PostSectorProof& s : sectors) synthesize_post_sector(cs, params, &s);
  PostWitness w;
  w.inputs = std::move(cs).take_inputs();
  w.aux = std::move(cs).take_aux();
  return w;
}

long post_first_unsatisfied(const PostParams& params, std::span<const PostSectorProof> sectors) {
  check_sectors(params, sectors);
  gadgets::CheckCS cs;
  for (const PostSectorProof& s : sectors) synthesize_post_sector(cs, params, &s);
  const auto failure = cs.first_failure();
  return failure ? static_cast<long>(*failure) : -1;
}

}  // namespace cuzk::filecoin
