// bellperson's UInt32, MultiEq and SHA-256 circuits: values, folding, MultiEq's packing and flush points,
// bellperson's constraint counts and known-answer vectors, every mode agreeing.
#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cstdint>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "filecoin/sha256.hpp"
#include "gadgets/sha256.hpp"
#include "gadgets_test_util.hpp"

namespace cuzk::gadgets {
namespace {

using testing::is_witness;
using testing::Recorded;
using testing::row_terms;
using testing::run_all_modes;

// ---- the CPU SHA-256 (src/filecoin/sha256.hpp) checks the circuit's values ----

std::array<std::uint32_t, 8> cpu_compress(std::array<std::uint32_t, 8> h, const std::uint8_t* block) {
  filecoin::Sha256::compress(h, block);
  return h;
}

std::array<std::uint8_t, 32> cpu_sha256(const std::vector<std::uint8_t>& msg) {
  return filecoin::Sha256::hash(msg);
}

std::string hex(std::span<const std::uint8_t> b) {
  static const char* d = "0123456789abcdef";
  std::string s;
  for (std::uint8_t x : b) s += d[x >> 4], s += d[x & 15];
  return s;
}

std::vector<std::uint8_t> bytes_of(const std::string& s) {
  return {s.begin(), s.end()};
}

// Digest bits (most significant first per byte) back to bytes.
std::array<std::uint8_t, 32> digest_bytes(const std::vector<Boolean>& bits) {
  std::array<std::uint8_t, 32> out{};
  for (std::size_t i = 0; i < 256; ++i)
    if (bits[i].value()) out[i / 8] |= static_cast<std::uint8_t>(0x80 >> (i % 8));
  return out;
}

template <class CS>
std::vector<Boolean> alloc_message_bits(CS& cs, const std::vector<std::uint8_t>& msg) {
  std::vector<Boolean> bits;
  for (std::uint8_t byte : msg)
    for (int i = 7; i >= 0; --i) bits.push_back(AllocatedBit::alloc(cs, (byte >> i) & 1));
  return bits;
}

TEST(Sha256, ConstantsFromTheirRecipeAndTheCpuReference) {
  EXPECT_EQ(kSha256Iv, filecoin::Sha256::initial_state());
  EXPECT_EQ(kSha256RoundConstants, filecoin::Sha256::round_constants());

  EXPECT_EQ(hex(cpu_sha256({})), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(hex(cpu_sha256(bytes_of("abc"))),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(hex(cpu_sha256(bytes_of("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"))),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

// ---- UInt32 ----

TEST(UInt32, BitOrdersAndConstants) {
  std::mt19937 rng(5);
  for (int t = 0; t < 200; ++t) {
    const std::uint32_t v = rng();
    const UInt32 c = UInt32::constant(v);
    for (int i = 0; i < 32; ++i) {
      EXPECT_TRUE(c.bits()[i].is_constant());
      EXPECT_EQ(c.bits()[i].value(), ((v >> i) & 1) != 0);
    }
    const UInt32::Bits be = c.into_bits_be();
    for (int i = 0; i < 32; ++i) EXPECT_EQ(be[i].value(), ((v >> (31 - i)) & 1) != 0);
    EXPECT_EQ(UInt32::from_bits_be(be).value(), v);
    EXPECT_EQ(UInt32::from_bits(c.into_bits()).value(), v);
    for (std::size_t k = 0; k < 40; ++k) {
      EXPECT_EQ(c.rotr(k).value(), std::rotr(v, static_cast<int>(k % 32)));
      const UInt32 s = c.shr(k);
      EXPECT_EQ(s.value(), v >> (k % 32));  // bellpepper takes the shift mod 32
      for (int i = 0; i < 32; ++i) EXPECT_EQ(s.bits()[i].value(), ((*s.value() >> i) & 1) != 0);
    }
  }
}

TEST(UInt32, AllocatedValuesAreUnknownWithoutAWitness) {
  ShapeCS shape;
  EXPECT_FALSE(UInt32::alloc(shape, 7).value());
  WitnessCS wit;
  EXPECT_EQ(UInt32::alloc(wit, 7).value(), 7u);
}

TEST(UInt32, XorMajChValues) {
  std::mt19937 rng(7);
  for (int t = 0; t < 50; ++t) {
    const std::uint32_t a = rng(), b = rng(), c = rng();
    std::optional<std::uint32_t> x, m, h;
    Recorded r = run_all_modes([&](auto& cs) {
      const UInt32 av = UInt32::alloc(cs, a), bv = UInt32::constant(b), cv = UInt32::alloc(cs, c);
      const UInt32 xr = av.xor_(cs, bv).xor_(cs, cv);
      const UInt32 mr = UInt32::sha256_maj(cs, av, bv, cv);
      const UInt32 hr = UInt32::sha256_ch(cs, av, bv, cv);
      if (is_witness(cs)) {
        x = xr.value(), m = mr.value(), h = hr.value();
        for (int i = 0; i < 32; ++i) {
          EXPECT_EQ(xr.bits()[i].value(), ((*x >> i) & 1) != 0);
          EXPECT_EQ(mr.bits()[i].value(), ((*m >> i) & 1) != 0);
          EXPECT_EQ(hr.bits()[i].value(), ((*h >> i) & 1) != 0);
        }
      }
    });
    EXPECT_EQ(x, a ^ b ^ c);
    EXPECT_EQ(m, (a & b) ^ (a & c) ^ (b & c));
    EXPECT_EQ(h, (a & b) ^ (~a & c));
    // allocations 64; a ⊕ constant folds, then 32 xors; maj and ch with b constant fold to one and per bit
    EXPECT_EQ(r.rows(), 64u + 32u + 32u + 32u);
  }
}

TEST(UInt32, AddmanyOfConstantsIsAConstant) {
  std::mt19937 rng(9);
  for (int t = 0; t < 100; ++t) {
    const std::uint32_t a = rng(), b = rng(), c = rng();
    ShapeCS cs;
    UInt32 sum;
    {
      MultiEq<ShapeCS> meq(cs);
      const std::array<UInt32, 3> ops{UInt32::constant(a), UInt32::constant(b), UInt32::constant(c)};
      sum = UInt32::addmany(meq, ops);
    }
    EXPECT_EQ(cs.num_constraints(), 0u);
    EXPECT_EQ(cs.num_aux(), 0u);
    EXPECT_EQ(sum.value(), a + b + c);
    for (int i = 0; i < 32; ++i) EXPECT_TRUE(sum.bits()[i].is_constant());
  }
}

TEST(UInt32, AddmanyAllocatesTheFullSumAndOnePackedRow) {
  std::mt19937 rng(11);
  for (int t = 0; t < 50; ++t) {
    const std::uint32_t a = rng(), b = rng(), c = rng(), d = rng();
    std::optional<std::uint32_t> got;
    std::vector<Variable> result_bits;
    Recorded r = run_all_modes([&](auto& cs) {
      const UInt32 av = UInt32::alloc(cs, a), dv = UInt32::alloc(cs, d);
      const UInt32 x = av.xor_(cs, UInt32::constant(b));
      MultiEq meq(cs);
      const std::array<UInt32, 3> ops{x, UInt32::constant(c), dv};
      const UInt32 s = UInt32::addmany(meq, ops);
      meq.finish();
      if (is_witness(cs)) {
        got = s.value();
        result_bits.clear();
        for (const Boolean& bit : s.bits()) {
          EXPECT_EQ(bit.kind(), Boolean::Kind::kIs);
          result_bits.push_back(bit.variable());
        }
      }
    });
    const std::uint32_t want = (a ^ b) + c + d;
    EXPECT_EQ(got, want);
    // 64 allocated operand bits, 34 result bits (3 operands), the packed row last
    ASSERT_EQ(r.rows(), 64u + 34u + 1u);
    ASSERT_EQ(r.num_aux(), 64u + 34u);
    const std::uint64_t full = std::uint64_t{a ^ b} + c + d;
    for (int i = 0; i < 34; ++i) EXPECT_EQ(r.aux[64 + i], ((full >> i) & 1) ? Fr::one() : Fr::zero());
    const std::size_t packed = r.rows() - 1;
    EXPECT_TRUE(row_terms(r.pc.system.b, packed) ==
                (std::vector<std::pair<std::uint32_t, Fr>>{{0, Fr::one()}}));
    // A: ONE (constants and Not bits) plus every operand bit; C: the 34 result bits with 2^i
    EXPECT_EQ(row_terms(r.pc.system.a, packed).size(), 1u + 64u);
    const auto cterms = row_terms(r.pc.system.c, packed);
    ASSERT_EQ(cterms.size(), 34u);
    for (int i = 0; i < 34; ++i) EXPECT_EQ(cterms[i].second, kPow2[i]);
    Fr& bit0 = r.value(result_bits[0]);
    bit0 = Fr::one() - bit0;
    EXPECT_EQ(r.first_unsatisfied(), std::optional<std::size_t>(packed));
  }
}

TEST(UInt32, AddmanyResultWidthFollowsTheOperandCount) {
  for (std::size_t n = 2; n <= 10; ++n) {
    ShapeCS cs;
    std::vector<UInt32> ops;
    for (std::size_t i = 0; i < n; ++i) ops.push_back(UInt32::alloc(cs, 0));
    MultiEq meq(cs);
    UInt32::addmany(meq, ops);
    const std::uint64_t width = n == 2 ? 33 : n <= 4 ? 34 : n <= 8 ? 35 : 36;
    EXPECT_EQ(cs.num_aux(), 32 * n + width) << n;
  }
  ShapeCS cs;
  MultiEq meq(cs);
  const std::vector<UInt32> one{UInt32::constant(1)};
  EXPECT_THROW(UInt32::addmany(meq, one), SynthesisError);
}

// bellpepper's addmany folds all-constant bits only when the sum is known: a word whose allocated bits were
// all shifted out keeps an unknown value in shape mode (so it allocates) but not with a witness (so it
// folds). The two modes then disagree, in bellpepper as here; SHA-256 never builds such a word.
TEST(UInt32, AddmanyOfShiftedOutAllocatedBitsFoldsOnlyWithAWitness) {
  auto circuit = [](auto& cs) {
    std::array<Boolean, 32> bits;
    bits[0] = AllocatedBit::alloc(cs, true);  // only bit 0 allocated
    const UInt32 x = UInt32::from_bits(bits).shr(1);
    MultiEq meq(cs);
    const std::array<UInt32, 2> ops{x, UInt32::constant(5)};
    UInt32::addmany(meq, ops);
  };
  ShapeCS shape;
  circuit(shape);
  WitnessCS wit;
  circuit(wit);
  EXPECT_EQ(shape.num_aux(), 1u + 33u);
  EXPECT_EQ(wit.num_aux(), 1u);
}

// ---- MultiEq ----

TEST(MultiEq, FlushesBeforeReachingTheCapacityAndAtTheEnd) {
  // 16 allocated words (512 rows), then 8 sums of pairs (33 bits each) in one MultiEq: 7·33 = 231 bits fit,
  // the 8th would make 264 ≥ 254, so its result bits come first, then the packed row of the first 7, then (at
  // the end) the packed row of the 8th.
  Recorded r = run_all_modes([](auto& cs) {
    std::vector<UInt32> w;
    for (std::uint32_t i = 0; i < 16; ++i) w.push_back(UInt32::alloc(cs, 0x9e3779b9u * (i + 1)));
    MultiEq meq(cs);
    for (int k = 0; k < 8; ++k) {
      const std::array<UInt32, 2> ops{w[2 * k], w[2 * k + 1]};
      UInt32::addmany(meq, ops);
    }
    EXPECT_EQ(meq.rows_emitted(), 1u);
    meq.finish();
    EXPECT_EQ(meq.rows_emitted(), 2u);
  });
  ASSERT_EQ(r.rows(), 512u + 8u * 33u + 2u);
  const std::size_t first = 512 + 8 * 33, second = first + 1;
  EXPECT_EQ(row_terms(r.pc.system.b, first).size(), 1u);
  EXPECT_EQ(row_terms(r.pc.system.b, second).size(), 1u);
  // The first packed row: 7 sums, 2·32 operand bits each, result bits shifted by 33k.
  const auto a = row_terms(r.pc.system.a, first);
  const auto c = row_terms(r.pc.system.c, first);
  ASSERT_EQ(a.size(), 7u * 64u);
  ASSERT_EQ(c.size(), 7u * 33u);
  // Operand word 2 (sum 1) bit 5: column 1 + 64 + 5, coefficient 2^(33 + 5)
  EXPECT_EQ(a[64 + 5].first, 1u + 64u + 5u);
  EXPECT_EQ(a[64 + 5].second, kPow2[38]);
  // Sum 6's result bit 32 (the carry): coefficient 2^(6·33 + 32)
  EXPECT_EQ(c[6 * 33 + 32].second, kPow2[6 * 33 + 32]);
  // The second packed row: the 8th sum alone, unshifted.
  const auto a2 = row_terms(r.pc.system.a, second);
  ASSERT_EQ(a2.size(), 64u);
  EXPECT_EQ(a2[0].second, Fr::one());
}

TEST(MultiEq, PacksUpTo253Bits) {
  auto equalities = [](auto& cs, std::vector<std::size_t> widths) {
    MultiEq meq(cs);
    for (std::size_t w : widths)
      meq.enforce_equal(
          w, [](LC&) {}, [](LC&) {});
    meq.finish();
    return meq.rows_emitted();
  };
  ShapeCS cs;
  EXPECT_EQ(equalities(cs, {250, 3}), 1u);
  EXPECT_EQ(equalities(cs, {250, 4}), 2u);
  EXPECT_EQ(equalities(cs, {100, 100, 53, 1}), 2u);
  EXPECT_EQ(equalities(cs, {}), 0u);
  EXPECT_THROW(equalities(cs, {254}), SynthesisError);
}

// ---- SHA-256 ----

TEST(Sha256, BlankHashOfConstantsHasNoRows) {
  std::vector<Boolean> block(512, Boolean::constant(false));
  block[0] = Boolean::constant(true);
  ShapeCS cs;
  const std::array<UInt32, 8> iv = get_sha256_iv();
  const auto out = sha256_digest_bits(sha256_compression_function(cs, block, iv));
  EXPECT_EQ(cs.num_constraints(), 0u);
  EXPECT_EQ(cs.num_aux(), 0u);
  EXPECT_EQ(hex(digest_bytes(out)), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(Sha256, OneCompressionOfAllocatedBitsIs25840Rows) {
  std::mt19937 rng(13);
  std::vector<std::uint8_t> block(64);
  for (auto& b : block) b = static_cast<std::uint8_t>(rng());
  std::array<std::uint32_t, 8> got{};
  Recorded r = run_all_modes([&](auto& cs) {
    const std::vector<Boolean> bits = alloc_message_bits(cs, block);
    const std::array<UInt32, 8> iv = get_sha256_iv();
    const std::array<UInt32, 8> out = sha256_compression_function(cs, bits, iv);
    if (is_witness(cs))
      for (int i = 0; i < 8; ++i) got[i] = *out[i].value();
  });
  EXPECT_EQ(r.rows() - 512, 25840u);  // bellperson's test_full_block
  EXPECT_EQ(got, cpu_compress(kSha256Iv, block.data()));
  std::cout << "one compression from the IV: " << r.rows() - 512 << " rows, " << r.num_aux() - 512
            << " aux, nnz A/B/C " << r.pc.shape.nnz_a << "/" << r.pc.shape.nnz_b << "/" << r.pc.shape.nnz_c
            << " (with the 512 input bits)\n";
  // The compression's last row is the MultiEq's packed row holding h7's sum: its C has h7's top carry bit,
  // the last variable allocated. Making that bit 2 breaks its boolean row first.
  const std::size_t last = r.rows() - 1;
  const std::uint32_t carry_col = static_cast<std::uint32_t>(r.num_inputs() + r.num_aux() - 1);
  EXPECT_TRUE(row_terms(r.pc.system.b, last) == (std::vector<std::pair<std::uint32_t, Fr>>{{0, Fr::one()}}));
  EXPECT_EQ(row_terms(r.pc.system.c, last).back().first, carry_col);
  r.aux.back() = Fr::from_u64(2);
  const auto bad = r.first_unsatisfied();
  ASSERT_TRUE(bad);
  EXPECT_TRUE(row_terms(r.pc.system.b, *bad) ==
              (std::vector<std::pair<std::uint32_t, Fr>>{{carry_col, Fr::one()}}));
}

TEST(Sha256, PaddedHashOfOneAllocatedBlockIs44874Rows) {
  std::mt19937 rng(17);
  std::vector<std::uint8_t> msg(64);
  for (auto& b : msg) b = static_cast<std::uint8_t>(rng());
  std::vector<Boolean> digest;
  Recorded r = run_all_modes([&](auto& cs) {
    const std::vector<Boolean> bits = alloc_message_bits(cs, msg);
    auto d = sha256(cs, bits);
    if (is_witness(cs)) digest = d;
  });
  EXPECT_EQ(r.rows() - 512, 44874u);  // bellperson's test_full_hash
  EXPECT_EQ(digest_bytes(digest), cpu_sha256(msg));
  std::cout << "sha256 of 64 allocated bytes: " << r.rows() - 512 << " rows, " << r.num_aux() - 512
            << " aux\n";
}

TEST(Sha256, BlockNoPaddingIsOneCompression) {
  std::vector<std::uint8_t> block(64);
  for (int i = 0; i < 64; ++i) block[i] = static_cast<std::uint8_t>(3 * i + 1);
  std::vector<Boolean> digest;
  Recorded r = run_all_modes([&](auto& cs) {
    auto d = sha256_block_no_padding(cs, alloc_message_bits(cs, block));
    if (is_witness(cs)) digest = d;
  });
  EXPECT_EQ(r.rows() - 512, 25840u);
  const std::array<std::uint32_t, 8> h = cpu_compress(kSha256Iv, block.data());
  for (int i = 0; i < 256; ++i) EXPECT_EQ(digest[i].value(), ((h[i / 32] >> (31 - i % 32)) & 1) != 0);
}

// bellperson's test_against_vectors: lengths 0..31 and 32..255 step 8 bytes (random data); the record and
// satisfaction check on a few lengths, the witness for all.
TEST(Sha256, AgainstTheCpuHash) {
  std::mt19937 rng(19);
  std::vector<std::size_t> lengths;
  for (std::size_t n = 0; n < 32; ++n) lengths.push_back(n);
  for (std::size_t n = 32; n < 256; n += 8) lengths.push_back(n);
  for (std::size_t n : {3, 55, 56, 64, 119, 120, 255}) lengths.push_back(n);
  for (std::size_t n : lengths) {
    std::vector<std::uint8_t> msg(n);
    for (auto& b : msg) b = static_cast<std::uint8_t>(rng());
    const auto want = cpu_sha256(msg);
    WitnessCS wit;
    const auto digest = sha256(wit, alloc_message_bits(wit, msg));
    EXPECT_EQ(hex(digest_bytes(digest)), hex(want)) << n << " bytes";
    if (n == 0) {
      for (const Boolean& b : digest) EXPECT_TRUE(b.is_constant());
    }
    if (n == 3 || n == 55 || n == 56 || n == 119) {
      std::vector<Boolean> d;
      run_all_modes([&](auto& cs) {
        auto x = sha256(cs, alloc_message_bits(cs, msg));
        if (is_witness(cs)) d = x;
      });
      EXPECT_EQ(digest_bytes(d), want);
    }
  }
  WitnessCS wit;
  EXPECT_EQ(hex(digest_bytes(sha256(wit, alloc_message_bits(wit, bytes_of("abc"))))),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(Sha256, RejectsPartialBytesAndWrongBlockSizes) {
  ShapeCS cs;
  std::vector<Boolean> bits(7);
  EXPECT_THROW(sha256(cs, bits), SynthesisError);
  EXPECT_THROW(sha256_block_no_padding(cs, bits), SynthesisError);
}

// The PoRep label's hash: SHA-256 of replica_id ‖ layer (a u32 constant, big-endian) ‖ node (64 allocated
// bits) ‖ zero padding to 64 bytes ‖ 37 parents of 32 bytes, where replica_id and each parent are 255
// allocated bits and a constant zero, bit-reversed inside each byte (so the constant is bit 248); then the
// first 254 digest bits packed. shared/reference/filecoin-circuits.md gives 522,269 rows per label.
TEST(Sha256, PoRepLabelShapedHash) {
  ShapeCS cs;
  auto field_bits = [&](std::vector<Boolean>& out) {
    std::vector<Boolean> le;
    for (int i = 0; i < 255; ++i) le.push_back(AllocatedBit::alloc(cs, false));
    le.push_back(Boolean::constant(false));
    for (int byte = 0; byte < 32; ++byte)
      for (int i = 7; i >= 0; --i) out.push_back(le[8 * byte + i]);
  };
  std::vector<Boolean> in;
  field_bits(in);
  const UInt32::Bits layer = UInt32::constant(3).into_bits_be();
  in.insert(in.end(), layer.begin(), layer.end());
  for (int i = 0; i < 64; ++i) in.push_back(AllocatedBit::alloc(cs, false));
  while (in.size() < 512) in.push_back(Boolean::constant(false));
  for (int p = 0; p < 37; ++p) field_bits(in);
  ASSERT_EQ(in.size(), 9984u);
  const std::uint64_t before = cs.num_constraints();
  const std::vector<Boolean> digest = sha256(cs, in);
  const std::uint64_t hash_rows = cs.num_constraints() - before;
  std::cout << "label hash: " << hash_rows << " rows\n";
  EXPECT_EQ(hash_rows + 1, 522269u);
}

}  // namespace
}  // namespace cuzk::gadgets
