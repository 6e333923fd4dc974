#include "daemon/listener_security.hpp"

#include "io/error.hpp"
#include "io/whole_file.hpp"

namespace cuzk::daemon {

namespace {

std::string read_file(const std::string& path, const char* key) {
  std::string text;
  try {
    text = io::read_whole_file(path);
  } catch (const io::FormatError& e) {
    throw ConfigError(std::string(key) + ": cannot read " + path);
  }
  if (text.empty()) throw ConfigError(std::string(key) + ": " + path + " is empty");
  return text;
}

}  // namespace

bool is_loopback_address(const std::string& address) {
  if (address.rfind("unix:", 0) == 0) return true;
  std::string host = address;
  if (host.rfind("dns:///", 0) == 0) host = host.substr(7);
  if (!host.empty() && host.front() == '[') {
    const auto close = host.find(']');
    host = close == std::string::npos ? host : host.substr(1, close - 1);
  } else if (const auto colon = host.rfind(':'); colon != std::string::npos) {
    host.resize(colon);
  }
  return host == "localhost" || host == "::1" || host.rfind("127.", 0) == 0;
}

ListenerSecurity listener_security(const Config& cfg) {
  ListenerSecurity s;
  const bool unix_socket = cfg.listen.rfind("unix:", 0) == 0;
  if (!cfg.token_file.empty()) {
    s.token = read_file(cfg.token_file, "daemon.token_file");
    while (!s.token.empty() && (s.token.back() == '\n' || s.token.back() == '\r' || s.token.back() == ' '))
      s.token.pop_back();
    if (s.token.size() < 16)
      throw ConfigError("daemon.token_file: the token is " + std::to_string(s.token.size()) +
                        " characters; use at least 16 (e.g. `openssl rand -hex 32`)");
  }
  if (!cfg.tls_cert.empty() || !cfg.tls_key.empty()) {
    if (unix_socket)
      throw ConfigError(
          "daemon.tls_cert: TLS is for TCP listeners; a unix socket (mode 0600) is reached "
          "by the daemon's own user only");
    if (cfg.tls_cert.empty() || cfg.tls_key.empty())
      throw ConfigError("TLS needs both daemon.tls_cert and daemon.tls_key");
    grpc::SslServerCredentialsOptions options(
        cfg.tls_client_ca.empty() ? GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE
                                  : GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY);
    options.pem_key_cert_pairs.push_back(
        {read_file(cfg.tls_key, "daemon.tls_key"), read_file(cfg.tls_cert, "daemon.tls_cert")});
    if (!cfg.tls_client_ca.empty())
      options.pem_root_certs = read_file(cfg.tls_client_ca, "daemon.tls_client_ca");
    s.credentials = grpc::SslServerCredentials(options);
    s.description = cfg.tls_client_ca.empty() ? "TLS" : "TLS, client certificates";
  } else {
    if (!cfg.tls_client_ca.empty())
      throw ConfigError("daemon.tls_client_ca needs daemon.tls_cert and daemon.tls_key");
    if (!is_loopback_address(cfg.listen) && !cfg.allow_remote_plaintext)
      throw ConfigError("listen = \"" + cfg.listen +
                        "\" is reachable beyond this host without TLS: anyone who reaches it could submit "
                        "jobs and read their results. Set daemon.tls_cert and daemon.tls_key (and "
                        "daemon.token_file), listen on loopback or a unix socket, or set "
                        "daemon.allow_remote_plaintext = true to accept that in so many words");
    s.credentials = grpc::InsecureServerCredentials();
    s.description = unix_socket ? "unix socket" : "plaintext";
  }
  if (!cfg.http.empty() && !is_loopback_address(cfg.http) && !cfg.allow_remote_plaintext)
    throw ConfigError("http = \"" + cfg.http +
                      "\" is reachable beyond this host, and HTTP has no TLS: serve it on loopback (and "
                      "scrape through a proxy), or set daemon.allow_remote_plaintext = true (with "
                      "daemon.token_file, /metrics and /status ask for the token)");
  if (!s.token.empty()) s.description += ", bearer token";
  return s;
}

}  // namespace cuzk::daemon
