// Filecoin's SnapDeals circuit of one partition (storage-proofs-update circuit.rs
// EmptySectorUpdateCircuit::synthesize and gadgets.rs), constraint for constraint. In order:
//
//   k_and_h_select allocated and made an input; its partition_bits + 6 bits allocated (little-endian) and
//   Σ 2^i·bit_i · 1 = k_and_h_select; the partition number packed from its bits; comm_r_old, comm_d_new,
//   comm_r_new allocated and made inputs; phi = PoseidonGen(comm_d_new, comm_r_old); comm_c, root_r_old,
//   root_r_new, the apex leaves and the partition path's siblings allocated; Poseidon2(comm_c, root_r_old)
//   and Poseidon2(comm_c, root_r_new) equal to comm_r_old and comm_r_new; apex_por (the apex leaves hashed
//   pairwise up to the partition's root in tree D, which the partition bits and siblings lead to
//   comm_d_new); gen_challenge_bits (per digest j: its index k·digests + j, PoseidonGen(comm_r_new, index)
//   and its 255 bits, cut into challenges of random_bits bits); then per challenge, its bits being the
//   generated ones and the partition's:
//     the h high bits selected by h_select and rho = PoseidonGen(phi, high); leaf_r_old and leaf_d_new
//     allocated, leaf_r_new = leaf_r_old + leaf_d_new · rho; tree R old's path (siblings allocated, then
//     the por gadget over the challenge's bits); tree R new's the same; the apex leaf selected by the bits
//     above the path to it; tree D's path from leaf_d_new to that apex leaf.
//
// One template for every mode: `proof` is read only when CS::kWitness (nullptr in shape and record modes).
// The challenge part (synthesize_update_challenge) reads only what UpdateTop hands it, so each challenge
// can be synthesized on its own at the numbers its index gives (update_synthesis.hpp).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "filecoin/hash_circuits.hpp"
#include "filecoin/por_circuit.hpp"
#include "filecoin/update_params.hpp"

