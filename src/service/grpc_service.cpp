#include "service/grpc_service.hpp"

#include <chrono>
#include <map>

#include "filecoin/vanilla_job.hpp"

namespace cuzk::service {

namespace v1 = cuzk::v1;
using engine::JobStatus;
using engine::RequestError;

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

v1::AwaitProofResponse::Status wire_status(const engine::JobResult& r) {
  if (r.timed_out) return v1::AwaitProofResponse::TIMEOUT;
  switch (r.status) {
    case JobStatus::kCompleted:
      return v1::AwaitProofResponse::COMPLETED;
    case JobStatus::kFailed:
      return v1::AwaitProofResponse::FAILED;
    case JobStatus::kCancelled:
      return v1::AwaitProofResponse::CANCELLED;
    default:
      return v1::AwaitProofResponse::UNKNOWN;
  }
}

void fill(const engine::JobResult& r, v1::AwaitProofResponse& out) {
  out.set_job_id(r.job_id);
  out.set_status(wire_status(r));
  out.set_error_message(r.error);
  out.set_queue_wait_ms(static_cast<std::uint64_t>(r.queue_wait_ms));
  out.set_total_ms(static_cast<std::uint64_t>(r.total_ms));
  double gpu = 0, synthesis = 0;
  for (const auto& p : r.partitions) {
    gpu += p.prove_ms;
    synthesis += p.synthesis_ms;
    if (r.status == JobStatus::kCompleted) {
      if (p.proof_bytes.empty())
        out.add_proof_json(p.proof_json);
      else
        out.mutable_proof()->append(p.proof_bytes);  // bellperson: 192 bytes per partition, in order
      out.add_public_json(p.public_json);
    }
  }
  out.set_gpu_compute_ms(static_cast<std::uint64_t>(gpu));
  out.set_synthesis_ms(static_cast<std::uint64_t>(synthesis));
}

grpc::Status await_job(engine::Engine& e, const std::string& id, std::uint64_t timeout_ms,
                       v1::AwaitProofResponse* out) {
  try {
    std::optional<std::chrono::milliseconds> timeout;
    if (timeout_ms) timeout = std::chrono::milliseconds(timeout_ms);
    fill(e.await(id, timeout), *out);
    return grpc::Status::OK;
  } catch (const RequestError& err) {
    return {grpc::StatusCode::NOT_FOUND, err.what()};
  }
}

v1::JobStatus::State wire_state(JobStatus s) {
  switch (s) {
    case JobStatus::kQueued:
      return v1::JobStatus::QUEUED;
    case JobStatus::kRunning:
      return v1::JobStatus::RUNNING;
    case JobStatus::kCompleted:
      return v1::JobStatus::COMPLETED;
    case JobStatus::kFailed:
      return v1::JobStatus::FAILED;
    case JobStatus::kCancelled:
      return v1::JobStatus::CANCELLED;
  }
  return v1::JobStatus::STATE_UNSPECIFIED;
}

v1::PartitionStatus::State wire_state(engine::PartitionState s) {
  switch (s) {
    case engine::PartitionState::kPending:
      return v1::PartitionStatus::PENDING;
    case engine::PartitionState::kRunning:
      return v1::PartitionStatus::PROVING;
    case engine::PartitionState::kDone:
      return v1::PartitionStatus::DONE;
    case engine::PartitionState::kFailed:
      return v1::PartitionStatus::FAILED;
    case engine::PartitionState::kCancelled:
      return v1::PartitionStatus::CANCELLED;
  }
  return v1::PartitionStatus::STATE_UNSPECIFIED;
}

// The wire's ProofKind of an engine job kind (JobResult::kind).
v1::ProofKind wire_kind(const std::string& kind) {
  if (kind == "porep") return v1::POREP_SEAL_COMMIT;
  if (kind == "window_post") return v1::WINDOW_POST_PARTITION;
  if (kind == "winning_post") return v1::WINNING_POST;
  if (kind == "snap_deals") return v1::SNAP_DEALS_UPDATE;
  return v1::PROOF_KIND_UNSPECIFIED;
}

}  // namespace

grpc::Status ProvingService::SubmitProof(grpc::ServerContext*, const v1::SubmitProofRequest* req,
                                         v1::SubmitProofResponse* resp) {
  engine::SubmitRequest r;
  if (auto s = to_engine(*req, witness_paths_, r); !s.ok()) return s;
  try {
    const auto sub = engine_.submit(std::move(r));
    resp->set_job_id(sub.job_id);
    resp->set_queue_position(static_cast<std::uint32_t>(sub.queue_position));
    return grpc::Status::OK;
  } catch (const RequestError& err) {
    return {grpc::StatusCode::INVALID_ARGUMENT, err.what()};
  }
}

grpc::Status ProvingService::AwaitProof(grpc::ServerContext*, const v1::AwaitProofRequest* req,
                                        v1::AwaitProofResponse* resp) {
  return await_job(engine_, req->job_id(), req->timeout_ms(), resp);
}

grpc::Status ProvingService::Prove(grpc::ServerContext* ctx, const v1::ProveRequest* req,
                                   v1::ProveResponse* resp) {
  v1::SubmitProofResponse sub;
  if (auto s = SubmitProof(ctx, &req->submit(), &sub); !s.ok()) return s;
  return await_job(engine_, sub.job_id(), 0, resp->mutable_result());
}

