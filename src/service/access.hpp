// Who may call the daemon, and how much each caller may hold (docs/config.md, "Remote access"): a bearer
// token every gRPC call must carry ("authorization: Bearer <token>" metadata; the HTTP endpoints take the
// same header), and a limit on each client's jobs in flight. A client is its TLS certificate's subject when
// it presents one, else its address without the port (all unix-socket callers are one client).
#pragma once

#include <grpcpp/grpcpp.h>

#include <cstddef>
#include <map>
#include <mutex>
#include <set>
#include <string>

namespace cuzk::service {

struct AccessPolicy {
  std::string token;                    // "" : no token asked for
  std::size_t max_jobs_per_client = 0;  // 0: no limit
};

// Constant-time comparison of a presented credential with the expected one (no early exit on the first
// differing byte, so response times do not reveal a prefix).
bool same_secret(const std::string& presented, const std::string& expected);

// Whether an HTTP or gRPC "authorization" value carries `token` ("Bearer <token>"); true when token is empty.
bool bearer_matches(const std::string& authorization, const std::string& token);

class ClientAccess {
 public:
  explicit ClientAccess(AccessPolicy policy) : policy_(std::move(policy)) {}

  // OK, or UNAUTHENTICATED saying what is missing.
  grpc::Status authorize(const grpc::ServerContext& context) const;
  // The caller, for the per-client limit and logs.
  static std::string client_of(const grpc::ServerContext& context);

  // Before a submit: OK, or RESOURCE_EXHAUSTED when `client` holds max_jobs_per_client jobs already. A slot
  // taken here is given to the job (`job_id`) by admitted(), or back by abandoned() when the submit failed.
  grpc::Status reserve(const std::string& client);
  void admitted(const std::string& client, const std::string& job_id);
  void abandoned(const std::string& client);
  // A job ended (any outcome): its client's slot is free again.
  void finished(const std::string& job_id);
  std::size_t in_flight(const std::string& client) const;

 private:
  AccessPolicy policy_;
  mutable std::mutex mutex_;
  std::map<std::string, std::size_t> per_client_;
  std::map<std::string, std::string> client_of_job_;
  std::set<std::string> finished_before_admitted_;  // a job can end before its submit returns
};

}  // namespace cuzk::service
