#include "service/access.hpp"

namespace cuzk::service {

bool same_secret(const std::string& presented, const std::string& expected) {
  unsigned char diff = presented.size() == expected.size() ? 0 : 1;
  for (std::size_t i = 0; i < presented.size(); ++i)
    diff |= static_cast<unsigned char>(presented[i] ^ expected[i % (expected.empty() ? 1 : expected.size())]);
  return diff == 0 && !expected.empty();
}

bool bearer_matches(const std::string& authorization, const std::string& token) {
  if (token.empty()) return true;
  static const std::string kScheme = "Bearer ";
  if (authorization.size() < kScheme.size() || authorization.compare(0, kScheme.size(), kScheme) != 0)
    return false;
  return same_secret(authorization.substr(kScheme.size()), token);
}

grpc::Status ClientAccess::authorize(const grpc::ServerContext& context) const {
  if (policy_.token.empty()) return grpc::Status::OK;
  const auto& metadata = context.client_metadata();
  const auto it = metadata.find("authorization");
  if (it == metadata.end())
    return {grpc::StatusCode::UNAUTHENTICATED,
            "this daemon needs a bearer token: send the metadata \"authorization: Bearer <token>\" "
            "(daemon.token_file)"};
  if (!bearer_matches(std::string(it->second.data(), it->second.size()), policy_.token))
    return {grpc::StatusCode::UNAUTHENTICATED, "the bearer token is not this daemon's"};
  return grpc::Status::OK;
}

std::string ClientAccess::client_of(const grpc::ServerContext& context) {
  if (const auto auth = context.auth_context(); auth && auth->IsPeerAuthenticated()) {
    const auto subject = auth->FindPropertyValues("x509_subject");
    if (!subject.empty()) return "cert:" + std::string(subject.front().data(), subject.front().size());
  }
  std::string peer = context.peer();  // "ipv4:10.0.0.5:51234", "ipv6:[::1]:4242", "unix:…"
  if (peer.rfind("ipv4:", 0) == 0 || peer.rfind("ipv6:", 0) == 0)
    if (const auto colon = peer.rfind(':'); colon != std::string::npos && colon > 5) peer.resize(colon);
  if (peer.rfind("unix:", 0) == 0) peer = "unix";
  return peer;
}

grpc::Status ClientAccess::reserve(const std::string& client) {
  if (policy_.max_jobs_per_client == 0) return grpc::Status::OK;
  const std::lock_guard lock(mutex_);
  std::size_t& n = per_client_[client];
  if (n >= policy_.max_jobs_per_client)
    return {grpc::StatusCode::RESOURCE_EXHAUSTED,
            "client " + client + " has " + std::to_string(n) +
                " jobs in flight, the most daemon.max_jobs_per_client allows: submit again when one ends"};
  ++n;
  return grpc::Status::OK;
}

void ClientAccess::admitted(const std::string& client, const std::string& job_id) {
  if (policy_.max_jobs_per_client == 0) return;
  const std::lock_guard lock(mutex_);
  if (finished_before_admitted_.erase(job_id)) {
    if (auto it = per_client_.find(client); it != per_client_.end() && it->second > 0) --it->second;
    return;
  }
  client_of_job_[job_id] = client;
}

void ClientAccess::abandoned(const std::string& client) {
  if (policy_.max_jobs_per_client == 0) return;
  const std::lock_guard lock(mutex_);
  if (auto it = per_client_.find(client); it != per_client_.end() && it->second > 0) --it->second;
}

void ClientAccess::finished(const std::string& job_id) {
  if (policy_.max_jobs_per_client == 0) return;
  const std::lock_guard lock(mutex_);
  const auto it = client_of_job_.find(job_id);
  if (it == client_of_job_.end()) {
    finished_before_admitted_.insert(job_id);
    return;
  }
  if (auto c = per_client_.find(it->second); c != per_client_.end() && c->second > 0) --c->second;
  client_of_job_.erase(it);
}

std::size_t ClientAccess::in_flight(const std::string& client) const {
  const std::lock_guard lock(mutex_);
  const auto it = per_client_.find(client);
  return it == per_client_.end() ? 0 : it->second;
}

}  // namespace cuzk::service
