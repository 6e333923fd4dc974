#include "filecoin/challenges.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <string_view>

#include "filecoin/blake2b.hpp"
#include "filecoin/chacha.hpp"
#include "filecoin/sha256.hpp"

namespace cuzk::filecoin {
namespace {

constexpr std::string_view kNiTag = "filecoin.io|PoRep|1|NonInteractive|1";
constexpr std::string_view kSynthGenerationKey = "filecoin.io|PoRep|1|Synthetic|1|Generation";
constexpr std::string_view kSynthSelectionKey = "filecoin.io|PoRep|1|Synthetic|1|Selection";
constexpr std::array<std::uint8_t, 12> kSynthNonce = {'s', 'y', 'n', 't', 'h', '-',
                                                      'p', 'o', 'r', 'e', 'p', 0};

std::span<const std::uint8_t> ascii(std::string_view s) {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

std::array<std::uint8_t, 4> le32(std::uint32_t v) {
  return {std::uint8_t(v), std::uint8_t(v >> 8), std::uint8_t(v >> 16), std::uint8_t(v >> 24)};
}

Bytes32 keyed_blake2b256(std::string_view key, const Bytes32& a, const Bytes32& b) {
  const auto digest = Blake2b(32, ascii(key)).update(a).update(b).finish();
  Bytes32 out;
  std::copy(digest.begin(), digest.end(), out.begin());
  return out;
}

// The challenges of partition k from a hasher that already absorbed everything before j.
std::vector<std::uint64_t> hashed_challenges(std::uint64_t sector_nodes, const Sha256& prefix,
                                             std::size_t per_partition, std::uint8_t k) {
  std::vector<std::uint64_t> out;
  out.reserve(per_partition);
  for (std::size_t i = 0; i < per_partition; ++i) {
    const auto j = std::uint32_t(per_partition * k + i);  // Rust computes in usize, then casts to u32
    Sha256 hasher = prefix;
    const auto digest = hasher.update(le32(j)).finish();
    out.push_back(challenge_from_le_bytes(digest, sector_nodes));
  }
  return out;
}

}  // namespace

std::uint64_t challenge_from_le_bytes(std::span<const std::uint8_t> le, std::uint64_t sector_nodes) {
  if (sector_nodes < 2) throw std::invalid_argument("challenges need a sector of at least 2 nodes");
  const std::uint64_t modulus = sector_nodes - 1;
  unsigned __int128 remainder = 0;
  for (std::size_t i = le.size(); i-- > 0;) remainder = (remainder << 8 | le[i]) % modulus;
  return std::uint64_t(remainder) + 1;
}

std::vector<std::uint64_t> interactive_challenges(std::uint64_t sector_nodes, const ReplicaId& replica_id,
                                                  const Bytes32& seed, std::size_t challenges_per_partition,
                                                  std::uint8_t k) {
  Sha256 prefix;
  prefix.update(replica_id).update(seed);
  return hashed_challenges(sector_nodes, prefix, challenges_per_partition, k);
}

std::vector<std::uint64_t> non_interactive_challenges(std::uint64_t sector_nodes, const ReplicaId& replica_id,
                                                      const Bytes32& comm_r,
                                                      std::size_t challenges_per_partition, std::uint8_t k) {
  Sha256 prefix;
  prefix.update(ascii(kNiTag)).update(replica_id).update(comm_r);
  return hashed_challenges(sector_nodes, prefix, challenges_per_partition, k);
}

SynthChallenges::SynthChallenges(std::uint64_t sector_nodes, const ReplicaId& replica_id,
                                 const Bytes32& comm_r, std::size_t num_synth_challenges)
    : sector_nodes_(sector_nodes),
      replica_id_(replica_id),
      generation_key_(keyed_blake2b256(kSynthGenerationKey, replica_id, comm_r)),
      count_(num_synth_challenges != 0 ? num_synth_challenges
                                       : std::size_t(std::min<std::uint64_t>(sector_nodes, kDefaultCount))) {
  if (sector_nodes < 2) throw std::invalid_argument("SynthChallenges: a sector of at least 2 nodes");
  if (count_ >= (std::uint64_t(1) << 32))
    throw std::invalid_argument("SynthChallenges: count must fit a u32");
}

std::uint64_t SynthChallenges::challenge(std::size_t i) const {
  if (i >= count_) {
    throw std::out_of_range("synthetic challenge " + std::to_string(i) + " of " + std::to_string(count_));
  }
  ChaCha20 prf(generation_key_, kSynthNonce);
  prf.seek(std::uint64_t(i) * 32);
  Bytes32 bytes{};
  prf.apply_keystream(bytes);
  return challenge_from_le_bytes(bytes, sector_nodes_);
}

std::vector<std::uint64_t> SynthChallenges::all() const {
  std::vector<std::uint64_t> out(count_);
  ChaCha20 prf(generation_key_, kSynthNonce);
  for (std::size_t i = 0; i < count_; ++i) {
    Bytes32 bytes{};
    prf.apply_keystream(bytes);
    out[i] = challenge_from_le_bytes(bytes, sector_nodes_);
  }
  return out;
}

std::vector<std::size_t> SynthChallenges::partition_indexes(std::size_t challenges_per_partition,
                                                            const Bytes32& rand, std::size_t k) const {
  ChaCha20 prf(keyed_blake2b256(kSynthSelectionKey, replica_id_, rand), kSynthNonce);
  prf.seek(std::uint64_t(k) * challenges_per_partition * 4);
  std::vector<std::uint8_t> bytes(challenges_per_partition * 4, 0);
  prf.apply_keystream(bytes);
  std::vector<std::size_t> out(challenges_per_partition);
  for (std::size_t i = 0; i < out.size(); ++i) {
    const std::uint32_t word = std::uint32_t(bytes[4 * i]) | std::uint32_t(bytes[4 * i + 1]) << 8 |
                               std::uint32_t(bytes[4 * i + 2]) << 16 | std::uint32_t(bytes[4 * i + 3]) << 24;
    out[i] = word % count_;
  }
  return out;
}

std::vector<std::uint64_t> SynthChallenges::partition_challenges(std::size_t challenges_per_partition,
                                                                 const Bytes32& rand, std::size_t k) const {
  std::vector<std::uint64_t> out;
  for (std::size_t index : partition_indexes(challenges_per_partition, rand, k))
    out.push_back(challenge(index));
  return out;
}

}  // namespace cuzk::filecoin
