#include "service/http.hpp"

#include <httplib.h>

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "service/access.hpp"

namespace cuzk::service {

std::string status_json(const engine::EngineStatus& s) {
  using nlohmann::json;
  json j;
  j["backend"] = s.backend;
  j["uptime_seconds"] = s.uptime_seconds;
  j["totals"] = {{"completed", s.completed}, {"failed", s.failed}, {"cancelled", s.cancelled}};
  j["queue"] = {{"LOW", s.queue_depth[1]},
                {"NORMAL", s.queue_depth[2]},
                {"HIGH", s.queue_depth[3]},
                {"CRITICAL", s.queue_depth[4]}};
  j["memory"] = {{"repository_bytes", s.repository_bytes},
                 {"repository_budget_bytes", s.repository_budget},
                 {"pinned_bytes", s.pinned_bytes},
                 {"pinned_budget_bytes", s.pinned_budget},
                 {"pinned_witness_pool_bytes", s.pinned_pool_bytes},
                 {"pinned_witness_pool_budget_bytes", s.pinned_pool_budget},
                 {"pinned_witness_pool_leases", s.pinned_pool_leases},
                 {"pinned_witness_pool_refused", s.pinned_pool_refused},
                 {"pinned_witness_pool_deferred", s.pinned_pool_deferred},
                 {"pinned_staging_bytes", s.pinned_staging_bytes},
                 {"key_store_bytes", s.key_store_bytes},
                 {"kept_device_bytes", s.kept_device_bytes},
                 {"kept_arrays_handed_back", s.kept_arrays_handed_back}};
  j["faults"] = {{"out_of_memory", s.faults.out_of_memory},
                 {"context_lost", s.faults.context_lost},
                 {"self_check", s.faults.self_check},
                 {"vram_leaks", s.faults.vram_leaks},
                 {"retries", s.faults.retries},
                 {"worker_restarts", s.faults.worker_restarts}};
  j["partitions_by_plan"] = s.partitions_by_plan;
  j["partitions_by_prestage"] = s.partitions_by_prestage;
  j["devices"] = json::array();
  for (const auto& d : s.devices)
    j["devices"].push_back({{"ordinal", d.ordinal},
                            {"name", d.name},
                            {"vram_total_bytes", d.vram_total},
                            {"vram_free_bytes", d.vram_free},
                            {"vram_daemon_bytes", d.vram_used},
                            {"vram_daemon_peak_bytes", d.vram_peak},
                            {"vram_daemon_cached_bytes", d.vram_cached},
                            {"vram_limit_bytes", d.vram_limit},
                            {"context_resets", d.context_resets},
                            {"worker_pid", d.worker_pid},
                            {"lost", d.lost},
                            {"lost_reason", d.lost_reason},
                            {"resident_circuits", d.resident_circuits}});
  j["workers"] = json::array();
  for (const auto& w : s.workers)
    j["workers"].push_back({{"name", w.name},
                            {"state", w.busy ? "proving" : "idle"},
                            {"job_id", w.busy ? w.job_id : ""},
                            {"partition", w.partition},
                            {"busy_seconds", w.busy_seconds},
                            {"partitions_done", w.partitions_done}});
  j["repository"] = json::array();
  for (const auto& c : s.circuits)
    j["repository"].push_back({{"circuit_id", c.id},
                               {"tier", engine::to_string(c.tier)},
                               {"bytes", c.bytes},
                               {"pinned_bytes", c.pinned_bytes},
                               {"jobs_holding", c.jobs_holding},
                               {"idle_seconds", c.idle_seconds}});
  j["jobs"] = json::array();
  for (const auto& job : s.jobs) {
    json parts = json::array();
    for (const auto& p : job.partitions)
      parts.push_back({{"state", engine::to_string(p.state)},
                       {"worker", p.worker},
                       {"queue_ms", p.queue_ms},
                       {"synthesis_ms", p.synthesis_ms},
                       {"prove_ms", p.prove_ms},
                       {"verify_ms", p.verify_ms},
                       {"error", p.error}});
    j["jobs"].push_back({{"job_id", job.job_id},
                         {"request_id", job.request_id},
                         {"circuit_id", job.circuit_id},
                         {"kind", job.kind},
                         {"priority", std::string(engine::to_string(job.priority))},
                         {"status", engine::to_string(job.status)},
                         {"error", job.error},
                         {"age_ms", job.total_ms},
                         {"partitions", parts}});
  }
  return j.dump(2);
}

HttpFrontend::HttpFrontend(const std::string& address, engine::Engine& engine, Metrics& metrics,
                           const std::string& token, HealthPolicy health)
    : server_(std::make_unique<httplib::Server>()) {
  // With a token, every endpoint but /healthz (which tells a supervisor only "ok" or "degraded") asks for it,
  // as the gRPC calls do.
  if (!token.empty())
    server_->set_pre_routing_handler([token](const httplib::Request& req, httplib::Response& res) {
      if (req.path == "/healthz" || bearer_matches(req.get_header_value("Authorization"), token))
        return httplib::Server::HandlerResponse::Unhandled;
      res.status = 401;
      res.set_header("WWW-Authenticate", "Bearer");
      res.set_content("this daemon needs its bearer token: Authorization: Bearer <token>\n", "text/plain");
      return httplib::Server::HandlerResponse::Handled;
    });
  const auto colon = address.rfind(':');
  if (colon == std::string::npos)
    throw std::runtime_error("--http expects host:port, not \"" + address + "\"");
  const std::string host = address.substr(0, colon);
  const int port = std::stoi(address.substr(colon + 1));
  // 503 while a GPU is lost (daemon.healthz_fails_on): the daemon still proves, but a supervisor should
  // restart it to get the GPU back.
  server_->Get("/healthz", [&engine, health](const httplib::Request&, httplib::Response& res) {
    const Health h = health_of(engine.status(false), health);
    res.status = h.http_status;
    res.set_content(h.text + "\n", "text/plain");
  });
  server_->Get("/metrics", [&engine, &metrics](const httplib::Request&, httplib::Response& res) {
    res.set_content(metrics.render(engine.status(false)), "text/plain; version=0.0.4");
  });
  server_->Get("/status", [&engine](const httplib::Request&, httplib::Response& res) {
    res.set_content(status_json(engine.status()), "application/json");
  });
  port_ = port == 0 ? server_->bind_to_any_port(host) : (server_->bind_to_port(host, port) ? port : -1);
  if (port_ < 0) throw std::runtime_error("HTTP: cannot listen on " + address);
  thread_ = std::thread([this] { server_->listen_after_bind(); });
}

HttpFrontend::~HttpFrontend() {
  server_->stop();
  if (thread_.joinable()) thread_.join();
}

}  // namespace cuzk::service
