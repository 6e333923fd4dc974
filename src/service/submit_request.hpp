// A wire SubmitProofRequest as the engine's SubmitRequest (what ProvingService::SubmitProof hands the
// engine): which fields each kind reads, the defaults Curio expects (priorities, 0 as "unset"), and every
// check that needs no key or engine state, each refusal a gRPC status with a message that names the field.
// Separate from the service so that the fuzz harness (fuzz/grpc_request.cpp) runs exactly this code.
#pragma once

#include <grpcpp/grpcpp.h>

#include <filesystem>

#include "cuzk/v1/proving.pb.h"
#include "engine/engine.hpp"

namespace cuzk::service {

// Which witness files a client may have the daemon read (SubmitProofRequest.witness_paths): on a unix
// socket, which only the daemon's own user can connect to (mode 0600), any file that user can read; over
// TCP only files under `dir`, and none while `dir` is empty.
struct WitnessPathPolicy {
  bool any = false;
  std::filesystem::path dir;
};

grpc::Status to_engine(const cuzk::v1::SubmitProofRequest& r, const WitnessPathPolicy& policy,
                       engine::SubmitRequest& out);

}  // namespace cuzk::service
