// Neptune's legacy Poseidon circuit (gadgets/poseidon_circuit.hpp) in every constraint-system mode: neptune's
// and rust-fil-proofs' constraint counts, the digest against the CPU hash, and the recorded rows satisfied by
// the witness (and not by a tampered one).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <vector>

#include "filecoin/poseidon.hpp"
#include "gadgets/constraint_system.hpp"
#include "gadgets/evaluation_slice.hpp"
#include "gadgets/poseidon_circuit.hpp"

namespace cuzk::gadgets {
namespace {

std::vector<Fr> random_frs(std::size_t n, std::mt19937_64& rng) {
  std::vector<Fr> out(n);
  for (auto& x : out) x = Fr::from_int(ff::BigInt<4>{{rng(), rng(), rng(), rng() >> 2}});
  return out;
}

// Allocates the preimage as aux variables (as Filecoin's callers have them), then hashes it.
template <class CS>
PoseidonDigest hash_in(CS& cs, const std::vector<Fr>& values) {
  std::vector<Variable> vars;
  for (const Fr& v : values) vars.push_back(cs.alloc([&] { return v; }));
  return poseidon_hash_circuit(cs, vars, CS::kWitness ? std::span<const Fr>(values) : std::span<const Fr>());
}

std::uint64_t expected_constraints(std::size_t arity) {
  const auto& c = filecoin::poseidon_constants(arity);
  const std::size_t t = arity + 1, sboxes = t * c.full_rounds + c.partial_rounds;
  return 3 * (sboxes - 1) + (sboxes - arity);
}

// neptune src/circuit.rs test_poseidon_hash (Strength::Standard; arity 11 from the formula it checks) and
// rust-fil-proofs' hash2 (311) and hash_single_column (598) circuit tests.
TEST(GadgetsPoseidon, ConstraintCountsMatchNeptune) {
  const std::pair<std::size_t, std::uint64_t> cases[] = {{2, 311},  {4, 377},   {8, 505},  {11, 598},
                                                         {16, 761}, {24, 1009}, {36, 1385}};
  for (auto [arity, rows] : cases) {
    ShapeCS cs;
    hash_in(cs, std::vector<Fr>(arity));
    EXPECT_EQ(cs.num_constraints(), rows) << "arity " << arity;
    EXPECT_EQ(cs.num_constraints(), expected_constraints(arity)) << "arity " << arity;
    EXPECT_EQ(cs.num_aux(), arity + rows) << "arity " << arity;  // one variable per row
    EXPECT_EQ(cs.num_inputs(), 1u);
  }
}

TEST(GadgetsPoseidon, WitnessDigestEqualsCpuHashAndRowsAreSatisfied) {
  std::mt19937_64 rng(2911);
  for (std::size_t arity : {2, 8, 11}) {
    SCOPED_TRACE("arity " + std::to_string(arity));
    const auto preimage = random_frs(arity, rng);
    const Fr expected = filecoin::poseidon_hash(preimage);

    WitnessCS wit;
    const PoseidonDigest d = hash_in(wit, preimage);
    EXPECT_EQ(d.value, expected);
    ASSERT_EQ(d.variable, Variable::aux(static_cast<std::uint32_t>(wit.num_aux() - 1)));  // allocated last
    EXPECT_EQ(wit.aux_values().back(), expected);

    RecordCS<true> rec;
    const PoseidonDigest dr = hash_in(rec, preimage);
    EXPECT_EQ(dr.value, expected);
    EXPECT_EQ(dr.variable, d.variable);
    EXPECT_TRUE(rec.is_satisfied());
    ASSERT_EQ(rec.num_aux(), wit.num_aux());
    EXPECT_TRUE(std::equal(rec.aux_values().begin(), rec.aux_values().end(), wit.aux_values().begin()));

    ShapeCS shape;
    hash_in(shape, preimage);
    EXPECT_EQ(shape.shape().nnz_a, rec.shape().nnz_a);
    EXPECT_EQ(shape.shape().nnz_b, rec.shape().nnz_b);
    EXPECT_EQ(shape.shape().nnz_c, rec.shape().nnz_c);
    EXPECT_EQ(shape.shape().a_aux, rec.shape().a_aux);
    EXPECT_EQ(shape.shape().b_aux, rec.shape().b_aux);
    std::printf("arity %zu: %llu rows, nnz A %llu B %llu C %llu\n", arity,
                static_cast<unsigned long long>(shape.num_constraints()),
                static_cast<unsigned long long>(shape.shape().nnz_a),
                static_cast<unsigned long long>(shape.shape().nnz_b),
                static_cast<unsigned long long>(shape.shape().nnz_c));

    // The matrices, with WitnessCS's assignment: satisfied; any changed variable breaks some row.
    PrecompiledCircuit pc = std::move(rec).finish();
    EXPECT_FALSE(first_unsatisfied_row(pc.system, wit.input_values(), wit.aux_values()));
    std::vector<Fr> aux(wit.aux_values().begin(), wit.aux_values().end());
    for (std::size_t k : {arity, arity + 5, aux.size() / 2, aux.size() - 1}) {
      auto tampered = aux;
      tampered[k] += Fr::one();
      EXPECT_TRUE(first_unsatisfied_row(pc.system, wit.input_values(), tampered)) << "aux " << k;
    }
  }
}

// A digest that is not the CPU hash's is caught: the circuit's output row binds it.
TEST(GadgetsPoseidon, WrongDigestIsUnsatisfied) {
  std::mt19937_64 rng(5);
  const auto preimage = random_frs(2, rng);
  RecordCS<true> rec;
  hash_in(rec, preimage);
  std::vector<Fr> aux(rec.aux_values().begin(), rec.aux_values().end());
  std::vector<Fr> inputs(rec.input_values().begin(), rec.input_values().end());
  PrecompiledCircuit pc = std::move(rec).finish();
  aux.back() = filecoin::poseidon_hash(random_frs(2, rng));
  EXPECT_EQ(first_unsatisfied_row(pc.system, inputs, aux), std::optional<std::size_t>(310));
}

// Several hashes synthesized into windows of one assignment give what one sequential run gives.
TEST(GadgetsPoseidon, SlicesMatchSequentialWitness) {
  std::mt19937_64 rng(8);
  const auto a = random_frs(8, rng), b = random_frs(8, rng);
  WitnessCS seq;
  hash_in(seq, a);
  hash_in(seq, b);
  const std::size_t per_hash = 8 + 505;
  ASSERT_EQ(seq.num_aux(), 2 * per_hash);
  std::vector<Fr> inputs{Fr::one()}, aux(2 * per_hash);
  WitnessSlice second(std::span<Fr>(inputs).subspan(1), 1, std::span<Fr>(aux).subspan(per_hash), per_hash);
  const PoseidonDigest d2 = hash_in(second, b);
  WitnessSlice first(std::span<Fr>(inputs).subspan(1), 1, std::span<Fr>(aux).first(per_hash), 0);
  hash_in(first, a);
  EXPECT_EQ(d2.variable, Variable::aux(2 * per_hash - 1));
  EXPECT_TRUE(std::equal(aux.begin(), aux.end(), seq.aux_values().begin()));
}

// Evaluation mode (EvaluationSlice: the linear layers as sums of products reduced once, the S-box rows
// written as computed) gives each row's a, b, c as the recorded terms times the witness, for every width
// Filecoin uses and the widest (37: sums longer than one 16-term accumulator).
TEST(GadgetsPoseidon, EvaluatedRowsEqualTheRecordedTermsTimesTheWitness) {
  std::mt19937_64 rng(3301);
  for (std::size_t arity : {2, 8, 11, 16, 36}) {
    SCOPED_TRACE("arity " + std::to_string(arity));
    const auto preimage = random_frs(arity, rng);
    RecordCS<true> rec;
    const PoseidonDigest want = hash_in(rec, preimage);
    const std::vector<Fr> inputs(rec.input_values().begin(), rec.input_values().end());
    const std::vector<Fr> rec_aux(rec.aux_values().begin(), rec.aux_values().end());
    const PrecompiledCircuit pc = std::move(rec).finish();
    std::vector<Fr> w = inputs;  // (inputs ‖ aux), the recorded matrices' columns
    w.insert(w.end(), rec_aux.begin(), rec_aux.end());
    auto times_witness = [&](const r1cs::Csr<Fr>& m) { return r1cs::spmv(m, w); };

    std::vector<Fr> ev_inputs = inputs, aux(rec_aux.size()), a(pc.system.a.rows()), b(a.size()), c(a.size());
    const VariableValues values{ev_inputs.data(), aux.data()};
    EvaluationScope scope(&values);
    EvaluationSlice cs(WitnessSlice(std::span<Fr>(ev_inputs).subspan(1), 1, aux, 0), a, b, c);
    const PoseidonDigest got = hash_in(cs, preimage);
    EXPECT_EQ(got.value, want.value);
    EXPECT_EQ(cs.rows_written(), a.size());
    EXPECT_FALSE(cs.first_unsatisfied().has_value());
    EXPECT_TRUE(aux == rec_aux);
    EXPECT_TRUE(a == times_witness(pc.system.a));
    EXPECT_TRUE(b == times_witness(pc.system.b));
    EXPECT_TRUE(c == times_witness(pc.system.c));
  }
}

TEST(GadgetsPoseidon, RejectsWrongInputs) {
  WitnessCS cs;
  const std::vector<Variable> vars{Variable::aux(0), Variable::aux(1)};
  const std::vector<Fr> one_value{Fr::one()};
  EXPECT_THROW(poseidon_hash_circuit(cs, vars, one_value), SynthesisError);
  EXPECT_THROW(poseidon_hash_circuit(cs, filecoin::poseidon_constants(8), vars, one_value), SynthesisError);
}

}  // namespace
}  // namespace cuzk::gadgets
