#include "service/submit_request.hpp"

#include <algorithm>
#include <array>
#include <memory>
#include <optional>
#include <string>

#include "filecoin/vanilla_job.hpp"

namespace cuzk::service {

namespace v1 = cuzk::v1;

namespace {

// Filecoin's defaults when a request leaves the priority unset (the original daemon's rule).
std::optional<engine::Priority> wire_priority(const v1::SubmitProofRequest& r) {
  if (auto p = engine::priority_from_wire(r.priority())) return p;
  if (r.proof_kind() == v1::WINNING_POST) return engine::Priority::kCritical;
  if (r.proof_kind() == v1::WINDOW_POST_PARTITION) return engine::Priority::kHigh;
  return std::nullopt;  // the circuit's default (NORMAL for PoRep and SnapDeals)
}

grpc::Status check_witness_path(const std::string& path, const WitnessPathPolicy& policy) {
  const std::filesystem::path p(path);
  if (!p.is_absolute())
    return {grpc::StatusCode::INVALID_ARGUMENT, "witness path '" + path + "' is not absolute"};
  if (policy.any) return grpc::Status::OK;
  if (policy.dir.empty())
    return {grpc::StatusCode::PERMISSION_DENIED,
            "witness_paths are accepted on the daemon's unix socket, or under daemon.witness_dir (not set)"};
  std::error_code ec;
  const auto real = std::filesystem::weakly_canonical(p, ec),
             root = std::filesystem::weakly_canonical(policy.dir, ec);
  const auto rel = real.lexically_relative(root);
  if (ec || rel.empty() || *rel.begin() == "..")
    return {grpc::StatusCode::PERMISSION_DENIED,
            "witness path '" + path + "' is outside daemon.witness_dir (" + policy.dir.string() + ")"};
  return grpc::Status::OK;
}

}  // namespace

grpc::Status to_engine(const v1::SubmitProofRequest& r, const WitnessPathPolicy& policy,
                       engine::SubmitRequest& out) {
  if (r.proof_kind() == v1::POREP_SEAL_COMMIT && r.vanilla_proof().empty() && r.circuit_id().empty())
    return {
        grpc::StatusCode::INVALID_ARGUMENT,
        "a POREP_SEAL_COMMIT request needs vanilla_proof (the C1 output), or a circuit_id with witnesses"};
  const bool post = r.proof_kind() == v1::WINDOW_POST_PARTITION || r.proof_kind() == v1::WINNING_POST;
  const bool snap = r.proof_kind() == v1::SNAP_DEALS_UPDATE;
  if (!r.vanilla_proof().empty() || r.vanilla_proofs_size() > 0 ||
      ((post || snap) && r.circuit_id().empty())) {
    // Curio's requests: the vanilla proofs name their circuit (the C1 output's registered_proof; PoSt's
    // proof type or sector size); circuit_id, when set, picks another repository circuit for them (a key
    // kept elsewhere).
    auto vanilla = std::make_shared<filecoin::VanillaRequest>();
    if (r.proof_kind() == v1::POREP_SEAL_COMMIT) {
      if (r.vanilla_proofs_size() > 0)
        return {grpc::StatusCode::INVALID_ARGUMENT,
                "a POREP_SEAL_COMMIT request brings its C1 output in vanilla_proof, not vanilla_proofs"};
      vanilla->kind = filecoin::CircuitKind::kPorep;
      vanilla->c1.assign(r.vanilla_proof().begin(), r.vanilla_proof().end());
    } else if (post) {
      if (r.vanilla_proofs_size() == 0)
        return {grpc::StatusCode::INVALID_ARGUMENT,
                std::string(v1::ProofKind_Name(r.proof_kind())) +
                    " needs vanilla_proofs (a bincode FallbackPoStSectorProof per sector)"};
      if (!r.vanilla_proof().empty())
        return {grpc::StatusCode::INVALID_ARGUMENT,
                "a PoSt request brings its sector proofs in vanilla_proofs, not vanilla_proof"};
      if (r.randomness().size() != 32)
        return {grpc::StatusCode::INVALID_ARGUMENT, "randomness is " + std::to_string(r.randomness().size()) +
                                                        " bytes; a PoSt request needs its 32"};
      vanilla->kind = r.proof_kind() == v1::WINNING_POST ? filecoin::CircuitKind::kWinningPost
                                                         : filecoin::CircuitKind::kWindowPost;
      for (const auto& p : r.vanilla_proofs()) vanilla->proofs.emplace_back(p.begin(), p.end());
      std::copy(r.randomness().begin(), r.randomness().end(), vanilla->randomness.begin());
      // 0 is also "not set" on the wire; the one proof type it numbers (StackedDrgWinning2KiBV1) is what a
      // 2 KiB WinningPoSt request without it is taken to be anyway.
      if (r.registered_proof() != 0) vanilla->registered_proof = r.registered_proof();
      vanilla->partition = r.partition_index();
    } else if (snap) {
      if (r.vanilla_proofs_size() == 0)
        return {grpc::StatusCode::INVALID_ARGUMENT,
                "SNAP_DEALS_UPDATE needs vanilla_proofs (a bincode PartitionProof per partition)"};
      if (!r.vanilla_proof().empty())
        return {grpc::StatusCode::INVALID_ARGUMENT,
                "a SnapDeals request brings its partition proofs in vanilla_proofs, not vanilla_proof"};
      const std::pair<const std::string*, std::array<std::uint8_t, 32>*> commitments[] = {
          {&r.comm_r_old(), &vanilla->comm_r_old},
          {&r.comm_d_new(), &vanilla->comm_d_new},
          {&r.comm_r_new(), &vanilla->comm_r_new}};
      const char* names[] = {"comm_r_old", "comm_d_new", "comm_r_new"};
      for (std::size_t i = 0; i < 3; ++i) {
        const std::string& bytes = *commitments[i].first;
        if (bytes.size() != 32)
          return {grpc::StatusCode::INVALID_ARGUMENT,
                  std::string(names[i]) + " is " + std::to_string(bytes.size()) +
                      " bytes; a SnapDeals request needs the 32-byte commitment (the CID's digest)"};
        std::copy(bytes.begin(), bytes.end(), commitments[i].second->begin());
      }
      vanilla->kind = filecoin::CircuitKind::kSnapDeals;
      for (const auto& p : r.vanilla_proofs()) vanilla->proofs.emplace_back(p.begin(), p.end());
      // 0 (StackedDrg2KiBV1) is also "not set" on the wire: the sector size decides then.
      if (r.registered_proof() != 0) vanilla->registered_proof = r.registered_proof();
    } else {
      return {grpc::StatusCode::UNIMPLEMENTED,
              std::string(v1::ProofKind_Name(r.proof_kind())) +
                  " from vanilla proofs is not a kind cuzk knows (POREP_SEAL_COMMIT, SNAP_DEALS_UPDATE, "
                  "WINDOW_POST_PARTITION and WINNING_POST are)"};
    }
    if (!r.witness().empty() || r.partition_witnesses_size() > 0 || r.witness_paths_size() > 0)
      return {grpc::StatusCode::INVALID_ARGUMENT, "a vanilla-proof request brings no witnesses"};
    vanilla->sector_size = r.sector_size();
    out.request_id = r.request_id();
    out.circuit_id = r.circuit_id();
    out.priority = wire_priority(r);
    out.vanilla = std::move(vanilla);
    return grpc::Status::OK;
  }
  if (r.circuit_id().empty()) {
    if (r.proof_kind() != v1::PROOF_KIND_UNSPECIFIED)
      return {grpc::StatusCode::UNIMPLEMENTED,
              std::string(v1::ProofKind_Name(r.proof_kind())) +
                  " needs its vanilla proofs, or a circuit_id with witnesses"};
    return {grpc::StatusCode::INVALID_ARGUMENT, "circuit_id is required"};
  }
  if ((!r.witness().empty()) + (r.partition_witnesses_size() > 0) + (r.witness_paths_size() > 0) > 1)
    return {grpc::StatusCode::INVALID_ARGUMENT, "set one of witness, partition_witnesses and witness_paths"};
  for (const auto& p : r.witness_paths()) {
    if (auto s = check_witness_path(p, policy); !s.ok()) return s;
    out.witness_paths.push_back(p);
  }
  out.request_id = r.request_id();
  out.circuit_id = r.circuit_id();
  out.priority = wire_priority(r);
  if (!r.witness().empty()) out.witnesses.emplace_back(r.witness().begin(), r.witness().end());
  for (const auto& w : r.partition_witnesses()) out.witnesses.emplace_back(w.begin(), w.end());
  if (out.witnesses.empty() && out.witness_paths.empty())
    return {grpc::StatusCode::INVALID_ARGUMENT, "no witness in the request"};
  return grpc::Status::OK;
}

}  // namespace cuzk::service
