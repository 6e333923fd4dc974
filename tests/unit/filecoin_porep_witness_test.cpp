// Witness mode of the PoRep circuit on consistent generated vanilla data: the assignment satisfies every
// recorded row, its inputs are the ones generate_public_inputs gives, and tampering is caught.
#include <gtest/gtest.h>

#include <algorithm>

#include "filecoin/porep_circuit.hpp"
#include "filecoin/porep_synthesis.hpp"
#include "filecoin/porep_test_data.hpp"
#include "sanitizer_skip.hpp"

namespace cuzk::filecoin {
namespace {

// The 2 KiB circuit, recorded once for the tests below (3 s).
const gadgets::PrecompiledCircuit& recorded_2kib() {
  static const gadgets::PrecompiledCircuit pc = porep_record(porep_params_for("2KiB"));
  return pc;
}

TEST(PorepWitness, SatisfiesTheRecordedCircuitAt2KiB) {
  const PorepParams& p = porep_params_for("2KiB");
  const PorepTestPartition t = make_test_porep_partition(p, 7);
  const PorepAssignment w = porep_witness(p, t.proof);
  const gadgets::PrecompiledCircuit& pc = recorded_2kib();
  ASSERT_EQ(w.inputs.size(), pc.shape.inputs);
  ASSERT_EQ(w.aux.size(), pc.shape.aux);
  ASSERT_EQ(w.inputs.size(), t.public_inputs.size() + 1);
  EXPECT_TRUE(w.inputs[0].is_one());
  for (std::size_t i = 0; i < t.public_inputs.size(); ++i)
    EXPECT_EQ(w.inputs[i + 1], t.public_inputs[i]) << "public input " << i;
  EXPECT_EQ(gadgets::first_unsatisfied_row(pc.system, w.inputs, w.aux), std::nullopt);
  // And with the prover's input rows (input · 1 = 0 holds for any value: B is empty).
  EXPECT_EQ(gadgets::first_unsatisfied_row(pc.with_input_rows(), w.inputs, w.aux), std::nullopt);

  // The checking constraint system finds the same.
  EXPECT_EQ(porep_first_unsatisfied_row(p, t.proof), std::nullopt);

  // Any aux value changed breaks a row; a wrong public input too.
  gadgets::Assignment aux = w.aux;
  aux[aux.size() / 3] += Fr::one();
  EXPECT_NE(gadgets::first_unsatisfied_row(pc.system, w.inputs, aux), std::nullopt);
  gadgets::Assignment inputs = w.inputs;
  inputs[5] += Fr::one();
  EXPECT_NE(gadgets::first_unsatisfied_row(pc.system, inputs, w.aux), std::nullopt);
}

// The parallel driver runs every challenge's sections at the numbers porep_layout gives them: the result
// must be what one constraint system running the whole partition in order allocates.
TEST(PorepWitness, SectionsInParallelEqualOneSequentialRun) {
  const PorepParams& p = porep_params_for("2KiB");
  const PorepTestPartition t = make_test_porep_partition(p, 8);
  const PorepAssignment parallel = porep_witness(p, t.proof);
  gadgets::WitnessCS sequential;
  synthesize_porep_partition(sequential, p, &t.proof);
  ASSERT_EQ(parallel.inputs.size(), sequential.num_inputs());
  ASSERT_EQ(parallel.aux.size(), sequential.num_aux());
  EXPECT_TRUE(std::equal(parallel.inputs.begin(), parallel.inputs.end(), sequential.input_values().begin()));
  EXPECT_TRUE(std::equal(parallel.aux.begin(), parallel.aux.end(), sequential.aux_values().begin()));
}

// The sections tile a challenge: each starts where the one before it ended, and together they are the
// challenge, at every production size's parameters too.
TEST(PorepWitness, SectionsTileTheChallenge) {
  for (const char* size : {"2KiB", "32GiB"}) {
    const PorepLayout& layout = porep_layout(porep_params_for(size));
    ASSERT_EQ(layout.sections.size(), 1 + 14 + 1 + porep_params_for(size).layers + 2) << size;
    std::uint64_t inputs = 0, aux = 0, rows = 0;
    std::size_t staged = 0;
    for (const auto& s : layout.sections) {
      EXPECT_EQ(s.input_at, inputs);
      EXPECT_EQ(s.aux_at, aux);
      EXPECT_EQ(s.row_at, rows);
      EXPECT_GT(s.rows, 0u);
      inputs += s.inputs, aux += s.aux, rows += s.rows;
    }
    for (const auto& stage : layout.stages) staged += stage.size();
    EXPECT_EQ(staged, layout.sections.size());
    EXPECT_EQ(inputs, layout.challenge_inputs) << size;
    EXPECT_EQ(aux, layout.challenge_aux) << size;
    EXPECT_EQ(rows, layout.challenge_rows) << size;
    // One input for each inclusion proof (its packed path) and the challenge's bits; none for a label.
    for (const auto& s : layout.sections)
      EXPECT_EQ(s.inputs, s.section.kind == PorepSection::Kind::label ? 0u : 1u) << size;
    EXPECT_EQ(layout.stages[1].size(), porep_params_for(size).layers);
  }
}

TEST(PorepWitness, TamperedVanillaDataIsUnsatisfied) {
  CUZK_SKIP_UNDER_SANITIZER("five more syntheses of the 2 KiB circuit");
  const PorepParams& p = porep_params_for("2KiB");
  const PorepTestPartition t = make_test_porep_partition(p, 11);
  const gadgets::PrecompiledCircuit& pc = recorded_2kib();
  auto first_failure = [&](const PorepPartitionProof& proof) {
    const PorepAssignment w = porep_witness(p, proof);
    const auto recorded = gadgets::first_unsatisfied_row(pc.system, w.inputs, w.aux);
    EXPECT_EQ(recorded, porep_first_unsatisfied_row(p, proof));  // both checks agree on the row
    return recorded;
  };
  {
    PorepPartitionProof proof = t.proof;
    proof.challenges[1].data_leaf += Fr::one();
    EXPECT_NE(first_failure(proof), std::nullopt);
  }
  {
    PorepPartitionProof proof = t.proof;
    proof.challenges[0].drg_parents[3].rows[1] += Fr::one();  // a parent label: column hash and label change
    EXPECT_NE(first_failure(proof), std::nullopt);
  }
  {
    PorepPartitionProof proof = t.proof;
    proof.challenges[0].comm_c_path.levels[1].siblings[2] += Fr::one();
    EXPECT_NE(first_failure(proof), std::nullopt);
  }
  {
    PorepPartitionProof proof = t.proof;
    proof.comm_r += Fr::one();
    EXPECT_NE(first_failure(proof), std::nullopt);
  }
  {
    PorepPartitionProof proof = t.proof;
    proof.challenges[0].exp_parents[0].path.levels.pop_back();  // not the tree's shape: a clear error
    EXPECT_THROW(porep_witness(p, proof), gadgets::SynthesisError);
  }
}

TEST(PorepWitness, LargerSectorsAreSatisfied) {
  CUZK_SKIP_UNDER_SANITIZER("circuits of 3.8 and 4.4 M rows");
  for (const char* size : {"8MiB", "512MiB"}) {
    const PorepParams& p = porep_params_for(size);
    const PorepTestPartition t = make_test_porep_partition(p, 3);
    EXPECT_EQ(porep_first_unsatisfied_row(p, t.proof), std::nullopt) << size;
    const PorepAssignment w = porep_witness(p, t.proof);
    for (std::size_t i = 0; i < t.public_inputs.size(); ++i)
      ASSERT_EQ(w.inputs[i + 1], t.public_inputs[i]) << size << " public input " << i;
  }
}

}  // namespace
}  // namespace cuzk::filecoin