grpc::Status ProvingService::CancelProof(grpc::ServerContext*, const v1::CancelProofRequest* req,
                                         v1::CancelProofResponse* resp) {
  try {
    resp->set_was_running(engine_.cancel(req->job_id()));
    return grpc::Status::OK;
  } catch (const RequestError& err) {
    return {grpc::StatusCode::NOT_FOUND, err.what()};
  }
}

grpc::Status ProvingService::GetStatus(grpc::ServerContext*, const v1::GetStatusRequest*,
                                       v1::GetStatusResponse* resp) {
  const auto s = engine_.status();
  for (const auto& d : s.devices) {
    auto* g = resp->add_gpus();
    g->set_ordinal(static_cast<std::uint32_t>(d.ordinal));
    g->set_name(d.name);
    g->set_vram_total_bytes(d.vram_total);
    g->set_vram_free_bytes(d.vram_free);
    for (const auto& w : s.workers)
      if (w.busy && w.name.rfind("cuda:" + std::to_string(d.ordinal) + "/", 0) == 0) {
        g->set_current_job_id(w.job_id);
        for (const auto& j : s.jobs)
          if (j.job_id == w.job_id) g->set_current_proof_kind(j.kind);
      }
  }
  for (const auto& c : s.circuits) {
    auto* srs = resp->add_loaded_srs();
    srs->set_circuit_id(c.id);
    srs->set_tier(c.tier == engine::Tier::kDisk     ? v1::SRSStatus::COLD
                  : c.tier == engine::Tier::kMapped ? v1::SRSStatus::WARM
                                                    : v1::SRSStatus::HOT);
    srs->set_size_bytes(c.bytes);
    srs->set_ref_count(static_cast<std::uint32_t>(c.jobs_holding));
  }
  resp->set_pinned_memory_bytes(s.pinned_bytes);
  resp->set_pinned_memory_limit_bytes(s.pinned_budget);
  // Queued and proving partitions per kind (porep, window_post, winning_post, snap_deals, circuit).
  std::map<std::string, std::pair<std::uint32_t, std::uint32_t>> queues;
  for (const auto& j : s.jobs) {
    auto& [pending, running] = queues[j.kind];
    auto* js = resp->add_jobs();
    js->set_job_id(j.job_id);
    js->set_request_id(j.request_id);
    js->set_circuit_id(j.circuit_id);
    js->set_proof_kind(wire_kind(j.kind));
    js->set_priority(static_cast<v1::Priority>(static_cast<int>(j.priority)));
    js->set_state(wire_state(j.status));
    js->set_partitions_total(static_cast<std::uint32_t>(j.partitions.size()));
    js->set_age_ms(static_cast<std::uint64_t>(j.total_ms));
    std::uint32_t done = 0, index = 0;
    for (const auto& p : j.partitions) {
      done += p.state == engine::PartitionState::kDone;
      pending += p.state == engine::PartitionState::kPending;
      running += p.state == engine::PartitionState::kRunning;
      auto* ps = js->add_partitions();
      ps->set_index(index++);
      ps->set_state(wire_state(p.state));
      ps->set_gpu_ms(static_cast<std::uint64_t>(p.prove_ms));
      ps->set_synthesis_ms(static_cast<std::uint64_t>(p.synthesis_ms));
      ps->set_worker(p.worker);
      ps->set_start_ms(p.start_ms);
      ps->set_end_ms(p.end_ms);
      for (const auto& [name, ms] : p.stages.stages_ms) (*ps->mutable_stage_ms())[name] += ms;
      for (const auto& [name, ms] : p.stages.details_ms) (*ps->mutable_stage_ms())[name] += ms;
      (*ps->mutable_stage_ms())["self_check"] = p.verify_ms;
    }
    js->set_partitions_done(done);
  }
  for (const auto& [kind, counts] : queues) {
    auto* q = resp->add_queues();
    q->set_proof_kind(kind);
    q->set_pending(counts.first);
    q->set_in_progress(counts.second);
  }
  resp->set_total_proofs_completed(s.completed);
  resp->set_total_proofs_failed(s.failed);
  resp->set_uptime_seconds(static_cast<std::uint64_t>(s.uptime_seconds));
  return grpc::Status::OK;
}

grpc::Status ProvingService::GetMetrics(grpc::ServerContext*, const v1::GetMetricsRequest*,
                                        v1::GetMetricsResponse* resp) {
  resp->set_prometheus_text(metrics_text_ ? metrics_text_() : std::string());
  return grpc::Status::OK;
}

grpc::Status ProvingService::PreloadSRS(grpc::ServerContext*, const v1::PreloadSrsRequest* req,
                                        v1::PreloadSrsResponse* resp) {
  try {
    const auto r = engine_.preload(req->circuit_id());
    resp->set_already_loaded(r.already_loaded);
    resp->set_load_time_ms(static_cast<std::uint64_t>(r.load_ms));
    return grpc::Status::OK;
  } catch (const RequestError& err) {
    return {grpc::StatusCode::NOT_FOUND, err.what()};
  }
}

grpc::Status ProvingService::EvictSRS(grpc::ServerContext*, const v1::EvictSrsRequest* req,
                                      v1::EvictSrsResponse* resp) {
  const auto r = engine_.evict(req->circuit_id());
  if (r.jobs_holding > 0)
    return {grpc::StatusCode::FAILED_PRECONDITION, "circuit '" + req->circuit_id() + "' is in use by " +
                                                       std::to_string(r.jobs_holding) +
                                                       " job(s); evict it when they have finished"};
  resp->set_was_loaded(r.was_loaded);
  resp->set_freed_bytes(r.freed_bytes);
  return grpc::Status::OK;
}

}  // namespace cuzk::service
