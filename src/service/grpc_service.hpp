// The gRPC frontend: cuzk.v1.ProvingEngine translated to Engine calls and back (docs/grpc.md has the
// field mapping). No logic of its own beyond validation of the wire request; every engine
// RequestError becomes a gRPC status with its message for that caller only.
#pragma once

#include <filesystem>
#include <functional>
#include <string>

#include "cuzk/v1/proving.grpc.pb.h"
#include "engine/engine.hpp"
#include "service/access.hpp"
#include "service/submit_request.hpp"

namespace cuzk::service {

class ProvingService final : public cuzk::v1::ProvingEngine::Service {
 public:
  // `metrics_text` renders the Prometheus exposition served by GetMetrics (and HTTP /metrics).
  // `access` (optional) checks each call's token and each client's jobs in flight; the daemon tells it
  // when jobs end (ClientAccess::finished).
  ProvingService(engine::Engine& engine, std::function<std::string()> metrics_text,
                 WitnessPathPolicy witness_paths = {}, ClientAccess* access = nullptr)
      : engine_(engine),
        metrics_text_(std::move(metrics_text)),
        witness_paths_(std::move(witness_paths)),
        access_(access) {}

  grpc::Status SubmitProof(grpc::ServerContext*, const cuzk::v1::SubmitProofRequest*,
                           cuzk::v1::SubmitProofResponse*) override;
  grpc::Status AwaitProof(grpc::ServerContext*, const cuzk::v1::AwaitProofRequest*,
                          cuzk::v1::AwaitProofResponse*) override;
  grpc::Status Prove(grpc::ServerContext*, const cuzk::v1::ProveRequest*, cuzk::v1::ProveResponse*) override;
  grpc::Status CancelProof(grpc::ServerContext*, const cuzk::v1::CancelProofRequest*,
                           cuzk::v1::CancelProofResponse*) override;
  grpc::Status GetStatus(grpc::ServerContext*, const cuzk::v1::GetStatusRequest*,
                         cuzk::v1::GetStatusResponse*) override;
  grpc::Status GetMetrics(grpc::ServerContext*, const cuzk::v1::GetMetricsRequest*,
                          cuzk::v1::GetMetricsResponse*) override;
  grpc::Status PreloadSRS(grpc::ServerContext*, const cuzk::v1::PreloadSrsRequest*,
                          cuzk::v1::PreloadSrsResponse*) override;
  grpc::Status EvictSRS(grpc::ServerContext*, const cuzk::v1::EvictSrsRequest*,
                        cuzk::v1::EvictSrsResponse*) override;

 private:
  grpc::Status authorized(const grpc::ServerContext* ctx) const;

  engine::Engine& engine_;
  std::function<std::string()> metrics_text_;
  WitnessPathPolicy witness_paths_;
  ClientAccess* access_;
};

}  // namespace cuzk::service
