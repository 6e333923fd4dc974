// Evaluation mode of the PoRep circuit: a, b, c computed while the witness is synthesized equal the recorded
// matrices times the witness (bellperson's synthesis of the same circuit), the densities equal the recorded
// ones, and a tampered vanilla proof gives rows that do not hold.
#include <gtest/gtest.h>

#include "filecoin/porep_assignment.hpp"
#include "filecoin/porep_synthesis.hpp"
#include "filecoin/porep_test_data.hpp"
#include "gadgets/evaluation_slice.hpp"
#include "sanitizer_skip.hpp"

namespace cuzk::filecoin {
namespace {

namespace bp = groth16::bellperson;

TEST(PorepEvaluate, EqualsTheRecordedMatricesTimesTheWitnessAt2KiB) {
  CUZK_SKIP_UNDER_SANITIZER(
      "a 2 KiB record and synthesis beside the evaluation; LentMemoryIsWhereTheValuesGo runs the evaluation "
      "there");
  const PorepParams& p = porep_params_for("2KiB");
  const PorepTestPartition t = make_test_porep_partition(p, 21);
  const bp::Assignment w = porep_prover_assignment(p, t.proof);

  // The oracle: record the circuit, then bellperson's synthesis (spmv, input rows, densities from columns).
  const gadgets::PrecompiledCircuit pc = porep_record(p);
  const PorepAssignment values = porep_witness(p, t.proof);
  std::vector<Fr> z(values.inputs.begin(), values.inputs.end());
  z.insert(z.end(), values.aux.begin(), values.aux.end());
  const bp::Assignment expected = bp::synthesize(pc.system, z);

  ASSERT_EQ(w.a.size(), expected.a.size());
  EXPECT_TRUE(w.a == expected.a);
  EXPECT_TRUE(w.b == expected.b);
  EXPECT_TRUE(w.c == expected.c);
  EXPECT_EQ(w.inputs, expected.inputs);
  EXPECT_TRUE(w.aux == expected.aux);
  EXPECT_EQ(w.a_aux.words, expected.a_aux.words);
  EXPECT_EQ(w.b_inputs.words, expected.b_inputs.words);
  EXPECT_EQ(w.b_aux.words, expected.b_aux.words);
  EXPECT_NO_THROW(check_porep_rows(w, "partition 0"));
  for (std::size_t i = 0; i < t.public_inputs.size(); ++i) EXPECT_EQ(w.inputs[i + 1], t.public_inputs[i]);
}

TEST(PorepEvaluate, LentMemoryIsWhereTheValuesGo) {
  const PorepParams& p = porep_params_for("2KiB");
  const PorepTestPartition t = make_test_porep_partition(p, 22);
  std::vector<Fr> abc_memory, aux_memory;
  auto lend = [&](io::bellperson_assignment::Part part,
                  std::uint64_t count) -> std::optional<io::bellperson_assignment::LentMemory> {
    auto& m = part == io::bellperson_assignment::Part::kAbc ? abc_memory : aux_memory;
    m.resize(count);
    return io::bellperson_assignment::LentMemory{m, std::make_shared<int>(0)};
  };
  const bp::Assignment w = porep_prover_assignment(p, t.proof, lend);
  EXPECT_TRUE(w.a.borrowed() && w.b.borrowed() && w.c.borrowed() && w.aux.borrowed());
  EXPECT_EQ(w.a.data(), abc_memory.data());
  EXPECT_EQ(w.b.data(), abc_memory.data() + w.a.size());
  EXPECT_EQ(w.aux.data(), aux_memory.data());
  const bp::Assignment owned = porep_prover_assignment(p, t.proof);
  EXPECT_TRUE(w.c == owned.c);
  EXPECT_TRUE(w.aux == owned.aux);
}

TEST(PorepEvaluate, TamperedDataGivesARowThatDoesNotHold) {
  CUZK_SKIP_UNDER_SANITIZER(
      "three 2 KiB evaluations and a recorded check; LentMemoryIsWhereTheValuesGo runs the evaluation there");
  const PorepParams& p = porep_params_for("2KiB");
  const PorepTestPartition t = make_test_porep_partition(p, 23);
  PorepPartitionProof proof = t.proof;
  proof.challenges[1].drg_parents[2].rows[0] += Fr::one();  // a parent's label
  const bp::Assignment w = porep_prover_assignment(p, proof);
  const auto row = porep_first_unsatisfied_abc(w.a, w.b, w.c);
  ASSERT_NE(row, std::nullopt);
  EXPECT_EQ(row, porep_first_unsatisfied_row(p, proof));  // the row the checking system finds
  EXPECT_THROW(check_porep_rows(w, "partition 0"), UnsatisfiedCircuit);

  // The evaluation's own check, row by row as it writes them, names the same row.
  const PorepLayout& layout = porep_layout(p);
  std::vector<Fr> inputs(layout.inputs()), aux(layout.aux()), a(layout.prover_rows()), b(a.size()),
      c(a.size());
  EXPECT_EQ(porep_evaluate(p, proof, {inputs, aux, a, b, c}), row);
  try {
    checked_porep_prover_assignment(p, proof, "partition 4");
    ADD_FAILURE() << "an unsatisfied partition was not refused";
  } catch (const UnsatisfiedCircuit& e) {
    EXPECT_NE(std::string(e.what()).find("partition 4: row " + std::to_string(*row) + " of "),
              std::string::npos)
        << e.what();
  }
  // And a consistent partition passes it.
  EXPECT_EQ(porep_evaluate(p, t.proof, {inputs, aux, a, b, c}), std::nullopt);
  EXPECT_NO_THROW(checked_porep_prover_assignment(p, t.proof, "partition 0"));
}

// A tampered value in every stage of the sections' order (a leaf, a parent column, a comm_r_last path) is
// found at the row the independent pass finds.
TEST(PorepEvaluate, TheOwnCheckFindsTheFirstRowInEveryStage) {
  CUZK_SKIP_UNDER_SANITIZER("six more evaluations of the 2 KiB circuit");
  const PorepParams& p = porep_params_for("2KiB");
  const PorepTestPartition t = make_test_porep_partition(p, 25);
  const PorepLayout& layout = porep_layout(p);
  std::vector<Fr> inputs(layout.inputs()), aux(layout.aux()), a(layout.prover_rows()), b(a.size()),
      c(a.size());
  auto expect_same_row = [&](const PorepPartitionProof& proof, const char* what) {
    const auto own = porep_evaluate(p, proof, {inputs, aux, a, b, c});
    ASSERT_NE(own, std::nullopt) << what;
    EXPECT_EQ(own, porep_first_unsatisfied_abc(a, b, c)) << what;
  };
  {
    PorepPartitionProof proof = t.proof;
    proof.challenges.back().data_leaf += Fr::one();
    expect_same_row(proof, "data leaf");
  }
  {
    PorepPartitionProof proof = t.proof;
    proof.challenges[0].exp_parents[1].rows[0] += Fr::one();
    expect_same_row(proof, "expander parent label");
  }
  {
    PorepPartitionProof proof = t.proof;
    proof.challenges[1].comm_r_last_path.levels[0].siblings[0] += Fr::one();
    expect_same_row(proof, "comm_r_last path");
  }
}

TEST(PorepEvaluate, WrongArraySizesAreRefused) {
  const PorepParams& p = porep_params_for("2KiB");
  const PorepTestPartition t = make_test_porep_partition(p, 24);
  const PorepLayout& layout = porep_layout(p);
  std::vector<Fr> inputs(layout.inputs()), aux(layout.aux()), a(layout.prover_rows()), b(a.size()),
      c(a.size() - 1);
  EXPECT_THROW(porep_evaluate(p, t.proof, {inputs, aux, a, b, c}), gadgets::SynthesisError);
}

TEST(PorepEvaluate, AnEvaluationSliceNeedsAScope) {
  std::vector<Fr> v(4);
  EXPECT_THROW(
      gadgets::EvaluationSlice(gadgets::WitnessSlice(std::span(v).first(1), 1, std::span(v).last(1), 0),
                               std::span(v), std::span(v), std::span(v)),
      gadgets::SynthesisError);
}

}  // namespace
}  // namespace cuzk::filecoin
