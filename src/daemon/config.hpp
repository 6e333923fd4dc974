// cuzk-daemon's configuration: a TOML file (docs/config.md lists every key and its default), then
// command-line overrides.
#pragma once

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>

#include "engine/engine.hpp"
#include "service/health.hpp"

namespace cuzk::daemon {

struct ConfigError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Config {
  std::string listen = "unix:///run/cuzk/cuzk.sock";  // gRPC: unix:///path or host:port
  std::string http;                                   // host:port for /metrics, /status, /healthz; "" = off
  service::HealthPolicy healthz_fails_on = service::HealthPolicy::kAnyGpuLost;  // daemon.healthz_fails_on
  std::size_t max_message_bytes = std::size_t(1) << 30;
  std::string witness_dir;  // over TCP, witness_paths must lie under it (empty: refused)
  // Remote access (docs/config.md): TLS on a TCP listener (PEM files; with a client CA, clients must present
  // a certificate it signs), a bearer token file every call must match, plaintext TCP beyond loopback only
  // when allowed in so many words, and a limit on each client's jobs in flight (0: none).
  std::string tls_cert, tls_key, tls_client_ca, token_file;
  bool allow_remote_plaintext = false;
  unsigned max_jobs_per_client = 0;
  engine::EngineConfig engine;

  // The daemon isolates its GPU workers in processes unless told otherwise (engine.isolation = "auto");
  // a library user's EngineConfig keeps "thread".
  Config() {
    engine.repository = "/var/lib/cuzk/circuits";
    engine.isolation = "auto";
  }
};

// Reads `path` (a missing file is an error; no path = defaults). Throws ConfigError naming the key.
Config load_config(const std::optional<std::string>& path);

// "16GiB", "512MiB", "1000000", "2G" → bytes. Throws ConfigError.
std::size_t parse_bytes(const std::string& text);

}  // namespace cuzk::daemon
