// Our SHA-256 against FIPS 180 vectors, bellpepper's sha256 gadget vectors (test_against_vectors: the
// XorShift byte streams, whose digests bellpepper checks against the sha2 crate), and the
// compression-function and streaming contracts the circuit generator relies on.
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "filecoin/sha256.hpp"
#include "filecoin_test_util.hpp"

namespace cuzk::filecoin {
namespace {

using testing::ascii;
using testing::hex;

// rand_xorshift 0.3's XorShiftRng (from_seed reads four u32 LE): bellpepper's test data source.
class XorShift {
 public:
  explicit XorShift(const std::array<std::uint8_t, 16>& seed) {
    for (int i = 0; i < 4; ++i) {
      s_[i] = std::uint32_t(seed[4 * i]) | std::uint32_t(seed[4 * i + 1]) << 8 |
              std::uint32_t(seed[4 * i + 2]) << 16 | std::uint32_t(seed[4 * i + 3]) << 24;
    }
  }
  std::uint32_t next_u32() {
    const std::uint32_t t = s_[0] ^ (s_[0] << 11);
    s_[0] = s_[1];
    s_[1] = s_[2];
    s_[2] = s_[3];
    s_[3] = s_[3] ^ (s_[3] >> 19) ^ (t ^ (t >> 8));
    return s_[3];
  }

 private:
  std::uint32_t s_[4];
};

TEST(FilecoinSha256, ConstantsFollowTheirRecipe) {
  EXPECT_EQ(Sha256::initial_state()[0], 0x6a09e667u);
  EXPECT_EQ(Sha256::initial_state()[7], 0x5be0cd19u);
  EXPECT_EQ(Sha256::round_constants()[0], 0x428a2f98u);
  EXPECT_EQ(Sha256::round_constants()[1], 0x71374491u);
  EXPECT_EQ(Sha256::round_constants()[63], 0xc67178f2u);
}

TEST(FilecoinSha256, Fips180Vectors) {
  EXPECT_EQ(hex(Sha256::hash({})), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(hex(Sha256::hash(ascii("abc"))),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(hex(Sha256::hash(ascii("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"))),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(hex(Sha256::hash(
                ascii("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqk"
                      "lmnopqrlmnopqrsmnopqrstnopqrstu"))),
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
  const std::vector<std::uint8_t> million_a(1000000, 'a');
  EXPECT_EQ(hex(Sha256::hash(million_a)), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

// bellpepper test_blank_hash: one compression of the IV with the padded empty message.
TEST(FilecoinSha256, CompressionOfThePaddedEmptyMessage) {
  std::array<std::uint8_t, 64> block{};
  block[0] = 0x80;
  Sha256::State state = Sha256::initial_state();
  Sha256::compress(state, block.data());
  EXPECT_EQ(hex(Sha256::digest_of(state)),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

// bellpepper test_against_vectors: lengths 0..31 and the multiples of 8 in 32..248, the bytes drawn in
// turn from one XorShiftRng (each next_u32 truncated to a byte). Expected: SHA-256 over the 60 digests
// concatenated, and three of the digests, computed with Python's hashlib.
TEST(FilecoinSha256, BellpepperVectors) {
  XorShift rng(
      {0x59, 0x62, 0xbe, 0x3d, 0x76, 0x3d, 0x31, 0x8d, 0x17, 0xdb, 0x37, 0x32, 0x54, 0x06, 0xbc, 0xe5});
  Sha256 all_digests;
  int count = 0;
  for (std::size_t len = 0; len < 256; ++len) {
    if (len >= 32 && len % 8 != 0) continue;
    std::vector<std::uint8_t> data(len);
    for (auto& b : data) b = std::uint8_t(rng.next_u32());
    const auto digest = Sha256::hash(data);
    if (len == 1) {
      EXPECT_EQ(hex(digest), "c555eab45d08845ae9f10d452a99bfcb06f74a50b988fe7e48dd323789b88ee3");
    }
    if (len == 2) {
      EXPECT_EQ(hex(digest), "4ee8bdc431df65f0c739033c1a472bc785d6db0bb0426877c617980a3440ccc1");
    }
    if (len == 248) {
      EXPECT_EQ(hex(digest), "c8397230cfda069275d8c4479296f06e1771b023bcb29149749920d581117894");
    }
    all_digests.update(digest);
    ++count;
  }
  EXPECT_EQ(count, 60);
  EXPECT_EQ(hex(all_digests.finish()), "e48b72c8a2178019d94e987b61a4ed671d9ee93dfc3652556bc280282722c29d");
}

TEST(FilecoinSha256, StreamingEqualsWholeMessageAndPaddedBlocks) {
  std::vector<std::uint8_t> message(300);
  for (std::size_t i = 0; i < message.size(); ++i) message[i] = std::uint8_t(i * 7 + 3);
  for (std::size_t len : {0, 1, 55, 56, 63, 64, 65, 119, 120, 128, 300}) {
    const std::span<const std::uint8_t> m(message.data(), len);
    const auto whole = Sha256::hash(m);
    for (std::size_t chunk : {1, 13, 32, 64, 100}) {
      Sha256 hasher;
      for (std::size_t i = 0; i < len; i += chunk) hasher.update(m.subspan(i, std::min(chunk, len - i)));
      EXPECT_EQ(hasher.length(), len);
      EXPECT_EQ(hasher.finish(), whole) << "len " << len << " chunk " << chunk;
    }
    // The padded message, compressed block by block from the IV, gives the same digest.
    const auto padded = Sha256::padded(m);
    ASSERT_EQ(padded.size() % 64, 0u);
    EXPECT_EQ(padded.size(), (len + 9 + 63) / 64 * 64);
    Sha256::State state = Sha256::initial_state();
    for (std::size_t i = 0; i < padded.size(); i += 64) Sha256::compress(state, padded.data() + i);
    EXPECT_EQ(Sha256::digest_of(state), whole) << "len " << len;
  }
}

TEST(FilecoinSha256, UseAfterFinishThrows) {
  Sha256 hasher;
  hasher.finish();
  EXPECT_THROW(hasher.finish(), std::logic_error);
  EXPECT_THROW(hasher.update(ascii("x")), std::logic_error);
}

}  // namespace
}  // namespace cuzk::filecoin
