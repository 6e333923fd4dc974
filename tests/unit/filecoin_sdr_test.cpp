// SDR labelling and its primitives: BLAKE2b and ChaCha8 against published vectors, the Feistel
// permutation and the parent graph against storage-proofs' own tests, and whole-sector labels against
// storage-proofs-porep tests/stacked_vanilla.rs test_stacked_porep_generate_labels.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "filecoin/blake2b.hpp"
#include "filecoin/chacha.hpp"
#include "filecoin/feistel.hpp"
#include "filecoin/replica_id.hpp"
#include "filecoin/sdr_graph.hpp"
#include "filecoin/sdr_labels.hpp"
#include "filecoin/sha256.hpp"
#include "filecoin_test_util.hpp"

namespace cuzk::filecoin {
namespace {

using testing::ascii;
using testing::hex;

// The 32 LE bytes of a field element given as four u64 limbs, least significant first (blstrs'
// Scalar::from_u64s_le(...).to_repr()).
Label label_from_limbs(std::uint64_t l0, std::uint64_t l1, std::uint64_t l2, std::uint64_t l3) {
  Label out;
  const std::uint64_t limbs[4] = {l0, l1, l2, l3};
  for (int i = 0; i < 32; ++i) out[i] = std::uint8_t(limbs[i / 8] >> (8 * (i % 8)));
  return out;
}

PorepId porep_id_filled(std::uint8_t byte) {
  PorepId id;
  id.fill(byte);
  return id;
}

PorepId porep_id_first_byte(std::uint8_t byte) {
  PorepId id{};
  id[0] = byte;
  return id;
}

// ---- primitives ----

// RFC 7693 appendix A ("abc"); the others computed with Python's hashlib.blake2b.
TEST(FilecoinBlake2b, Vectors) {
  EXPECT_EQ(hex(Blake2b::hash512(ascii("abc"))),
            "ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d17d87c5392aab792dc252d5de4533cc95"
            "18d38aa"
            "8dbf1925ab92386edd4009923");
  EXPECT_EQ(hex(Blake2b::hash512({})),
            "786a02f742015903c6c6fd852552d272912f4740e15847618a86e217f71f5419d25e1031afee585313896444934eb04b"
            "903a685"
            "b1448b755d56f701afe9be2ce");
  std::vector<std::uint8_t> counting(200);
  for (std::size_t i = 0; i < counting.size(); ++i) counting[i] = std::uint8_t(i);
  EXPECT_EQ(hex(Blake2b::hash512(std::span(counting).first(128))),  // exactly one block
            "2319e3789c47e2daa5fe807f61bec2a1a6537fa03f19ff32e87eecbfd64b7e0e8ccff439ac333b040f19b0c4ddd11a61"
            "e24ac1f"
            "e0f10a039806c5dcc0da3d115");
  EXPECT_EQ(hex(Blake2b::hash512(counting)),
            "fb3c1f0f56a56f8e316fdf5d853c8c872c39635d083634c3904fc3ac07d1b578e85ff0e480e92d44ade33b62e893ee32"
            "343e79d"
            "df6ef292e89b582d312502314");
  // Keyed, 32-byte digests (the synthetic-challenge PRF keys are made this way), fed in pieces.
  EXPECT_EQ(hex(Blake2b(32, std::span(counting).first(64)).finish()),
            "2fa9fbd9be36437de204e139e97d402bce68c828f43391608c891b5faed8a98a");
  Blake2b keyed(32, ascii("filecoin.io|PoRep|1|Synthetic|1|Generation"));
  keyed.update(std::span(counting).first(50)).update(std::span(counting).subspan(50, 78));
  EXPECT_EQ(hex(keyed.finish()), "81efb955432087fa49e87280c496e34cbeaeb7b3f234da8a9a8a787ba3f3e6c3");
  EXPECT_THROW(Blake2b(0), std::invalid_argument);
  EXPECT_THROW(Blake2b(65), std::invalid_argument);
}

// ChaCha with 8 rounds, 256-bit zero key, zero IV: the first keystream block of the
// draft-strombergson-chacha-test-vectors TC1; the RNG returns it as LE words and pairs them low-first.
TEST(FilecoinChaCha8Rng, ZeroSeedKeystream) {
  const std::array<std::uint8_t, 32> seed{};
  ChaCha8Rng rng(seed);
  std::vector<std::uint8_t> stream;
  for (int i = 0; i < 16; ++i) {
    const std::uint32_t w = rng.next_u32();
    for (int j = 0; j < 4; ++j) stream.push_back(std::uint8_t(w >> (8 * j)));
  }
  EXPECT_EQ(hex(stream),
            "3e00ef2f895f40d67f5bb8e81f09a5a12c840ec3ce9a7f3b181be188ef711a1e984ce172b9216f419f445367456d5619"
            "314a42a"
            "3da86b001387bfdb80e0cfe42");
  ChaCha8Rng again(seed);
  EXPECT_EQ(again.next_u64(), 0xd6405f892fef003eull);
  for (int i = 0; i < 6; ++i) again.next_u64();  // words 2..13
  EXPECT_EQ(again.next_u32(), 0xb8fd7b38u);      // word 14
  // A u64 straddling the refill: word 15 low, then word 0 of block 1 (counter 1) high, as rand_core's
  // BlockRng does.
  EXPECT_EQ(again.next_u64(), 0x0dfaaed242fe0c0eull);
  EXPECT_EQ(again.next_u32(), 0x51c1a5eau);
}

TEST(FilecoinFeistel, Precompute) {
  const auto p = feistel_precompute(std::uint64_t(8) << 30);  // 32 GiB: 2^33 expander slots
  EXPECT_EQ(p.half_bits, 17u);
  EXPECT_EQ(p.right_mask, (std::uint64_t(1) << 17) - 1);
  EXPECT_EQ(p.left_mask, ((std::uint64_t(1) << 17) - 1) << 17);
  EXPECT_EQ(feistel_precompute(1).half_bits, 1u);
  EXPECT_EQ(feistel_precompute(4).half_bits, 1u);
  EXPECT_EQ(feistel_precompute(5).half_bits, 2u);
}

// storage-proofs-core feistel.rs test_feistel_power_of_4 and test_feistel_on_arbitrary_set, keys 1..4.
TEST(FilecoinFeistel, PermutationsLikeStorageProofsTests) {
  const FeistelKeys keys = {1, 2, 3, 4};
  for (std::uint64_t n = 4; n <= 256; n *= 4) {
    const auto p = feistel_precompute(n);
    std::set<std::uint64_t> seen;
    for (std::uint64_t i = 0; i < n; ++i) {
      const std::uint64_t e = feistel_encode(i, keys, p);
      EXPECT_LT(e, n);
      EXPECT_EQ(feistel_decode(e, keys, p), i);
      seen.insert(e);
    }
    EXPECT_EQ(seen.size(), n);
  }
  for (std::uint64_t n : {5, 6, 8, 12, 17}) {
    const auto p = feistel_precompute(n);
    bool plain_encode_failed = false;
    std::set<std::uint64_t> seen;
    for (std::uint64_t i = 0; i < n; ++i) {
      const std::uint64_t e = feistel_encode(i, keys, p);
      if (e >= n || feistel_decode(e, keys, p) != i) plain_encode_failed = true;
      const std::uint64_t q = feistel_permute(n, i, keys, p);
      EXPECT_LT(q, n);
      EXPECT_EQ(feistel_invert_permute(n, q, keys, p), i);
      seen.insert(q);
    }
    EXPECT_TRUE(plain_encode_failed) << "n = " << n;
    EXPECT_EQ(seen.size(), n);
  }
}

// ---- graph ----

TEST(FilecoinSdrGraph, SeedsAndPorepIds) {
  const PorepId id = porep_id_for(8);  // StackedDrg32GiBV1_1
  EXPECT_EQ(id[0], 8);
  for (int i = 1; i < 32; ++i) EXPECT_EQ(id[i], 0);
  EXPECT_EQ(porep_id_for(0x0102, 3)[8], 3);
  EXPECT_EQ(porep_id_for(0x0102, 3)[1], 1);
  // The domain seed is SHA-256 over the tag's bytes then the id.
  std::vector<std::uint8_t> message(kFeistelDst.begin(), kFeistelDst.end());
  message.insert(message.end(), id.begin(), id.end());
  const auto seed = Sha256::hash(message);
  EXPECT_EQ(derive_porep_domain_seed(kFeistelDst, id), seed);
  const auto keys = derive_feistel_keys(id);
  EXPECT_EQ(keys[1] & 0xff, seed[8]);
  EXPECT_EQ(keys[1] >> 56, seed[15]);
  const auto drg = derive_drg_seed(id);
  EXPECT_EQ(hex(drg), hex(derive_porep_domain_seed(kDrsampleDst, id)).substr(0, 56));
}

// storage-proofs-core drgraph.rs graph_bucket: legacy porep id 0 with V1_0_0, id 5 with V1_2_0.
TEST(FilecoinSdrGraph, BucketGraphLikeStorageProofsTest) {
  for (auto [porep_byte, version] : {std::pair{0, ApiVersion::V1_0_0}, std::pair{5, ApiVersion::V1_2_0}}) {
    for (std::uint64_t size : {4, 16, 256, 2048}) {
      const SdrGraph g(size, porep_id_first_byte(std::uint8_t(porep_byte)), version);
      EXPECT_EQ(g.base_parents(0), (std::array<std::uint32_t, 6>{}));
      EXPECT_EQ(g.base_parents(1), (std::array<std::uint32_t, 6>{}));
      for (std::uint64_t node = 2; node < size; ++node) {
        const auto p = g.base_parents(node);
        for (std::uint32_t parent : p) {
          EXPECT_NE(parent, node);
          EXPECT_LT(parent, node);
        }
        EXPECT_EQ(p[version == ApiVersion::V1_0_0 ? 5 : 0], node - 1);
        EXPECT_EQ(p, g.base_parents(node));
        for (std::uint32_t parent : g.expander_parents(node)) EXPECT_LT(parent, size);
      }
    }
  }
  const SdrGraph g(16, porep_id_first_byte(5), ApiVersion::V1_2_0);
  EXPECT_THROW(g.base_parents(16), std::out_of_range);
  EXPECT_THROW(SdrGraph(1, porep_id_first_byte(5), ApiVersion::V1_2_0), std::invalid_argument);
  EXPECT_THROW(SdrGraph(std::uint64_t(1) << 32, porep_id_first_byte(5), ApiVersion::V1_2_0),
               std::invalid_argument);
}

// graph.rs test_high_parent_bits: on a 64 GiB graph the first 3 children reach expander parents at or
// above 2^29 (a u32-truncated index would not).
TEST(FilecoinSdrGraph, ExpanderParentsUseAllBits) {
  PorepId id{};
  id[0] = 5;
  const SdrGraph g(std::uint64_t(1) << 31, id, ApiVersion::V1_2_0);
  bool high = false;
  for (std::uint64_t v = 0; v < 3; ++v) {
    for (std::uint32_t u : g.expander_parents(v)) high |= u >= (1u << 29);
  }
  EXPECT_TRUE(high);
}

// graph.rs test_graph_distribution_pathology: legacy graphs never pick expander parents in the upper
// half of a 32 GiB sector (over the first 1000 nodes); fixed ones do.
TEST(FilecoinSdrGraph, LegacyExpanderPathology) {
  const std::uint64_t nodes = std::uint64_t(1) << 30;
  const SdrGraph legacy(nodes, porep_id_first_byte(3), ApiVersion::V1_0_0);
  for (std::uint64_t v = 0; v < 1000; ++v) {
    for (std::uint32_t u : legacy.expander_parents(v)) ASSERT_LT(u, nodes / 2) << "node " << v;
  }
  for (ApiVersion version : {ApiVersion::V1_1_0, ApiVersion::V1_2_0}) {
    const SdrGraph fixed(nodes, porep_id_first_byte(8), version);
    bool large = false;
    for (std::uint64_t v = 0; v < 1000 && !large; ++v) {
      for (std::uint32_t u : fixed.expander_parents(v)) large |= u >= nodes / 2;
    }
    EXPECT_TRUE(large);
  }
}

// ---- labels ----

struct LabelCase {
  std::uint64_t sector_bytes;
  std::uint8_t porep_byte;
  ApiVersion version;
  Label expected_last;
};

// tests/stacked_vanilla.rs test_stacked_porep_generate_labels: replica id [9; 32], 11 layers, the last
// label of the last layer.
TEST(FilecoinSdrLabels, StackedVanillaGenerateLabels) {
  const std::vector<LabelCase> cases = {
      {2048, 0, ApiVersion::V1_0_0,
       label_from_limbs(0xd3faa96b9a0fba04, 0xea81a283d106485e, 0xe3d51b9afa5ac2b3, 0x0462f4f4f1a68d37)},
      {4096, 0, ApiVersion::V1_0_0,
       label_from_limbs(0x7e191e52c4a8da86, 0x5ae8a1c9e6fac148, 0xce239f3b88a894b8, 0x234c00d1dc1d53be)},
      {2048, 123, ApiVersion::V1_1_0,
       label_from_limbs(0xabb3f38bb70defcf, 0x777a2e4d7769119f, 0x3448959d495490bc, 0x06021188c7a71cb5)},
      {4096, 123, ApiVersion::V1_1_0,
       label_from_limbs(0x22ab81cf68c4676d, 0x7a77a82fc7c9c189, 0xc6c03d32c1e42d23, 0x0f777c18cc2c55bd)},
      {2048, 123, ApiVersion::V1_2_0,
       label_from_limbs(0xabb3f38bb70defcf, 0x777a2e4d7769119f, 0x3448959d495490bc, 0x06021188c7a71cb5)},
      {4096, 123, ApiVersion::V1_2_0,
       label_from_limbs(0x22ab81cf68c4676d, 0x7a77a82fc7c9c189, 0xc6c03d32c1e42d23, 0x0f777c18cc2c55bd)},
  };
  ReplicaId replica_id;
  replica_id.fill(9);
  for (const auto& c : cases) {
    const SdrGraph graph(c.sector_bytes / sizeof(Label), porep_id_filled(c.porep_byte), c.version);
    const auto labels = generate_labels(graph, replica_id, 11);
    ASSERT_EQ(labels.size(), 11u);
    EXPECT_EQ(hex(labels.back().back()), hex(c.expected_last))
        << c.sector_bytes << " bytes, porep id byte " << int(c.porep_byte);
  }
}

TEST(FilecoinSdrLabels, OneNodeFromItsParentsMatchesTheSector) {
  ReplicaId replica_id;
  for (int i = 0; i < 32; ++i) replica_id[i] = std::uint8_t(i * 5 + 1);
  replica_id[31] &= 0x3f;
  const SdrGraph graph(256, porep_id_for(5), ApiVersion::V1_1_0);
  const auto labels = generate_labels(graph, replica_id, 3);
  for (std::uint32_t layer = 1; layer <= 3; ++layer) {
    for (std::uint64_t node : {0, 1, 2, 77, 255}) {
      const auto parents = graph.parents(node);
      std::vector<Label> parent_labels;
      for (std::size_t i = 0; i < label_parent_count(layer, node); ++i) {
        const auto& source = i < kBaseDegree ? labels[layer - 1] : labels[layer - 2];
        parent_labels.push_back(source[parents[i]]);
      }
      const Label label = label_from_parents(replica_id, layer, node, parent_labels);
      EXPECT_EQ(label, labels[layer - 1][node]) << "layer " << layer << " node " << node;
      EXPECT_EQ(label[31] & 0xc0, 0);

      const auto preimage = label_preimage(replica_id, layer, node, parent_labels);
      ASSERT_EQ(preimage.size(), node == 0 ? 64u : 64u + 37 * 32);
      EXPECT_TRUE(std::equal(replica_id.begin(), replica_id.end(), preimage.begin()));
      EXPECT_EQ(preimage[35], layer);               // layer: u32 BE at 32..35
      EXPECT_EQ(preimage[43], std::uint8_t(node));  // node: u64 BE at 36..43
      for (int i = 44; i < 64; ++i) EXPECT_EQ(preimage[i], 0);
      Label direct = Sha256::hash(preimage);
      trim_to_fr32(direct);
      EXPECT_EQ(direct, label);
    }
  }
  EXPECT_THROW(label_from_parents(replica_id, 1, 5, std::vector<Label>(14)), std::invalid_argument);
  EXPECT_THROW(label_from_parents(replica_id, 2, 0, std::vector<Label>(14)), std::invalid_argument);
  EXPECT_THROW(label_from_parents(replica_id, 0, 0, {}), std::invalid_argument);
}

TEST(FilecoinSdrLabels, ParentSchedule) {
  const auto base = label_parent_schedule(1);
  const auto exp = label_parent_schedule(2);
  for (std::size_t i = 0; i < 37; ++i) {
    EXPECT_EQ(base[i], i % 6);
    EXPECT_EQ(exp[i], i % 14);
  }
  EXPECT_EQ(base[36], 0);
  EXPECT_EQ(exp[36], 8);
}

// generate_replica_id's recipe; expected computed with Python's hashlib.
TEST(FilecoinReplicaId, Recipe) {
  std::array<std::uint8_t, 32> prover_id, ticket, comm_d;
  for (int i = 0; i < 32; ++i) prover_id[i] = std::uint8_t(i);
  ticket.fill(7);
  comm_d.fill(0xaa);
  const ReplicaId id = generate_replica_id(prover_id, 1234567, ticket, comm_d, porep_id_for(8));
  EXPECT_EQ(hex(id), "e7756e71cae3c76aae5aa7490080054f19d1e2b69d49eeab6533522eaf69bc24");
}

}  // namespace
}  // namespace cuzk::filecoin
