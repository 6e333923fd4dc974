// Remote access to a real cuzk-daemon (issue 33): gRPC over TLS on TCP with a wrong, a missing and the right
// bearer token; client certificates when a client CA is configured; the HTTP endpoints behind the same token;
// the daemon refusing to start when a TCP listener would be reachable beyond loopback without TLS, or with a
// token too short; and the per-client limit on jobs in flight. Certificates are made by openssl for the test.
#include <fcntl.h>
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>
#include <httplib.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>

#include "cuzk/v1/proving.grpc.pb.h"
#include "daemon/daemon_process.hpp"
#include "unit/engine_test_util.hpp"

namespace cuzk {
namespace {

namespace v1 = cuzk::v1;
namespace fs = std::filesystem;

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

int free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  socklen_t len = sizeof a;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  ::close(fd);
  return ntohs(a.sin_port);
}

void run(const std::string& command) {
  ASSERT_EQ(std::system((command + " >/dev/null 2>&1").c_str()), 0) << command;
}

// A server certificate for localhost (self-signed: the client trusts it as its root), a client CA and a
// client certificate it signs, a token file.
struct Credentials {
  explicit Credentials(const fs::path& dir) : dir(dir) {
    const std::string d = dir.string();
    const std::string ec = "-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2";
    run("openssl req -x509 " + ec + " -keyout " + d + "/server.key -out " + d +
        "/server.pem -subj /CN=localhost -addext subjectAltName=DNS:localhost,IP:127.0.0.1");
    run("openssl req -x509 " + ec + " -keyout " + d + "/ca.key -out " + d + "/ca.pem -subj /CN=cuzk-test-ca");
    run("openssl req " + ec + " -keyout " + d + "/client.key -out " + d + "/client.csr -subj /CN=curio-1");
    run("openssl x509 -req -in " + d + "/client.csr -CA " + d + "/ca.pem -CAkey " + d +
        "/ca.key -CAcreateserial -out " + d + "/client.pem -days 2");
    std::ofstream(dir / "token") << "0123456789abcdef0123456789abcdef\n";
  }
  fs::path dir;
  const std::string token = "0123456789abcdef0123456789abcdef";
};

// A cuzk-daemon on a TCP port with the given [daemon] settings; its exit status when it stopped by itself.
class TcpDaemon {
 public:
  TcpDaemon(const fs::path& repo, const std::string& listen, const std::string& http,
            const std::string& daemon_toml)
      : log_(repo / "daemon.log") {
    const auto config = repo / "daemon.toml";
    std::ofstream(config) << "[daemon]\nlisten = \"" << listen << "\"\nhttp = \"" << http << "\"\n"
                          << daemon_toml;
    pid_ = ::fork();
    if (pid_ == 0) {
      const int fd = ::open(log_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
      ::dup2(fd, 2);
      ::execl(CUZK_DAEMON_BIN, "cuzk-daemon", "--config", config.c_str(), "--repository", repo.c_str(),
              "--backend", "cpu", static_cast<char*>(nullptr));
      ::_exit(127);
    }
  }
  ~TcpDaemon() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  // The exit status if it has exited within `seconds`, else -1.
  int exited_within(double seconds) {
    for (int i = 0; i < seconds * 20; ++i) {
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return -1;
  }
  std::string log() const { return read(log_); }

 private:
  pid_t pid_ = -1;
  fs::path log_;
};

grpc::Status get_status(v1::ProvingEngine::Stub& stub, const std::string& token = "") {
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(20));
  if (!token.empty()) ctx.AddMetadata("authorization", "Bearer " + token);
  v1::GetStatusResponse out;
  return stub.GetStatus(&ctx, v1::GetStatusRequest{}, &out);
}

std::unique_ptr<v1::ProvingEngine::Stub> tls_stub(int port, const Credentials& c, bool client_cert,
                                                  int wait_s = 20) {
  grpc::SslCredentialsOptions o;
  o.pem_root_certs = read(c.dir / "server.pem");
  if (client_cert) {
    o.pem_private_key = read(c.dir / "client.key");
    o.pem_cert_chain = read(c.dir / "client.pem");
  }
  // By address: the certificate names 127.0.0.1 too, and no name is resolved (c-ares keeps a few bytes of a
  // lookup to the end of the process, which LeakSanitizer reports).
  auto channel = grpc::CreateChannel("127.0.0.1:" + std::to_string(port), grpc::SslCredentials(o));
  channel->WaitForConnected(std::chrono::system_clock::now() + std::chrono::seconds(wait_s));
  return v1::ProvingEngine::NewStub(channel);
}

TEST(DaemonRemote, TlsAndABearerTokenGuardEveryCallAndTheHttpEndpoints) {
  test::TempRepository repo;
  const Credentials c(repo.root());
  const int port = free_port(), http_port = free_port();
  const std::string d = c.dir.string();
  TcpDaemon daemon(repo.root(), "127.0.0.1:" + std::to_string(port), "127.0.0.1:" + std::to_string(http_port),
                   "tls_cert = \"" + d + "/server.pem\"\ntls_key = \"" + d +
                       "/server.key\"\ntoken_file = \"" + d + "/token\"\n");
  auto stub = tls_stub(port, c, false);
  ASSERT_EQ(daemon.exited_within(0), -1) << daemon.log();
  const grpc::Status none = get_status(*stub);
  EXPECT_EQ(none.error_code(), grpc::StatusCode::UNAUTHENTICATED) << none.error_message() << daemon.log();
  EXPECT_NE(none.error_message().find("authorization: Bearer"), std::string::npos);
  EXPECT_EQ(get_status(*stub, "0123456789abcdef0123456789abcdeX").error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(get_status(*stub, "0123").error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_TRUE(get_status(*stub, c.token).ok()) << daemon.log();
  // Every call, not only GetStatus.
  {
    grpc::ClientContext ctx;
    v1::SubmitProofResponse out;
    EXPECT_EQ(stub->SubmitProof(&ctx, v1::SubmitProofRequest{}, &out).error_code(),
              grpc::StatusCode::UNAUTHENTICATED);
  }
  // A plaintext client does not get through to a TLS listener.
  auto plain = v1::ProvingEngine::NewStub(
      grpc::CreateChannel("127.0.0.1:" + std::to_string(port), grpc::InsecureChannelCredentials()));
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(5));
  v1::GetStatusResponse out;
  EXPECT_FALSE(plain->GetStatus(&ctx, v1::GetStatusRequest{}, &out).ok());
  // HTTP: /metrics and /status ask for the token, /healthz does not.
  httplib::Client http("127.0.0.1", http_port);
  const auto anonymous = http.Get("/status");
  ASSERT_TRUE(anonymous);
  EXPECT_EQ(anonymous->status, 401);
  EXPECT_EQ(http.Get("/metrics")->status, 401);
  EXPECT_EQ(http.Get("/status", {{"Authorization", "Bearer wrong-token-wrong-token"}})->status, 401);
  const auto with = http.Get("/status", {{"Authorization", "Bearer " + c.token}});
  ASSERT_TRUE(with);
  EXPECT_EQ(with->status, 200);
  EXPECT_EQ(http.Get("/healthz")->status, 200);
  EXPECT_NE(daemon.log().find("(TLS, bearer token)"), std::string::npos) << daemon.log();
}

TEST(DaemonRemote, ClientCertificatesAreRequiredWhenAClientCaIsSet) {
  test::TempRepository repo;
  const Credentials c(repo.root());
  const int port = free_port(), http_port = free_port();
  const std::string d = c.dir.string();
  TcpDaemon daemon(repo.root(), "127.0.0.1:" + std::to_string(port), "127.0.0.1:" + std::to_string(http_port),
                   "tls_cert = \"" + d + "/server.pem\"\ntls_key = \"" + d +
                       "/server.key\"\ntls_client_ca = \"" + d + "/ca.pem\"\n");
  auto with_cert = tls_stub(port, c, true);
  EXPECT_TRUE(get_status(*with_cert).ok()) << daemon.log();
  auto without = tls_stub(port, c, false, 2);  // its handshake never completes
  EXPECT_FALSE(get_status(*without).ok());
  EXPECT_NE(daemon.log().find("(TLS, client certificates)"), std::string::npos) << daemon.log();
}

TEST(DaemonRemote, PlaintextBeyondLoopbackAndShortTokensAreRefusedAtStart) {
  test::TempRepository repo;
  const int port = free_port(), http_port = free_port();
  {
    TcpDaemon open(repo.root(), "0.0.0.0:" + std::to_string(port), "127.0.0.1:" + std::to_string(http_port),
                   "");
    EXPECT_EQ(open.exited_within(30), 1);
    EXPECT_NE(open.log().find("allow_remote_plaintext"), std::string::npos) << open.log();
  }
  {
    TcpDaemon http(repo.root(), "127.0.0.1:" + std::to_string(port), "0.0.0.0:" + std::to_string(http_port),
                   "");
    EXPECT_EQ(http.exited_within(30), 1);
    EXPECT_NE(http.log().find("HTTP has no TLS"), std::string::npos) << http.log();
  }
  {
    std::ofstream(repo.root() / "short") << "abc\n";
    TcpDaemon short_token(repo.root(), "127.0.0.1:" + std::to_string(port), "",
                          "token_file = \"" + (repo.root() / "short").string() + "\"\n");
    EXPECT_EQ(short_token.exited_within(30), 1);
    EXPECT_NE(short_token.log().find("at least 16"), std::string::npos) << short_token.log();
  }
  {  // In so many words: then it starts.
    TcpDaemon allowed(repo.root(), "0.0.0.0:" + std::to_string(port), "", "allow_remote_plaintext = true\n");
    auto channel =
        grpc::CreateChannel("127.0.0.1:" + std::to_string(port), grpc::InsecureChannelCredentials());
    EXPECT_TRUE(channel->WaitForConnected(std::chrono::system_clock::now() + std::chrono::seconds(30)));
    auto stub = v1::ProvingEngine::NewStub(channel);
    EXPECT_TRUE(get_status(*stub).ok()) << allowed.log();
  }
}

// daemon.healthz_fails_on (service/health.hpp): a value it does not know stops the start with the values it
// does; a known one starts, and with no GPU lost /healthz says ok. (Lost GPUs under each policy:
// service_health_test.)
TEST(DaemonRemote, HealthzPolicyIsCheckedAtStart) {
  test::TempRepository repo;
  const int port = free_port(), http_port = free_port();
  {
    TcpDaemon bad(repo.root(), "127.0.0.1:" + std::to_string(port), "127.0.0.1:" + std::to_string(http_port),
                  "healthz_fails_on = \"never\"\n");
    EXPECT_EQ(bad.exited_within(30), 1);
    EXPECT_NE(bad.log().find("daemon.healthz_fails_on must be \"any-gpu-lost\" or \"all-gpus-lost\""),
              std::string::npos)
        << bad.log();
  }
  TcpDaemon all(repo.root(), "127.0.0.1:" + std::to_string(port), "127.0.0.1:" + std::to_string(http_port),
                "healthz_fails_on = \"all-gpus-lost\"\n");
  httplib::Client http("127.0.0.1", http_port);
  for (int i = 0; i < 300; ++i) {
    if (auto health = http.Get("/healthz")) {
      EXPECT_EQ(health->status, 200);
      EXPECT_EQ(health->body, "ok\n");
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  FAIL() << "no answer from /healthz in 30 s: " << all.log();
}

TEST(DaemonRemote, EachClientMayHoldAtMostItsJobsInFlight) {
  test::TempRepository repo;
  const auto w = repo.add<Bls12_381>("slow", 1 << 15, 3);
  test::Daemon d(repo.root(), "max_jobs_per_client = 2\n");
  auto request = [&](int i) {
    v1::SubmitProofRequest r;
    r.set_request_id("job-" + std::to_string(i));
    r.set_circuit_id("slow");
    r.set_witness(std::string(w[i % 3].begin(), w[i % 3].end()));
    return r;
  };
  std::string first, second;
  ASSERT_TRUE(test::submit(d, request(0), &first).ok());
  ASSERT_TRUE(test::submit(d, request(1), &second).ok());
  const grpc::Status third = test::submit(d, request(2));
  EXPECT_EQ(third.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << third.error_message();
  EXPECT_NE(third.error_message().find("max_jobs_per_client"), std::string::npos);
  EXPECT_EQ(test::await(d, first).status(), v1::AwaitProofResponse::COMPLETED);
  EXPECT_TRUE(test::submit(d, request(3)).ok());  // a slot is free again once a job has ended
  EXPECT_EQ(test::await(d, second).status(), v1::AwaitProofResponse::COMPLETED);
}

}  // namespace
}  // namespace cuzk
