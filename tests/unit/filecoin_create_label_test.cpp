// The label gadget against rust-fil-proofs' test_create_label (storage-proofs-porep create_label.rs): the
// same layout (replica id and the 37 parent slots as allocated bits, each byte most significant bit first;
// layer and node constants) gives its 532,025 rows, and the label equals the CPU's (sdr_labels.hpp).
#include <gtest/gtest.h>

#include <random>

#include "filecoin/hash_circuits.hpp"
#include "filecoin/porep_vanilla_verify.hpp"
#include "filecoin/sdr_labels.hpp"
#include "gadgets/constraint_system.hpp"

namespace cuzk::filecoin {
namespace {

template <class CS>
std::vector<Boolean> alloc_bytes_be(CS& cs, const std::array<std::uint8_t, 32>& bytes) {
  std::vector<Boolean> bits;
  for (std::uint8_t b : bytes)
    for (int i = 7; i >= 0; --i) bits.push_back(gadgets::AllocatedBit::alloc(cs, (b >> i) & 1));
  return bits;
}

TEST(CreateLabelCircuit, RustFilProofsLayoutCountAndValue) {
  const std::uint64_t nodes = 64, node = 22;
  const std::uint32_t layer = 3;
  PorepId porep_id;
  porep_id.fill(32);
  const SdrGraph graph(nodes, porep_id, ApiVersion::V1_1_0);
  std::mt19937_64 rng(5);
  auto random_label = [&] {
    Label l;
    for (auto& b : l) b = static_cast<std::uint8_t>(rng());
    trim_to_fr32(l);
    return l;
  };
  const ReplicaId replica_id = random_label();
  // Parent labels in parent-list order: 6 DRG (this layer), then 8 expander (the layer before).
  const auto parents = graph.parents(node);
  std::vector<Label> parent_labels;
  for (std::size_t i = 0; i < parents.size(); ++i) parent_labels.push_back(random_label());

  gadgets::RecordCS<true> cs;
  std::vector<std::vector<Boolean>> slots;  // 14 + 14 + 9, each allocated on its own as in the Rust test
  for (std::size_t s = 0; s < kTotalParents; ++s) slots.push_back(alloc_bytes_be(cs, parent_labels[s % 14]));
  const std::vector<Boolean> id_bits = alloc_bytes_be(cs, replica_id);
  std::vector<const std::vector<Boolean>*> slot_ptrs;
  for (const auto& s : slots) slot_ptrs.push_back(&s);
  const AllocatedNum label = create_label_circuit(cs, std::span<const Boolean>(id_bits),
                                                  std::span<const std::vector<Boolean>* const>(slot_ptrs),
                                                  layer, gadgets::UInt64::constant(node));
  EXPECT_EQ(cs.num_constraints(), 532'025u);
  EXPECT_TRUE(cs.is_satisfied());
  const Label expected = label_from_parents(replica_id, layer, node, parent_labels);
  EXPECT_EQ(label.value(), fr_from_repr(expected));
}

}  // namespace
}  // namespace cuzk::filecoin
