// A real cuzk-daemon (CPU backend, two CPU workers) started on a unix socket in a test repository, and a
// gRPC stub connected to it: what the daemon tests drive. Killed (SIGKILL) when it goes out of scope.
#pragma once

#include <fcntl.h>
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <deque>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "cuzk/v1/proving.grpc.pb.h"

namespace cuzk::test {

namespace v1 = cuzk::v1;

class Daemon {
 public:
  // `more_config`: TOML appended to the daemon's configuration (after its [daemon] table). `log`: where the
  // daemon's standard error goes instead of the test's (a soak's thousands of job lines would bury the
  // failure a CI log shows only part of); print_log_tail() shows its end.
  explicit Daemon(const std::filesystem::path& repo, const std::string& more_config = "",
                  std::filesystem::path log = {})
      : log_(std::move(log)) {
    socket_ = repo / "daemon.sock";
    http_port_ = 20000 + ::getpid() % 20000;
    const auto config = repo / "daemon.toml";  // a small message limit, so the oversized request is cheap
    std::ofstream(config) << "[daemon]\nmax_message_bytes = \"8MiB\"\n" << more_config;
    pid_ = ::fork();
    if (pid_ == 0) {
      if (!log_.empty()) {
        const int fd = ::open(log_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd >= 0 && ::dup2(fd, STDERR_FILENO) >= 0) ::close(fd);
      }
      const std::string listen = "unix://" + socket_.string(),
                        http = "127.0.0.1:" + std::to_string(http_port_);
      ::execl(CUZK_DAEMON_BIN, "cuzk-daemon", "--config", config.c_str(), "--listen", listen.c_str(),
              "--repository", repo.c_str(), "--backend", "cpu", "--cpu-workers", "2", "--http", http.c_str(),
              static_cast<char*>(nullptr));
      ::_exit(127);
    }
    channel_ = grpc::CreateChannel("unix://" + socket_.string(), grpc::InsecureChannelCredentials());
    stub_ = v1::ProvingEngine::NewStub(channel_);
    EXPECT_TRUE(channel_->WaitForConnected(std::chrono::system_clock::now() + std::chrono::seconds(30)));
  }
  ~Daemon() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  // SIGTERM, then the exit status.
  int terminate() {
    ::kill(pid_, SIGTERM);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
  v1::ProvingEngine::Stub& stub() { return *stub_; }
  const std::filesystem::path& socket() const { return socket_; }
  int http_port() const { return http_port_; }
  pid_t pid() const { return pid_; }
  // The last `lines` lines of the daemon's log file (when it has one), to standard output.
  void print_log_tail(std::size_t lines) const {
    if (log_.empty()) return;
    std::ifstream in(log_);
    std::deque<std::string> tail;
    for (std::string line; std::getline(in, line);) {
      tail.push_back(std::move(line));
      if (tail.size() > lines) tail.pop_front();
    }
    std::printf("---- the daemon's log (%s), last %zu lines\n", log_.c_str(), tail.size());
    for (const auto& line : tail) std::printf("%s\n", line.c_str());
  }

 private:
  pid_t pid_ = -1;
  std::filesystem::path log_;
  std::filesystem::path socket_;
  int http_port_ = 0;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v1::ProvingEngine::Stub> stub_;
};

// SubmitProof; the job id in *job_id when given.
inline grpc::Status submit(Daemon& d, const v1::SubmitProofRequest& r, std::string* job_id = nullptr) {
  v1::SubmitProofResponse out;
  grpc::ClientContext ctx;
  const grpc::Status s = d.stub().SubmitProof(&ctx, r, &out);
  if (job_id) *job_id = out.job_id();
  return s;
}

// AwaitProof until the job ends.
inline v1::AwaitProofResponse await(Daemon& d, const std::string& job_id) {
  v1::AwaitProofRequest a;
  a.set_job_id(job_id);
  v1::AwaitProofResponse r;
  grpc::ClientContext ctx;
  EXPECT_TRUE(d.stub().AwaitProof(&ctx, a, &r).ok());
  return r;
}

// CancelProof: a running job's partitions stop at their next stage.
inline grpc::Status cancel(Daemon& d, const std::string& job_id) {
  v1::CancelProofRequest c;
  c.set_job_id(job_id);
  v1::CancelProofResponse out;
  grpc::ClientContext ctx;
  return d.stub().CancelProof(&ctx, c, &out);
}

}  // namespace cuzk::test
