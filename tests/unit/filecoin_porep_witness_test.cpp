// Witness mode of the PoRep circuit on consistent generated vanilla data: the assignment satisfies every
// recorded row, its inputs are the ones generate_public_inputs gives, and tampering is caught.
#include <gtest/gtest.h>

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