namespace cuzk::filecoin {

// One challenge's three inclusion proofs, in the circuit's terms (circuit.rs ChallengeProof): the leaves
// and paths of trees R old, D new and R new. The circuit reads only the siblings; the indices (the
// challenge's digits) are checked outside it (update_vanilla.hpp).
struct UpdateChallengeProof {
  Fr leaf_r_old, leaf_d_new, leaf_r_new;
  MerklePath path_r_old, path_d_new, path_r_new;
};

// Everything one partition's circuit is synthesized from: the public inputs' values (k, h and the three
// commitments) and the partition's vanilla proof (circuit.rs PrivateInputs).
struct UpdatePartitionProof {
  std::uint64_t k = 0;  // the partition
  unsigned h = 0;       // one of params.hs
  Fr comm_r_old, comm_d_new, comm_r_new;
  Fr comm_c, root_r_old, root_r_new;
  std::vector<Fr> apex_leafs;  // params.apex_leaves of tree D's nodes, partition k's
  std::vector<UpdateChallengeProof> challenges;
};

// Throws SynthesisError unless `proof` has the shape `params` give: k and h allowed, the apex leaf and
// challenge counts, every path's levels and siblings, and every challenge's tree D path sharing the
// partition path (its top partition_bits levels) with the first's, as the circuit assumes.
void check_update_proof_shape(const UpdateParams& params, const UpdatePartitionProof& proof);

// Tree D of the new data: binary, challenge_bits levels. Trees R: the sector's shape.
inline TreeShape update_tree_d_shape(const UpdateParams& params) {
  TreeShape t;
  t.base = 2;
  t.base_levels = params.challenge_bits;
  return t;
}

// neptune's poseidon_hash with explicit constants (GEN_RANDOMNESS).
template <class CS>
AllocatedNum poseidon_circuit_with(CS& cs, const gadgets::PoseidonConstants& constants, const AllocatedNum& a,
                                   const AllocatedNum& b) {
  const std::array<gadgets::Variable, 2> vars{a.variable(), b.variable()};
  std::array<Fr, 2> values{};
  if constexpr (CS::kWitness) values = {a.value(), b.value()};
  const gadgets::PoseidonDigest d =
      gadgets::poseidon_hash_circuit(cs, constants, std::span<const gadgets::Variable>(vars),
                                     CS::kWitness ? std::span<const Fr>(values) : std::span<const Fr>());
  return AllocatedNum(d.variable, d.value, CS::kWitness);
}

// storage-proofs-core por_no_challenge_input: the path's index bits are given (little-endian, consumed
// exactly: base levels, then sub and top), as are its siblings, already allocated; per level the
// insertion and the level's hash; then computed root · 1 = root.
template <class CS>
void enforce_inclusion_by_bits(CS& cs, const TreeLevels& tree, std::span<const Boolean> bits,
                               std::span<const std::vector<AllocatedNum>> siblings, const AllocatedNum& leaf,
                               const AllocatedNum& root) {
  if (siblings.size() != tree.arities.size())
    throw gadgets::SynthesisError("por: " + std::to_string(siblings.size()) + " path levels for a tree of " +
                                  std::to_string(tree.arities.size()));
  AllocatedNum cur = leaf;
  std::size_t bit = 0;
  for (std::size_t level = 0; level < tree.arities.size(); ++level) {
    const unsigned arity = tree.arities[level];
    const unsigned level_bits = static_cast<unsigned>(std::countr_zero(arity));
    if (bit + level_bits > bits.size() || siblings[level].size() + 1 != arity)
      throw gadgets::SynthesisError("por: the challenge bits or siblings do not fit the tree");
    const std::vector<AllocatedNum> preimage = gadgets::insert(
        cs, cur, bits.subspan(bit, level_bits), std::span<const AllocatedNum>(siblings[level]));
    bit += level_bits;
    if (tree.hash == TreeLevels::Hash::kSha256)
      cur = sha256_tree_node_circuit(cs, preimage[0], preimage[1]);
    else
      cur = poseidon_circuit(cs, std::span<const AllocatedNum>(preimage));
  }
  if (bit != bits.size()) throw gadgets::SynthesisError("por: challenge bits left over");
  enforce_equal(cs, cur, root);
}

// What every challenge reads from the partition's part before them.
struct UpdateTop {
  std::vector<Boolean> partition_bits;          // partition_bits of them
  std::vector<gadgets::AllocatedBit> h_select;  // 6
  AllocatedNum phi, root_r_old, root_r_new;
  std::vector<AllocatedNum> apex_leafs;
  std::vector<std::vector<Boolean>> generated_bits;  // per challenge, random_bits of them
};

namespace update_detail {

template <class CS>
std::vector<std::vector<AllocatedNum>> alloc_siblings(CS& cs, const MerklePath* path, std::size_t from,
                                                      std::size_t levels,
                                                      const std::vector<unsigned>& arities) {
  std::vector<std::vector<AllocatedNum>> out(levels);
  for (std::size_t l = 0; l < levels; ++l)
    for (unsigned i = 0; i + 1 < arities[from + l]; ++i)
      out[l].push_back(
          AllocatedNum::alloc(cs, [&]() -> const Fr& { return path->levels[from + l].siblings[i]; }));
  return out;
}

// gadgets.rs allocated_num_to_allocated_bits: 255 bits and Σ 2^i·bit_i · 1 = num.
template <class CS>
std::vector<gadgets::AllocatedBit> num_to_bits(CS& cs, const AllocatedNum& num) {
  using gadgets::LC;
  std::vector<gadgets::AllocatedBit> bits = gadgets::field_into_allocated_bits_le(cs, num.value());
  cs.enforce(
      [&](LC& a) {
        for (std::size_t i = 0; i < bits.size(); ++i) a.add(bits[i].variable(), gadgets::kPow2[i]);
      },
      [](LC& b) { b.add(gadgets::kOne); }, [&](LC& c) { c.add(num.variable()); });
  return bits;
}

}  // namespace update_detail

// The apex leaves hashed pairwise (SHA-256 hash2), row by row, left to right, up to one root.
template <class CS>
AllocatedNum apex_root(CS& cs, std::span<const AllocatedNum> apex_leafs) {
  std::vector<AllocatedNum> row(apex_leafs.begin(), apex_leafs.end());
  while (row.size() > 1) {
    std::vector<AllocatedNum> next;
    for (std::size_t i = 0; i + 1 < row.size(); i += 2)
      next.push_back(sha256_tree_node_circuit(cs, row[i], row[i + 1]));
    row = std::move(next);
  }
  return row[0];
}

// gadgets.rs apex_por: the apex root, whose path over the partition bits (siblings given) must lead to
// comm_d.
template <class CS>
void apex_por(CS& cs, std::span<const AllocatedNum> apex_leafs, std::span<const Boolean> partition_bits,
              std::span<const std::vector<AllocatedNum>> partition_path, const AllocatedNum& comm_d) {
  const AllocatedNum root = apex_root(cs, apex_leafs);
  enforce_inclusion_by_bits(cs, tree_d_levels(static_cast<unsigned>(partition_bits.size())), partition_bits,
                            partition_path, root, comm_d);
}

// gadgets.rs gen_challenge_bits: per digest j, its index k·digests + j (allocated and enforced),
// PoseidonGen(comm_r_new, index) and its 255 bits; each challenge takes the next random_bits of them.
template <class CS>
std::vector<std::vector<Boolean>> gen_challenge_bits(CS& cs, const UpdateParams& params,
                                                     const AllocatedNum& comm_r_new,
                                                     const AllocatedNum& partition) {
  using gadgets::AllocatedBit;
  using gadgets::LC;
  const gadgets::PoseidonConstants& gen = update_randomness_constants();
  std::vector<std::vector<Boolean>> generated;
  const unsigned digests = params.digests(), per_digest = params.challenges_per_digest();
  for (unsigned j = 0; j < digests; ++j) {
    const AllocatedNum digest_index =
        AllocatedNum::alloc(cs, [&] { return partition.value() * Fr::from_u64(digests) + Fr::from_u64(j); });
    // (digests · partition + j · ONE) · 1 = digest_index. Rust adds the j·ONE term for j = 0 too, with a zero
    // coefficient, which no matrix keeps (it is left out here, so structural shapes count it right).
    cs.enforce(
        [&](LC& a) {
          a.add(partition.variable(), Fr::from_u64(digests));
          if (j != 0) a.add(gadgets::kOne, Fr::from_u64(j));
        },
        [](LC& b) { b.add(gadgets::kOne); }, [&](LC& c) { c.add(digest_index.variable()); });
    const AllocatedNum digest = poseidon_circuit_with(cs, gen, comm_r_new, digest_index);
    const std::vector<AllocatedBit> digest_bits = update_detail::num_to_bits(cs, digest);
    const unsigned take =
        j + 1 == digests ? params.challenges - static_cast<unsigned>(generated.size()) : per_digest;
    for (unsigned c = 0; c < take; ++c)
      generated.emplace_back(digest_bits.begin() + c * params.random_bits(),
                             digest_bits.begin() + (c + 1) * params.random_bits());
  }
  return generated;
}

// The top part is three sections: the prefix (everything before apex_por), the apex tree's hashes (each one
// section of one shape, so that those of a row can be synthesized at once: update_assignment.cpp), and the
// suffix (the partition path to comm_d_new, gen_challenge_bits). What the prefix hands on:
struct UpdatePrefix {
  UpdateTop top;  // all but generated_bits
  AllocatedNum comm_d_new, comm_r_new, partition;
  std::vector<std::vector<AllocatedNum>> partition_path;
};

template <class CS>
UpdatePrefix synthesize_update_prefix(CS& cs, const UpdateParams& params, const UpdatePartitionProof* proof) {
  using gadgets::AllocatedBit;
  using gadgets::LC;
  const gadgets::PoseidonConstants& gen = update_randomness_constants();
  UpdatePrefix prefix;
  UpdateTop& top = prefix.top;
  std::uint64_t k_and_h = 0;
  if constexpr (CS::kWitness) k_and_h = update_k_and_h_select(params, proof->k, proof->h);
  const AllocatedNum k_and_h_select = AllocatedNum::alloc(cs, [&] { return Fr::from_u64(k_and_h); });
  k_and_h_select.inputize(cs);
  std::vector<AllocatedBit> bits;
  for (unsigned i = 0; i < params.partition_bits + params.hs.size(); ++i)
    bits.push_back(AllocatedBit::alloc(cs, (k_and_h >> i) & 1));
  cs.enforce(
      [&](LC& a) {
        for (std::size_t i = 0; i < bits.size(); ++i) a.add(bits[i].variable(), gadgets::kPow2[i]);
      },
      [](LC& b) { b.add(gadgets::kOne); }, [&](LC& c) { c.add(k_and_h_select.variable()); });
  top.partition_bits.assign(bits.begin(), bits.begin() + params.partition_bits);
  top.h_select.assign(bits.begin() + params.partition_bits, bits.end());
  prefix.partition = gadgets::pack_bits(cs, std::span<const Boolean>(top.partition_bits));

  auto public_field = [&](const Fr UpdatePartitionProof::*member) {
    const AllocatedNum n = AllocatedNum::alloc(cs, [&]() -> const Fr& { return proof->*member; });
    n.inputize(cs);
    return n;
  };
  const AllocatedNum comm_r_old = public_field(&UpdatePartitionProof::comm_r_old);
  prefix.comm_d_new = public_field(&UpdatePartitionProof::comm_d_new);
  prefix.comm_r_new = public_field(&UpdatePartitionProof::comm_r_new);
  top.phi = poseidon_circuit_with(cs, gen, prefix.comm_d_new, comm_r_old);

  auto private_field = [&](const Fr UpdatePartitionProof::*member) {
    return AllocatedNum::alloc(cs, [&]() -> const Fr& { return proof->*member; });
  };
  const AllocatedNum comm_c = private_field(&UpdatePartitionProof::comm_c);
  top.root_r_old = private_field(&UpdatePartitionProof::root_r_old);
  top.root_r_new = private_field(&UpdatePartitionProof::root_r_new);
  for (unsigned i = 0; i < params.apex_leaves; ++i)
    top.apex_leafs.push_back(AllocatedNum::alloc(cs, [&]() -> const Fr& { return proof->apex_leafs[i]; }));
  // The partition path: the top partition_bits levels of the first challenge's tree D path.
  const std::vector<unsigned> binary(params.challenge_bits, 2);
  prefix.partition_path = update_detail::alloc_siblings(
      cs, proof ? &proof->challenges[0].path_d_new : nullptr, params.challenge_bits - params.partition_bits,
      params.partition_bits, binary);

  for (const AllocatedNum* root : {&top.root_r_old, &top.root_r_new}) {
    const std::array<AllocatedNum, 2> preimage{comm_c, *root};
    enforce_equal(cs, poseidon_circuit(cs, std::span<const AllocatedNum>(preimage)),
                  root == &top.root_r_old ? comm_r_old : prefix.comm_r_new);
  }
  return prefix;
}

// The suffix, from the apex tree's root.
template <class CS>
void synthesize_update_suffix(CS& cs, const UpdateParams& params, UpdatePrefix& prefix,
                              const AllocatedNum& apex_root) {
  enforce_inclusion_by_bits(
      cs, tree_d_levels(params.partition_bits), std::span<const Boolean>(prefix.top.partition_bits),
      std::span<const std::vector<AllocatedNum>>(prefix.partition_path), apex_root, prefix.comm_d_new);
  prefix.top.generated_bits = gen_challenge_bits(cs, params, prefix.comm_r_new, prefix.partition);
}

// Everything before the first challenge, in order (apex_por between the prefix and gen_challenge_bits).
template <class CS>
UpdateTop synthesize_update_top(CS& cs, const UpdateParams& params, const UpdatePartitionProof* proof) {
  UpdatePrefix prefix = synthesize_update_prefix(cs, params, proof);
  const AllocatedNum root = apex_root(cs, std::span<const AllocatedNum>(prefix.top.apex_leafs));
  synthesize_update_suffix(cs, params, prefix, root);
  return std::move(prefix.top);
}

// Challenge `index` of the partition.
template <class CS>
void synthesize_update_challenge(CS& cs, const UpdateParams& params, const UpdateTop& top, unsigned index,
                                 const UpdateChallengeProof* proof) {
  using gadgets::LC;
  const gadgets::PoseidonConstants& gen = update_randomness_constants();
  std::vector<Boolean> c_bits = top.generated_bits[index];
  c_bits.insert(c_bits.end(), top.partition_bits.begin(), top.partition_bits.end());
  const std::size_t bit_len = c_bits.size();

  // get_challenge_high_bits: per allowed h, its high bits packed and kept only where h_select has its bit.
  std::vector<AllocatedNum> c_high_or_zero;
  for (std::size_t i = 0; i < params.hs.size(); ++i) {
    const AllocatedNum c_high =
        gadgets::pack_bits(cs, std::span<const Boolean>(c_bits).subspan(bit_len - params.hs[i]));
    const gadgets::AllocatedBit& selected = top.h_select[i];
    const AllocatedNum kept =
        AllocatedNum::alloc(cs, [&] { return selected.value() ? c_high.value() : Fr::zero(); });
    cs.enforce([&](LC& a) { a.add(c_high.variable()); }, [&](LC& b) { b.add(selected.variable()); },
               [&](LC& c) { c.add(kept.variable()); });
    c_high_or_zero.push_back(kept);
  }
  const AllocatedNum c_high = AllocatedNum::alloc(cs, [&] {
    Fr sum = Fr::zero();
    for (const AllocatedNum& n : c_high_or_zero) sum += n.value();
    return sum;
  });
  cs.enforce(
      [&](LC& a) {
        for (const AllocatedNum& n : c_high_or_zero) a.add(n.variable());
      },
      [](LC& b) { b.add(gadgets::kOne); }, [&](LC& c) { c.add(c_high.variable()); });
  const AllocatedNum rho = poseidon_circuit_with(cs, gen, top.phi, c_high);

  const AllocatedNum leaf_r_old = AllocatedNum::alloc(cs, [&]() -> const Fr& { return proof->leaf_r_old; });
  const AllocatedNum leaf_d_new = AllocatedNum::alloc(cs, [&]() -> const Fr& { return proof->leaf_d_new; });
  // label_r_new: leaf_d_new · rho, then (leaf_r_old + product) · 1 = leaf_r_new.
  const AllocatedNum product = leaf_d_new.mul(cs, rho);
  const AllocatedNum leaf_r_new = encode_circuit(cs, leaf_r_old, product);

  const TreeLevels tree_r = poseidon_tree_levels(params.tree);
  const std::span<const Boolean> bits(c_bits);
  const auto path_r_old = update_detail::alloc_siblings(cs, proof ? &proof->path_r_old : nullptr, 0,
                                                        tree_r.arities.size(), tree_r.arities);
  enforce_inclusion_by_bits(cs, tree_r, bits, std::span<const std::vector<AllocatedNum>>(path_r_old),
                            leaf_r_old, top.root_r_old);
  const auto path_r_new = update_detail::alloc_siblings(cs, proof ? &proof->path_r_new : nullptr, 0,
                                                        tree_r.arities.size(), tree_r.arities);
  enforce_inclusion_by_bits(cs, tree_r, bits, std::span<const std::vector<AllocatedNum>>(path_r_new),
                            leaf_r_new, top.root_r_new);

  const unsigned to_apex = params.challenge_bits - params.partition_bits - params.apex_bits;
  const AllocatedNum apex_leaf = gadgets::select(cs, std::span<const AllocatedNum>(top.apex_leafs),
                                                 bits.subspan(to_apex, params.apex_bits));
  const std::vector<unsigned> binary(to_apex, 2);
  const auto path_to_apex =
      update_detail::alloc_siblings(cs, proof ? &proof->path_d_new : nullptr, 0, to_apex, binary);
  enforce_inclusion_by_bits(cs, tree_d_levels(to_apex), bits.first(to_apex),
                            std::span<const std::vector<AllocatedNum>>(path_to_apex), leaf_d_new, apex_leaf);
}

// The whole partition in one constraint system, in order.
template <class CS>
void synthesize_update_partition(CS& cs, const UpdateParams& params, const UpdatePartitionProof* proof) {
  if constexpr (CS::kWitness) {
    if (!proof) throw gadgets::SynthesisError("SnapDeals circuit: witness synthesis needs the vanilla proof");
    check_update_proof_shape(params, *proof);
  }
  const UpdateTop top = synthesize_update_top(cs, params, proof);
  for (unsigned i = 0; i < params.challenges; ++i)
    synthesize_update_challenge(cs, params, top, i, proof ? &proof->challenges[i] : nullptr);
}

}  // namespace cuzk::filecoin
