#include "filecoin/porep_synthesis.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <deque>
#include <string>

#include "filecoin/porep_circuit.hpp"
#include "gadgets/check_cs.hpp"

namespace cuzk::filecoin {

namespace {

// Runs challenge 0 after the top part, then challenges 1.. in parallel at the numbers challenge 0's counts
// give, and appends them in order. Part must be constructible from (first_input, first_aux) and offer
// next_input(), next_aux(); `join(whole, part)` appends.
template <class Part, class Whole, class Join>
void synthesize_challenges(Whole& whole, const PorepParams& params, const PorepCommitments& top,
                           const PorepPartitionProof* proof, Join&& join) {
  const unsigned n = params.challenges_per_partition;
  const std::uint64_t first_input = whole.next_input(), first_aux = whole.next_aux();
  std::deque<Part> parts;  // stable addresses
  parts.emplace_back(first_input, first_aux);
  synthesize_porep_challenge(parts[0], params, top, proof ? &proof->challenges[0] : nullptr);
  const std::uint64_t inputs_each = parts[0].next_input() - first_input;
  const std::uint64_t aux_each = parts[0].next_aux() - first_aux;
  for (unsigned i = 1; i < n; ++i)
    parts.emplace_back(first_input + i * inputs_each, first_aux + i * aux_each);
  tbb::parallel_for(1u, n, [&](unsigned i) {
    synthesize_porep_challenge(parts[i], params, top, proof ? &proof->challenges[i] : nullptr);
  });
  for (unsigned i = 0; i < n; ++i) {
    if (parts[i].next_input() != first_input + (i + 1) * inputs_each ||
        parts[i].next_aux() != first_aux + (i + 1) * aux_each)
      throw gadgets::SynthesisError("PoRep circuit: challenge " + std::to_string(i) +
                                    " allocated a different number of variables than challenge 0");
    join(whole, parts[i]);
  }
}

}  // namespace

gadgets::Shape porep_shape(const PorepParams& params) {
  gadgets::ShapeCS cs;
  const PorepCommitments top = synthesize_porep_top(cs, nullptr);
  synthesize_challenges<gadgets::ShapeCS>(cs, params, top, nullptr,
                                          [](gadgets::ShapeCS& w, gadgets::ShapeCS& p) { w.append(p); });
  return cs.shape();
}

gadgets::PrecompiledCircuit porep_record(const PorepParams& params) {
  gadgets::RecordCS<> cs;
  const PorepCommitments top = synthesize_porep_top(cs, nullptr);
  synthesize_challenges<gadgets::RecordCS<>>(
      cs, params, top, nullptr,
      [](gadgets::RecordCS<>& w, gadgets::RecordCS<>& p) { w.append(std::move(p)); });
  return std::move(cs).finish();
}

PorepAssignment porep_witness(const PorepParams& params, const PorepPartitionProof& proof) {
  check_porep_proof_shape(params, proof);
  // The top part and challenge 0 grow their own vectors; their counts size the arrays, and every other
  // challenge writes its window of them in place.
  gadgets::WitnessCS top_cs;
  const PorepCommitments top = synthesize_porep_top(top_cs, &proof);
  gadgets::WitnessCS first(top_cs.next_input(), top_cs.next_aux());
  synthesize_porep_challenge(first, params, top, &proof.challenges[0]);
  const std::uint64_t inputs_each = first.num_inputs(), aux_each = first.num_aux();
  const unsigned n = params.challenges_per_partition;

  PorepAssignment out;
  out.inputs.resize(top_cs.num_inputs() + n * inputs_each);
  out.aux.resize(top_cs.num_aux() + n * aux_each);
  std::copy(top_cs.input_values().begin(), top_cs.input_values().end(), out.inputs.begin());
  std::copy(top_cs.aux_values().begin(), top_cs.aux_values().end(), out.aux.begin());
  std::copy(first.input_values().begin(), first.input_values().end(),
            out.inputs.begin() + static_cast<std::ptrdiff_t>(top_cs.num_inputs()));
  std::copy(first.aux_values().begin(), first.aux_values().end(),
            out.aux.begin() + static_cast<std::ptrdiff_t>(top_cs.num_aux()));
  tbb::parallel_for(1u, n, [&](unsigned i) {
    const std::uint64_t in_at = top_cs.num_inputs() + i * inputs_each,
                        aux_at = top_cs.num_aux() + i * aux_each;
    gadgets::WitnessSlice slice(std::span<Fr>(out.inputs).subspan(in_at, inputs_each), in_at,
                                std::span<Fr>(out.aux).subspan(aux_at, aux_each), aux_at);
    synthesize_porep_challenge(slice, params, top, &proof.challenges[i]);
    if (slice.inputs_written() != inputs_each || slice.aux_written() != aux_each)
      throw gadgets::SynthesisError("PoRep circuit: challenge " + std::to_string(i) +
                                    " allocated fewer variables than challenge 0");
  });
  return out;
}

std::optional<std::uint64_t> porep_first_unsatisfied_row(const PorepParams& params,
                                                         const PorepPartitionProof& proof) {
  check_porep_proof_shape(params, proof);
  gadgets::CheckCS top_cs;
  const PorepCommitments top = synthesize_porep_top(top_cs, &proof);
  if (top_cs.first_failure()) return top_cs.first_failure();
  const unsigned n = params.challenges_per_partition;
  std::deque<gadgets::CheckCS> parts;
  parts.emplace_back(&top_cs, top_cs.next_input(), top_cs.next_aux());
  synthesize_porep_challenge(parts[0], params, top, &proof.challenges[0]);
  const std::uint64_t inputs_each = parts[0].next_input() - top_cs.next_input();
  const std::uint64_t aux_each = parts[0].next_aux() - top_cs.next_aux();
  for (unsigned i = 1; i < n; ++i)
    parts.emplace_back(&top_cs, top_cs.next_input() + i * inputs_each, top_cs.next_aux() + i * aux_each);
  tbb::parallel_for(
      1u, n, [&](unsigned i) { synthesize_porep_challenge(parts[i], params, top, &proof.challenges[i]); });
  std::uint64_t rows = top_cs.num_constraints();
  for (const gadgets::CheckCS& p : parts) {
    if (p.first_failure()) return rows + *p.first_failure();
    rows += p.num_constraints();
  }
  return std::nullopt;
}

}  // namespace cuzk::filecoin
