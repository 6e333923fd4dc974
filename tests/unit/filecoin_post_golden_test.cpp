// The one real PoSt vanilla proof known (Curio's testgolden/post.vproof: a 32 GiB sector's WindowPoSt proof
// of 10 challenges, with postpub.json, the verify info it was made for). Read as filecoin-proofs reads it,
// its comm_r is the sealed CID's digest, its leaves are the ones the zero randomness challenges (so the
// challenge derivation is Filecoin's: a known-answer test), it satisfies the WindowPoSt circuit, and the
// circuit's public inputs are the ones filecoin-proofs computes from the chain's view alone (comm_r from
// the CID, challenges from randomness and sector number).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "ff/encoding.hpp"
#include "filecoin/poseidon.hpp"
#include "filecoin/post_synthesis.hpp"
#include "filecoin/post_vanilla.hpp"
#include "filecoin/registered_post_proof.hpp"

namespace cuzk::filecoin {
namespace {

const std::filesystem::path kData =
    std::filesystem::path(__FILE__).parent_path().parent_path() / "fixtures" / "filecoin";

std::vector<std::uint8_t> read_bytes(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  EXPECT_TRUE(in) << p;
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// RFC 4648 base32, lower case, no padding: the multibase 'b' form CIDs are written in.
std::vector<std::uint8_t> base32_lower(std::string_view text) {
  std::vector<std::uint8_t> out;
  std::uint32_t bits = 0, buffer = 0;
  for (char ch : text) {
    const int v = ch >= 'a' && ch <= 'z' ? ch - 'a' : ch >= '2' && ch <= '7' ? ch - '2' + 26 : -1;
    EXPECT_GE(v, 0) << ch;
    buffer = (buffer << 5) | static_cast<std::uint32_t>(v);
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<std::uint8_t>(buffer >> bits));
    }
  }
  return out;
}

// A sealed sector's CID (go-fil-commcid): CIDv1, codec fil-commitment-sealed (0xf102), multihash
// poseidon-bls12_381-a2-fc1 (0xb401) of 32 bytes; the digest is comm_r's little-endian bytes.
Fr comm_r_of_sealed_cid(const std::string& cid) {
  EXPECT_EQ(cid.front(), 'b');  // multibase base32
  const auto b = base32_lower(std::string_view(cid).substr(1));
  const std::vector<std::uint8_t> prefix{0x01, 0x82, 0xe2, 0x03, 0x81, 0xe8, 0x02, 0x20};
  EXPECT_EQ(b.size(), prefix.size() + 32);
  EXPECT_TRUE(std::equal(prefix.begin(), prefix.end(), b.begin()));
  const auto v = ff::from_bytes_le<Fr>(b.data() + prefix.size());
  EXPECT_TRUE(v.has_value());
  return v.value_or(Fr::zero());
}

TEST(PostGolden, CuriosRealWindowPostProofIsFilecoinsCircuitAndInputs) {
  const auto bytes = read_bytes(kData / "window-post-32GiB-golden.vproof");
  ASSERT_EQ(bytes.size(), 24'960u);
  std::ifstream info_file(kData / "window-post-32GiB-golden.json");
  const auto info = nlohmann::json::parse(info_file);
  const RegisteredPostProof* type =
      find_registered_post_proof(info["Proofs"][0]["PoStProof"].get<unsigned>());
  ASSERT_NE(type, nullptr);
  EXPECT_EQ(type->name, "StackedDrgWindow32GiBV1");
  EXPECT_EQ(type->kind, PostKind::kWindow);
  const auto params = post_params_for(PostKind::kWindow, "32GiB");
  ASSERT_EQ(type->sector_bytes, params.sector_bytes);

  const auto& sector = info["ChallengedSectors"][0];
  const std::uint64_t sector_number = sector["SectorNumber"].get<std::uint64_t>();
  const Fr comm_r = comm_r_of_sealed_cid(sector["SealedCID"]["/"].get<std::string>());
  std::array<std::uint8_t, 32> randomness{};
  const std::string rand_b64 = info["Randomness"].get<std::string>();
  ASSERT_EQ(rand_b64, std::string(43, 'A') + "=");  // 32 zero bytes

  const PostVanillaProof proof = decode_post_vanilla_proof(bytes, params, "post.vproof");
  EXPECT_EQ(proof.sector_id, sector_number);
  EXPECT_EQ(proof.comm_r, comm_r);
  ASSERT_EQ(proof.sectors.size(), 1u);
  // The leaves, as the proof's paths give them, and as the randomness challenges them.
  const std::vector<std::uint64_t> leaves{707914199, 439148358,  967788220, 548708700,  1061661429,
                                          6202012,   1055504637, 389535735, 1000069704, 600088878};
  EXPECT_EQ(proof.challenged_leaves[0], leaves);
  EXPECT_EQ(post_challenges(randomness, sector_number, params.nodes, params.challenges), leaves);
  EXPECT_EQ(encode_post_vanilla_proof(proof, params), bytes);

  // The partition (2,349 sectors) is this sector padded; every sector's part of the circuit is the same, so
  // a one-sector circuit checks it (the whole one is 125 M constraints of the same rows repeated).
  const std::vector<PostVanillaProof> proofs{proof};
  const auto sectors = post_circuit_sectors(params, proofs, randomness, type->api_version, 0);
  ASSERT_EQ(sectors.size(), 2349u);
  auto one = params;
  one.sectors = 1;
  const std::vector<PostSectorProof> first(sectors.begin(), sectors.begin() + 1);
  EXPECT_EQ(post_first_unsatisfied(one, first), -1);
  std::vector<Fr> expected{Fr::one(), comm_r};
  for (std::uint64_t c : leaves) expected.push_back(Fr::from_u64(c));
  EXPECT_EQ(post_witness(one, first).inputs, expected);

  // Any other randomness challenges other leaves: the proof is refused before any synthesis.
  auto other = randomness;
  other[0] = 1;
  EXPECT_THROW(post_circuit_sectors(params, proofs, other, type->api_version, 0), PostVanillaError);
}

// Curio's own Poseidon known answer (lib/proof/post_vproof_test.go TestPoseidonHashMulti): an arity-8 tree
// node, inputs and digest as little-endian hex.
TEST(PostGolden, CuriosPoseidonArity8KnownAnswer) {
  auto fr = [](const char* hex) {
    std::array<std::uint8_t, 32> b{};
    for (std::size_t i = 0; i < 32; ++i)
      b[i] = static_cast<std::uint8_t>(std::stoi(std::string(hex + 2 * i, 2), nullptr, 16));
    const auto v = ff::from_bytes_le<Fr>(b.data());
    EXPECT_TRUE(v.has_value()) << hex;
    return v.value_or(Fr::zero());
  };
  const std::array<Fr, 8> in{fr("f743111428ecda9b74a18826f1cc62d48ae1510de17e58645997559f86442f31"),
                             fr("197a6efa37086e3a37108f8460c52bc810e2781aff0091bfd7b74e3f6f752f02"),
                             fr("01c2c12f7930bbb59e3b36dae1c694b33ac6b3f199ec32a8665fadb8338f4f21"),
                             fr("bbe672a853f65cdb2563339ca61d6ad648473b4b4ce44bf3a48486424b865a2d"),
                             fr("937d57295f488cea8099f5525958f1af39c6241614b917835292e8e2314cf908"),
                             fr("3272570cd8ba38c1183629ca72d5e9149d76786ed22c1d591db3d2bccfa7d308"),
                             fr("2d3fc90e11aaf601bd1beae80fc3aba15a9e1f886d8140533ce36cda3dd9f936"),
                             fr("0a017e264d0728bfcd2edb3c6c60cc5a05a02af31a71cdd7bb2da27616f5f630")};
  EXPECT_EQ(poseidon_hash(in), fr("0737ca506df7d4544f8512df35aaa07ed8a40691e96ae868c23320220fec6866"));
}

}  // namespace
}  // namespace cuzk::filecoin
