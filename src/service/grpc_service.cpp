#include "service/grpc_service.hpp"

#include <chrono>
#include <map>

#include "filecoin/vanilla_job.hpp"
#include "service/submit_request.hpp"

namespace cuzk::service {

namespace v1 = cuzk::v1;
using engine::JobStatus;
using engine::RequestError;

namespace {

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

grpc::Status ProvingService::authorized(const grpc::ServerContext* ctx) const {
  return access_ && ctx ? access_->authorize(*ctx) : grpc::Status::OK;
}

grpc::Status ProvingService::SubmitProof(grpc::ServerContext* ctx, const v1::SubmitProofRequest* req,
                                         v1::SubmitProofResponse* resp) {
  if (auto denied = authorized(ctx); !denied.ok()) return denied;
  engine::SubmitRequest r;
  if (auto s = to_engine(*req, witness_paths_, r); !s.ok()) return s;
  const std::string client = ctx ? ClientAccess::client_of(*ctx) : std::string("local");
  if (access_)
    if (auto full = access_->reserve(client); !full.ok()) return full;
  try {
    const auto sub = engine_.submit(std::move(r));
    if (access_) access_->admitted(client, sub.job_id);
    resp->set_job_id(sub.job_id);
    resp->set_queue_position(static_cast<std::uint32_t>(sub.queue_position));
    return grpc::Status::OK;
  } catch (const RequestError& err) {
    if (access_) access_->abandoned(client);
    return {grpc::StatusCode::INVALID_ARGUMENT, err.what()};
  } catch (...) {
    if (access_) access_->abandoned(client);
    throw;
  }
}

grpc::Status ProvingService::AwaitProof(grpc::ServerContext* ctx, const v1::AwaitProofRequest* req,
                                        v1::AwaitProofResponse* resp) {
  if (auto denied = authorized(ctx); !denied.ok()) return denied;
  return await_job(engine_, req->job_id(), req->timeout_ms(), resp);
}

grpc::Status ProvingService::Prove(grpc::ServerContext* ctx, const v1::ProveRequest* req,
                                   v1::ProveResponse* resp) {
  v1::SubmitProofResponse sub;
  if (auto s = SubmitProof(ctx, &req->submit(), &sub); !s.ok()) return s;
  return await_job(engine_, sub.job_id(), 0, resp->mutable_result());
}

grpc::Status ProvingService::CancelProof(grpc::ServerContext* ctx, const v1::CancelProofRequest* req,
                                         v1::CancelProofResponse* resp) {
  if (auto denied = authorized(ctx); !denied.ok()) return denied;
  try {
    resp->set_was_running(engine_.cancel(req->job_id()));
    return grpc::Status::OK;
  } catch (const RequestError& err) {
    return {grpc::StatusCode::NOT_FOUND, err.what()};
  }
}

grpc::Status ProvingService::GetStatus(grpc::ServerContext* ctx, const v1::GetStatusRequest*,
                                       v1::GetStatusResponse* resp) {
  if (auto denied = authorized(ctx); !denied.ok()) return denied;
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

grpc::Status ProvingService::GetMetrics(grpc::ServerContext* ctx, const v1::GetMetricsRequest*,
                                        v1::GetMetricsResponse* resp) {
  if (auto denied = authorized(ctx); !denied.ok()) return denied;
  resp->set_prometheus_text(metrics_text_ ? metrics_text_() : std::string());
  return grpc::Status::OK;
}

grpc::Status ProvingService::PreloadSRS(grpc::ServerContext* ctx, const v1::PreloadSrsRequest* req,
                                        v1::PreloadSrsResponse* resp) {
  if (auto denied = authorized(ctx); !denied.ok()) return denied;
  try {
    const auto r = engine_.preload(req->circuit_id());
    resp->set_already_loaded(r.already_loaded);
    resp->set_load_time_ms(static_cast<std::uint64_t>(r.load_ms));
    return grpc::Status::OK;
  } catch (const RequestError& err) {
    return {grpc::StatusCode::NOT_FOUND, err.what()};
  }
}

grpc::Status ProvingService::EvictSRS(grpc::ServerContext* ctx, const v1::EvictSrsRequest* req,
                                      v1::EvictSrsResponse* resp) {
  if (auto denied = authorized(ctx); !denied.ok()) return denied;
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
