// Filecoin's StackedDRG PoRep circuit for one partition, constraint for constraint as rust-fil-proofs
// synthesizes it (storage-proofs-porep stacked/circuit/proof.rs StackedCircuit::synthesize and params.rs
// Proof::synthesize; docs/porting/stacked-circuit.md has the walk-through, with citations):
//
//   replica_id (input, and its 256 message bits once), comm_d and comm_r (inputs), comm_r_last and comm_c
//   (private), comm_r = Poseidon2(comm_c, comm_r_last); then per challenge:
//     the data leaf in tree D; the 6 DRG and 8 expander parents' columns, each hashed and in tree C; the
//     challenge as 64 bits packed into an input; per layer the label from the parents' bits (layer 1: the DRG
//     parents of layer 1; layer l: the DRG parents of layer l and the expander parents of layer l − 1);
//     label_last + data leaf in tree R_last; the challenged node's column (its labels) hashed and in tree C.
//
// One template, every mode: `proof` is read only when CS::kWitness (nullptr in shape and record modes).
#pragma once

#include <array>
#include <string>
#include <vector>

#include "filecoin/hash_circuits.hpp"
#include "filecoin/por_circuit.hpp"
#include "filecoin/porep_params.hpp"
#include "filecoin/porep_vanilla.hpp"

namespace cuzk::filecoin {

// Throws SynthesisError unless `proof` has the shape `params` give (challenge count, columns, every path).
void check_porep_proof_shape(const PorepParams& params, const PorepPartitionProof& proof);

// The allocations every challenge refers to.
struct PorepCommitments {
  AllocatedNum comm_d, comm_c, comm_r_last;
  std::vector<Boolean> replica_id_bits;  // 256: the label hash's first block
};

namespace porep_detail {

template <class CS>
std::vector<AllocatedNum> alloc_column(CS& cs, unsigned layers, const ColumnProof* column) {
  std::vector<AllocatedNum> rows;
  rows.reserve(layers);
  for (unsigned l = 0; l < layers; ++l)
    rows.push_back(AllocatedNum::alloc(cs, [&]() -> const Fr& { return column->rows[l]; }));
  return rows;
}

}  // namespace porep_detail

// One challenge's part of the circuit. Every challenge has the same shape, so the parallel drivers
// (porep_synthesis.hpp) give each its own constraint system at the variable numbers it would have.
template <class CS>
void synthesize_porep_challenge(CS& cs, const PorepParams& params, const PorepCommitments& top,
                                const ChallengeProof* proof) {
  using porep_detail::alloc_column;
  const TreeLevels tree_d = tree_d_levels(params.tree_d_levels);
  const TreeLevels tree_c = poseidon_tree_levels(params.tree);
  const unsigned layers = params.layers;

  const AllocatedNum data_leaf = AllocatedNum::alloc(cs, [&]() -> const Fr& { return proof->data_leaf; });
  enforce_inclusion(cs, tree_d, proof ? &proof->comm_d_path : nullptr, data_leaf, top.comm_d);

  // Parent columns: DRG first, then expander, each hashed and proven in tree C.
  std::array<std::vector<AllocatedNum>, kDrgParents + kExpanderParents> columns;
  for (unsigned p = 0; p < columns.size(); ++p) {
    const ColumnProof* column = nullptr;
    if (proof) column = p < kDrgParents ? &proof->drg_parents[p] : &proof->exp_parents[p - kDrgParents];
    columns[p] = alloc_column(cs, layers, column);
    const AllocatedNum hash = column_hash_circuit(cs, std::span<const AllocatedNum>(columns[p]));
    enforce_inclusion(cs, tree_c, column ? &column->path : nullptr, hash, top.comm_c);
  }

  std::uint64_t challenge = 0;
  if constexpr (CS::kWitness) challenge = proof->challenge;
  const gadgets::UInt64 challenge_bits = gadgets::UInt64::alloc(cs, challenge);
  challenge_bits.pack_into_input(cs);

  std::vector<AllocatedNum> labels;
  labels.reserve(layers);
  std::vector<std::vector<Boolean>> parent_bits;
  for (unsigned layer = 1; layer <= layers; ++layer) {
    parent_bits.clear();
    for (unsigned p = 0; p < kDrgParents; ++p)
      parent_bits.push_back(reverse_bit_numbering(columns[p][layer - 1].to_bits_le(cs)));
    if (layer > 1)
      for (unsigned p = kDrgParents; p < columns.size(); ++p)
        parent_bits.push_back(reverse_bit_numbering(columns[p][layer - 2].to_bits_le(cs)));
    // The 37 slots: layer 1 repeats the 6 DRG parents six times and the first once more; later layers the 14
    // parents twice and the first 9 once more.
    std::array<const std::vector<Boolean>*, kTotalParents> slots;
    for (unsigned s = 0; s < kTotalParents; ++s) slots[s] = &parent_bits[s % parent_bits.size()];
    labels.push_back(create_label_circuit(cs, std::span<const Boolean>(top.replica_id_bits),
                                          std::span<const std::vector<Boolean>* const>(slots), layer,
                                          challenge_bits));
  }

  const AllocatedNum encoded = encode_circuit(cs, labels.back(), data_leaf);
  enforce_inclusion(cs, tree_c, proof ? &proof->comm_r_last_path : nullptr, encoded, top.comm_r_last);

  const AllocatedNum column_hash = column_hash_circuit(cs, std::span<const AllocatedNum>(labels));
  enforce_inclusion(cs, tree_c, proof ? &proof->comm_c_path : nullptr, column_hash, top.comm_c);
}

// Everything before the first challenge.
template <class CS>
PorepCommitments synthesize_porep_top(CS& cs, const PorepPartitionProof* proof) {
  auto field = [&](const Fr PorepPartitionProof::*member) {
    return AllocatedNum::alloc(cs, [&]() -> const Fr& { return proof->*member; });
  };
  PorepCommitments top;
  const AllocatedNum replica_id = field(&PorepPartitionProof::replica_id);
  replica_id.inputize(cs);
  top.replica_id_bits = reverse_bit_numbering(replica_id.to_bits_le(cs));
  top.comm_d = field(&PorepPartitionProof::comm_d);
  top.comm_d.inputize(cs);
  const AllocatedNum comm_r = field(&PorepPartitionProof::comm_r);
  comm_r.inputize(cs);
  top.comm_r_last = field(&PorepPartitionProof::comm_r_last);
  top.comm_c = field(&PorepPartitionProof::comm_c);
  const std::array<AllocatedNum, 2> preimage{top.comm_c, top.comm_r_last};
  enforce_equal(cs, comm_r, poseidon_circuit(cs, std::span<const AllocatedNum>(preimage)));
  return top;
}

// The whole partition in one constraint system, in order (porep_synthesis.hpp has the parallel drivers).
template <class CS>
void synthesize_porep_partition(CS& cs, const PorepParams& params, const PorepPartitionProof* proof) {
  if constexpr (CS::kWitness) {
    if (!proof) throw gadgets::SynthesisError("PoRep circuit: witness synthesis needs the vanilla proof");
    check_porep_proof_shape(params, *proof);
  }
  const PorepCommitments top = synthesize_porep_top(cs, proof);
  for (unsigned i = 0; i < params.challenges_per_partition; ++i)
    synthesize_porep_challenge(cs, params, top, proof ? &proof->challenges[i] : nullptr);
}

}  // namespace cuzk::filecoin
