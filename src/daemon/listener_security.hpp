// What guards the daemon's listeners, from its configuration (docs/config.md, "Remote access"): the gRPC
// credentials (TLS on a TCP listener when daemon.tls_cert is set, client certificates when
// daemon.tls_client_ca is), the bearer token (daemon.token_file) and the rule that without TLS a TCP
// listener — gRPC or HTTP — stays on loopback unless daemon.allow_remote_plaintext says otherwise.
#pragma once

#include <grpcpp/grpcpp.h>

#include <memory>
#include <string>

#include "daemon/config.hpp"

namespace cuzk::daemon {

struct ListenerSecurity {
  std::shared_ptr<grpc::ServerCredentials> credentials;
  std::string token;        // "" : no token asked for
  std::string description;  // for the start line: "TLS, client certificates, bearer token"
};

// Throws ConfigError naming the key for a configuration that would expose the daemon or cannot be read.
ListenerSecurity listener_security(const Config& cfg);

// "127.0.0.1:9820", "localhost:1", "[::1]:4", "unix:…" (a socket is no network address) → true.
bool is_loopback_address(const std::string& address);

}  // namespace cuzk::daemon
