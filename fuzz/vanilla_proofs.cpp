// Fuzz harness: the bincode vanilla proofs Curio sends — a PoSt FallbackPoStSectorProof (WindowPoSt, and the
// 66-challenge WinningPoSt form) and a SnapDeals PartitionProof, at 2 KiB and 32 GiB — decoded and, where
// they decode, checked as the daemon checks them (PoSt challenges from the randomness; SnapDeals against its
// commitments) — from the same bytes.
#include "filecoin/post_vanilla.hpp"
#include "filecoin/update_vanilla.hpp"
#include "fuzz/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace cuzk;
  using namespace cuzk::filecoin;
  const std::span<const std::uint8_t> bytes(data, size);
  for (const char* sector : {"2KiB", "32GiB"}) {
    for (PostKind kind : {PostKind::kWindow, PostKind::kWinning}) {
      PostParams params = post_params_for(kind, sector);
      if (kind == PostKind::kWinning) params.challenges = params.sectors * params.challenges;
      fuzz::refusal_is_fine([&] {
        const PostVanillaProof p = decode_post_vanilla_proof(bytes, params, "input");
        post_circuit_sectors(post_params_for(kind, sector), std::span(&p, 1), {}, ApiVersion::V1_2_0, 0);
      });
    }
    const UpdateParams& update = update_params_for(sector);
    fuzz::refusal_is_fine([&] {
      const UpdateVanillaProof p = decode_update_vanilla_proof(bytes, update, "input");
      update_circuit_proof(update, 0, update.h_default, {Fr::one(), Fr::one(), Fr::one()}, p, "input");
    });
  }
  return 0;
}
