#include "filecoin/porep_synthesis.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>

#include <algorithm>
#include <atomic>
#include <deque>
#include <map>
#include <mutex>
#include <string>

#include "filecoin/partition_evaluation.hpp"
#include "filecoin/porep_circuit.hpp"
#include "gadgets/check_cs.hpp"
#include "gadgets/evaluation_slice.hpp"

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

template <class ShapeCS>
gadgets::Shape shape_with(const PorepParams& params) {
  ShapeCS cs;
  const PorepCommitments top = synthesize_porep_top(cs, nullptr);
  synthesize_challenges<ShapeCS>(cs, params, top, nullptr, [](ShapeCS& w, ShapeCS& p) { w.append(p); });
  return cs.shape();
}

}  // namespace

gadgets::Shape porep_shape(const PorepParams& params) {
  return shape_with<gadgets::StructuralShapeCS>(params);
}
gadgets::Shape porep_shape_with_coefficients(const PorepParams& params) {
  return shape_with<gadgets::ShapeCS>(params);
}

gadgets::PrecompiledCircuit porep_record(const PorepParams& params) {
  gadgets::RecordCS<> cs;
  const PorepCommitments top = synthesize_porep_top(cs, nullptr);
  synthesize_challenges<gadgets::RecordCS<>>(
      cs, params, top, nullptr,
      [](gadgets::RecordCS<>& w, gadgets::RecordCS<>& p) { w.append(std::move(p)); });
  return std::move(cs).finish();
}

const PorepLayout& porep_layout(const PorepParams& params) {
  static std::mutex mutex;
  static std::map<std::string, PorepLayout> cache;  // few parameter sets per process
  const std::string key =
      params.name + "/" + std::to_string(params.nodes) + "/" + std::to_string(params.layers) + "/" +
      std::to_string(params.challenges_per_partition) + "/" + std::to_string(params.tree.base) +
      std::to_string(params.tree.sub) + std::to_string(params.tree.top);
  {
    const std::lock_guard<std::mutex> lock(mutex);
    if (auto it = cache.find(key); it != cache.end()) return it->second;
  }
  gadgets::StructuralShapeCS top_cs;
  const PorepCommitments top = synthesize_porep_top(top_cs, nullptr);
  gadgets::StructuralShapeCS one(top_cs.next_input(), top_cs.next_aux());
  // synthesize_porep_challenge, a section at a time, noting where each starts and what it adds.
  PorepLayout layout;
  PorepChallengeState state;
  state.labels.resize(params.layers);
  for (const PorepSection& section : porep_sections(params)) {
    PorepLayout::Section s{section, one.num_inputs(), 0, one.num_aux(), 0, one.num_constraints(), 0};
    synthesize_porep_section(one, params, top, nullptr, section, state);
    s.inputs = one.num_inputs() - s.input_at;
    s.aux = one.num_aux() - s.aux_at;
    s.rows = one.num_constraints() - s.row_at;
    layout.stages[section.stage()].push_back(static_cast<unsigned>(layout.sections.size()));
    layout.sections.push_back(s);
  }
  layout.top_inputs = top_cs.num_inputs();
  layout.top_aux = top_cs.num_aux();
  layout.top_rows = top_cs.num_constraints();
  layout.challenge_inputs = one.num_inputs();
  layout.challenge_aux = one.num_aux();
  layout.challenge_rows = one.num_constraints();
  layout.challenges = params.challenges_per_partition;
  const std::lock_guard<std::mutex> lock(mutex);
  return cache.emplace(key, std::move(layout)).first->second;
}

namespace {

// Every challenge's sections at once, stage by stage within a challenge (a stage's sections read what the
// earlier stages allocated): `run(challenge, section, state)` synthesizes one section in a constraint
// system of its own at the section's numbers.
template <class Run>
void synthesize_sections(const PorepParams& params, const PorepLayout& layout, Run&& run) {
  tbb::parallel_for(0u, layout.challenges, [&](unsigned i) {
    PorepChallengeState state;
    state.labels.resize(params.layers);
    for (const std::vector<unsigned>& stage : layout.stages)
      tbb::parallel_for(
          tbb::blocked_range<std::size_t>(0, stage.size(), 1),
          [&](const tbb::blocked_range<std::size_t>& range) {
            for (std::size_t k = range.begin(); k < range.end(); ++k)
              run(i, layout.sections[stage[k]], state);
          },
          tbb::simple_partitioner());
  });
}

}  // namespace

