// The hash gadgets Filecoin's PoRep circuit calls, in rust-fil-proofs' bit layouts (filecoin-hashers
// sha256.rs / poseidon.rs, storage-proofs-porep stacked/circuit/create_label.rs and hash.rs):
//   - Poseidon over allocated numbers (neptune's legacy circuit, Filecoin's MerkleTree constants);
//   - tree D's node hash: both children's 255 bits, each byte's bits reversed (the SHA-256 message is the
//     children's little-endian bytes, most significant bit first), SHA-256, the digest's bytes read back
//     little-endian, its first 254 bits packed;
//   - the SDR label: SHA-256 of replica id ‖ layer (u32 BE) ‖ node (u64 BE) ‖ zeros ‖ 37 parent labels,
//     packed the same way;
//   - a column's hash: Poseidon of its rows (arity 2 or 11).
#pragma once

#include <array>
#include <span>
#include <stdexcept>
#include <vector>

#include "filecoin/porep_params.hpp"
#include "gadgets/boolean.hpp"
#include "gadgets/multipack.hpp"
#include "gadgets/num.hpp"
#include "gadgets/poseidon_circuit.hpp"
#include "gadgets/sha256.hpp"
#include "gadgets/uint32.hpp"
#include "gadgets/uint64.hpp"

namespace cuzk::filecoin {

using Fr = ff::bls12_381::Fr;
using gadgets::AllocatedNum;
using gadgets::Boolean;

// storage-proofs-core util.rs reverse_bit_numbering: padded with constant zeros to whole bytes, then each
// byte's bits reversed.
inline std::vector<Boolean> reverse_bit_numbering(std::vector<Boolean> bits) {
  while (bits.size() % 8) bits.push_back(Boolean::constant(false));
  for (std::size_t i = 0; i < bits.size(); i += 8)
    for (std::size_t j = 0; j < 4; ++j) std::swap(bits[i + j], bits[i + 7 - j]);
  return bits;
}

template <class CS>
AllocatedNum poseidon_circuit(CS& cs, std::span<const AllocatedNum> preimage) {
  std::vector<gadgets::Variable> vars;
  std::vector<Fr> values;
  vars.reserve(preimage.size());
  for (const AllocatedNum& n : preimage) {
    vars.push_back(n.variable());
    if constexpr (CS::kWitness) values.push_back(n.value());
  }
  const gadgets::PoseidonDigest d = gadgets::poseidon_hash_circuit(cs, vars, values);
  return AllocatedNum(d.variable, d.value, CS::kWitness);
}

// SHA-256 of a message in bellpepper's bit order, its digest packed as Filecoin's Sha256Domain
// (filecoin-hashers sha256.rs hash_circuit): each digest byte's bits reversed, the first 254 packed into one
// number.
template <class CS>
AllocatedNum sha256_packed(CS& cs, std::span<const Boolean> message) {
  std::vector<Boolean> digest = reverse_bit_numbering(gadgets::sha256(cs, message));
  return gadgets::pack_bits(cs, std::span<const Boolean>(digest).first(gadgets::kFrCapacity));
}

// Sha256Function::hash_multi_leaf_circuit for the binary tree D.
template <class CS>
AllocatedNum sha256_tree_node_circuit(CS& cs, const AllocatedNum& left, const AllocatedNum& right) {
  std::vector<Boolean> message = reverse_bit_numbering(left.to_bits_le(cs));
  std::vector<Boolean> right_bits = reverse_bit_numbering(right.to_bits_le(cs));
  message.insert(message.end(), right_bits.begin(), right_bits.end());
  return sha256_packed(cs, message);
}

// create_label_circuit. `replica_id` is the replica id's 256 message bits (reverse_bit_numbering of its
// to_bits_le), `parents` the 37 parent slots' 256 bits each.
template <class CS>
AllocatedNum create_label_circuit(CS& cs, std::span<const Boolean> replica_id,
                                  std::span<const std::vector<Boolean>* const> parents, std::uint32_t layer,
                                  const gadgets::UInt64& node) {
  if (parents.size() != kTotalParents || replica_id.size() != 256)
    throw gadgets::SynthesisError("create_label: 37 parents and a 256-bit replica id needed");
  std::vector<Boolean> message;
  message.reserve((2 + kTotalParents) * 256);
  message.assign(replica_id.begin(), replica_id.end());
  const auto layer_bits = gadgets::UInt32::constant(layer).into_bits_be();
  message.insert(message.end(), layer_bits.begin(), layer_bits.end());
  const auto node_bits = node.to_bits_be();
  message.insert(message.end(), node_bits.begin(), node_bits.end());
  message.resize(512, Boolean::constant(false));
  for (const std::vector<Boolean>* parent : parents) {
    if (parent->size() != 256) throw gadgets::SynthesisError("create_label: a parent is not 256 bits");
    message.insert(message.end(), parent->begin(), parent->end());
  }
  return sha256_packed(cs, message);
}

// hash_single_column: Poseidon over a column's rows, for the two layer counts Filecoin has.
template <class CS>
AllocatedNum column_hash_circuit(CS& cs, std::span<const AllocatedNum> rows) {
  if (rows.size() != 2 && rows.size() != 11)
    throw gadgets::SynthesisError("column hash: columns have 2 or 11 rows, not " +
                                  std::to_string(rows.size()));
  return poseidon_circuit(cs, rows);
}

// constraint::equal: a·1 = b.
template <class CS>
void enforce_equal(CS& cs, const AllocatedNum& a, const AllocatedNum& b) {
  using gadgets::LC;
  cs.enforce([&](LC& l) { l.add(a.variable()); }, [](LC& l) { l.add(gadgets::kOne); },
             [&](LC& l) { l.add(b.variable()); });
}

// encode (constraint::add): key + value, with (key + value)·1 = result.
template <class CS>
AllocatedNum encode_circuit(CS& cs, const AllocatedNum& key, const AllocatedNum& value) {
  using gadgets::LC;
  const AllocatedNum sum = AllocatedNum::alloc(cs, [&] { return key.value() + value.value(); });
  cs.enforce([&](LC& l) { l.add(key.variable()).add(value.variable()); }, [](LC& l) { l.add(gadgets::kOne); },
             [&](LC& l) { l.add(sum.variable()); });
  return sum;
}

}  // namespace cuzk::filecoin
