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
#include <cstdint>
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

// One challenge's part of the circuit is a sequence of sections, each of which allocates and enforces
// what it does from what the sections before it hand it (PorepChallengeState) and from nothing else. Every
// challenge has the same shape, so with each section's counts known (porep_layout) every section has fixed
// variable and row numbers, and the parallel drivers (porep_synthesis.hpp) run them in their own constraint
// systems, in dependency order: the data leaf, the parent columns and the challenge bits first, then every
// layer's label, then the encoding and the challenged column; the result is the sequential run's.
struct PorepSection {
  enum class Kind : std::uint8_t { data, column, challenge, label, encoding, column_hash };
  Kind kind;
  unsigned index = 0;  // column: the parent (DRG first, then expander); label: the layer, from 1
  // 0: needs nothing from the challenge's other sections; 1: the columns and challenge bits; 2: the labels.
  unsigned stage() const {
    return kind == Kind::label ? 1 : kind == Kind::encoding || kind == Kind::column_hash ? 2 : 0;
  }
};

// The sections of a challenge in circuit order.
std::vector<PorepSection> porep_sections(const PorepParams& params);

// What a challenge's sections hand on: each section writes only its own member (a column or a label its
// own element), so sections of one stage may run at once.
struct PorepChallengeState {
  AllocatedNum data_leaf;
  std::array<std::vector<AllocatedNum>, kDrgParents + kExpanderParents> columns;
  gadgets::UInt64 challenge_bits;
  std::vector<AllocatedNum> labels;  // one per layer, allocated by the caller
};

template <class CS>
void synthesize_porep_section(CS& cs, const PorepParams& params, const PorepCommitments& top,
                              const ChallengeProof* proof, const PorepSection& section,
                              PorepChallengeState& state) {
  using porep_detail::alloc_column;
  using Kind = PorepSection::Kind;
  const TreeLevels tree_c = poseidon_tree_levels(params.tree);
  const unsigned layers = params.layers;
  switch (section.kind) {
    case Kind::data: {
      state.data_leaf = AllocatedNum::alloc(cs, [&]() -> const Fr& { return proof->data_leaf; });
      enforce_inclusion(cs, tree_d_levels(params.tree_d_levels), proof ? &proof->comm_d_path : nullptr,
                        state.data_leaf, top.comm_d);
      return;
    }
    case Kind::column: {  // a parent's column, hashed and proven in tree C
      const unsigned p = section.index;
      const ColumnProof* column = nullptr;
      if (proof) column = p < kDrgParents ? &proof->drg_parents[p] : &proof->exp_parents[p - kDrgParents];
      state.columns[p] = alloc_column(cs, layers, column);
      const AllocatedNum hash = column_hash_circuit(cs, std::span<const AllocatedNum>(state.columns[p]));
      enforce_inclusion(cs, tree_c, column ? &column->path : nullptr, hash, top.comm_c);
      return;
    }
    case Kind::challenge: {
      std::uint64_t challenge = 0;
      if constexpr (CS::kWitness) challenge = proof->challenge;
      state.challenge_bits = gadgets::UInt64::alloc(cs, challenge);
      state.challenge_bits.pack_into_input(cs);
      return;
    }
    case Kind::label: {  // layer 1: the DRG parents of layer 1; layer l: those of l and the expander ones of
                         // l − 1
      const unsigned layer = section.index;
      std::vector<std::vector<Boolean>> parent_bits;
      for (unsigned p = 0; p < kDrgParents; ++p)
        parent_bits.push_back(reverse_bit_numbering(state.columns[p][layer - 1].to_bits_le(cs)));
      if (layer > 1)
        for (unsigned p = kDrgParents; p < state.columns.size(); ++p)
          parent_bits.push_back(reverse_bit_numbering(state.columns[p][layer - 2].to_bits_le(cs)));
      // The 37 slots: layer 1 repeats the 6 DRG parents six times and the first once more; later layers the
      // 14 parents twice and the first 9 once more.
      std::array<const std::vector<Boolean>*, kTotalParents> slots;
      for (unsigned s = 0; s < kTotalParents; ++s) slots[s] = &parent_bits[s % parent_bits.size()];
      state.labels[layer - 1] = create_label_circuit(cs, std::span<const Boolean>(top.replica_id_bits),
                                                     std::span<const std::vector<Boolean>* const>(slots),
                                                     layer, state.challenge_bits);
      return;
    }
    case Kind::encoding: {
      const AllocatedNum encoded = encode_circuit(cs, state.labels.back(), state.data_leaf);
      enforce_inclusion(cs, tree_c, proof ? &proof->comm_r_last_path : nullptr, encoded, top.comm_r_last);
      return;
    }
    case Kind::column_hash: {  // the challenged node's column: its labels
      const AllocatedNum column_hash = column_hash_circuit(cs, std::span<const AllocatedNum>(state.labels));
      enforce_inclusion(cs, tree_c, proof ? &proof->comm_c_path : nullptr, column_hash, top.comm_c);
      return;
    }
  }
}

// One challenge's part of the circuit, its sections in order.
template <class CS>
void synthesize_porep_challenge(CS& cs, const PorepParams& params, const PorepCommitments& top,
                                const ChallengeProof* proof) {
  PorepChallengeState state;
  state.labels.resize(params.layers);
  for (const PorepSection& section : porep_sections(params))
    synthesize_porep_section(cs, params, top, proof, section, state);
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