PorepAssignment porep_witness(const PorepParams& params, const PorepPartitionProof& proof) {
  check_porep_proof_shape(params, proof);
  const PorepLayout& layout = porep_layout(params);
  PorepAssignment out;
  out.inputs.resize(layout.inputs());  // not zeroed: every value is written below
  out.aux.resize(layout.aux());
  auto slice = [&](std::uint64_t first_input, std::uint64_t inputs, std::uint64_t first_aux,
                   std::uint64_t aux) {
    return gadgets::WitnessSlice(std::span<Fr>(out.inputs).subspan(first_input, inputs), first_input,
                                 std::span<Fr>(out.aux).subspan(first_aux, aux), first_aux);
  };
  out.inputs[0] = Fr::one();
  gadgets::WitnessSlice top_cs = slice(1, layout.top_inputs - 1, 0, layout.top_aux);
  const PorepCommitments top = synthesize_porep_top(top_cs, &proof);
  if (top_cs.inputs_written() != layout.top_inputs - 1 || top_cs.aux_written() != layout.top_aux)
    throw gadgets::SynthesisError("PoRep circuit: the top part allocated fewer variables than its shape");
  synthesize_sections(
      params, layout, [&](unsigned i, const PorepLayout::Section& s, PorepChallengeState& state) {
        const std::uint64_t in_at = layout.top_inputs + i * layout.challenge_inputs + s.input_at;
        const std::uint64_t aux_at = layout.top_aux + i * layout.challenge_aux + s.aux_at;
        gadgets::WitnessSlice cs = slice(in_at, s.inputs, aux_at, s.aux);
        synthesize_porep_section(cs, params, top, &proof.challenges[i], s.section, state);
        if (cs.inputs_written() != s.inputs || cs.aux_written() != s.aux)
          throw gadgets::SynthesisError("PoRep circuit: a section of challenge " + std::to_string(i) +
                                        " allocated fewer variables than its shape");
      });
  return out;
}

std::optional<std::uint64_t> porep_evaluate(const PorepParams& params, const PorepPartitionProof& proof,
                                            const PorepEvaluation& out) {
  check_porep_proof_shape(params, proof);
  const PorepLayout& layout = porep_layout(params);
  auto sized = [](std::span<Fr> s, std::uint64_t n, const char* what) {
    if (s.size() != n)
      throw gadgets::SynthesisError(std::string("PoRep evaluation: the ") + what + " array holds " +
                                    std::to_string(s.size()) + " values, not " + std::to_string(n));
  };
  sized(out.inputs, layout.inputs(), "inputs");
  sized(out.aux, layout.aux(), "aux");
  sized(out.a, layout.prover_rows(), "a");
  sized(out.b, layout.prover_rows(), "b");
  sized(out.c, layout.prover_rows(), "c");
  out.inputs[0] = Fr::one();
  PartitionEvaluation eval(out.inputs, out.aux, out.a, out.b, out.c, layout.rows(), "PoRep evaluation");
  PorepCommitments top;
  eval.run(1, layout.top_inputs - 1, 0, layout.top_aux, 0, layout.top_rows, "the top part",
           [&](auto& cs) { top = synthesize_porep_top(cs, &proof); });
  synthesize_sections(
      params, layout, [&](unsigned i, const PorepLayout::Section& s, PorepChallengeState& state) {
        eval.run(layout.top_inputs + i * layout.challenge_inputs + s.input_at, s.inputs,
                 layout.top_aux + i * layout.challenge_aux + s.aux_at, s.aux,
                 layout.top_rows + i * layout.challenge_rows + s.row_at, s.rows,
                 "a section of challenge " + std::to_string(i), [&](auto& cs) {
                   synthesize_porep_section(cs, params, top, &proof.challenges[i], s.section, state);
                 });
      });
  return eval.finish();  // the input rows (input · 0 = 0) always hold
}

std::optional<std::uint64_t> porep_first_unsatisfied_abc(std::span<const Fr> a, std::span<const Fr> b,
                                                         std::span<const Fr> c) {
  if (a.size() != b.size() || a.size() != c.size())
    throw gadgets::SynthesisError("a, b and c have different lengths");
  constexpr std::uint64_t kNone = ~std::uint64_t{0};
  std::atomic<std::uint64_t> first{kNone};
  constexpr std::uint64_t kGrain = 1 << 16;
  tbb::parallel_for(std::uint64_t(0), (a.size() + kGrain - 1) / kGrain, [&](std::uint64_t chunk) {
    const std::uint64_t end = std::min<std::uint64_t>(a.size(), (chunk + 1) * kGrain);
    for (std::uint64_t r = chunk * kGrain; r < end; ++r) {
      if (gadgets::bit_aware_product(a[r], b[r]) != c[r]) {
        std::uint64_t seen = first.load();
        while (r < seen && !first.compare_exchange_weak(seen, r)) {
        }
        return;
      }
    }
  });
  if (first.load() == kNone) return std::nullopt;
  return first.load();
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
