// cuzk-daemon: the proving service. Loads its configuration (TOML + command-line overrides), starts the
// engine, the gRPC frontend (cuzk.v1.ProvingEngine) and, when asked, the HTTP frontend; SIGTERM or
// SIGINT drains (queued and running jobs finish, no new ones are accepted), a second signal cancels
// what is left.
#include <grpcpp/grpcpp.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <CLI/CLI.hpp>
#include <atomic>
#include <cstdio>
#include <iostream>
#include <memory>
#include <thread>

#include "daemon/config.hpp"
#include "daemon/listener_security.hpp"
#include "io/huge_pages.hpp"
#include "service/grpc_service.hpp"
#include "service/http.hpp"
#include "service/metrics.hpp"

namespace {

// The largest resident set the daemon had, for capacity planning and the benchmark tables.
long peak_rss_mib() {
  rusage u{};
  return ::getrusage(RUSAGE_SELF, &u) == 0 ? u.ru_maxrss / 1024 : -1;
}

std::vector<int> parse_devices(const std::string& text) {
  std::vector<int> out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const auto comma = text.find(',', pos);
    out.push_back(std::stoi(text.substr(pos, comma - pos)));
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return out;
}

int run(int argc, char** argv) {
  CLI::App app{"cuzk-daemon: a GPU-resident Groth16 proving service (gRPC cuzk.v1.ProvingEngine)"};
  std::optional<std::string> config_path, listen, http, repository, parameter_cache, backend, devices, budget,
      vram_limit;
  std::optional<unsigned> gpu_workers, cpu_workers;
  app.add_option("-c,--config", config_path, "TOML configuration (docs/config.md)")->check(CLI::ExistingFile);
  app.add_option("-l,--listen", listen, "gRPC address: unix:///path (created mode 0600) or host:port");
  app.add_option("--http", http, "host:port for GET /metrics, /status, /healthz");
  app.add_option("--repository", repository, "circuit repository directory");
  app.add_option("--parameter-cache", parameter_cache,
                 "Filecoin parameter cache (default: $FIL_PROOFS_PARAMETER_CACHE, else "
                 "/var/tmp/filecoin-proof-parameters)");
  app.add_option("--backend", backend, "cpu | cuda | auto");
  app.add_option("--gpu-workers-per-device", gpu_workers, "workers sharing each GPU (default 2)");
  app.add_option("--cpu-workers", cpu_workers, "workers on the CPU backend (default 1)");
  app.add_option("--devices", devices, "GPU ordinals, e.g. 0,1 (default: all)");
  app.add_option("--memory-budget", budget, "host memory for loaded keys, e.g. 64GiB (default: no limit)");
  app.add_option("--vram-limit", vram_limit,
                 "device memory this daemon may use per GPU, e.g. 16GiB (default: the whole GPU)");
  CLI11_PARSE(app, argc, argv);

  auto cfg = cuzk::daemon::load_config(config_path);
  if (listen) cfg.listen = *listen;
  if (http) cfg.http = *http;
  if (repository) cfg.engine.repository = *repository;
  if (parameter_cache) cfg.engine.parameter_cache = *parameter_cache;
  if (backend) cfg.engine.backend = *backend;
  if (gpu_workers) cfg.engine.gpu_workers_per_device = *gpu_workers;
  if (cpu_workers) cfg.engine.cpu_workers = *cpu_workers;
  if (devices) cfg.engine.devices = parse_devices(*devices);
  if (budget) cfg.engine.memory_budget = cuzk::daemon::parse_bytes(*budget);
  if (vram_limit) cfg.engine.vram_limit = cuzk::daemon::parse_bytes(*vram_limit);

  // Signals are taken by one thread (sigwait), never by whichever thread happens to run.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  const cuzk::daemon::ListenerSecurity security = cuzk::daemon::listener_security(cfg);
  cuzk::service::ClientAccess access({security.token, cfg.max_jobs_per_client});
  cuzk::service::Metrics metrics;
  cfg.engine.on_job_finished = [&metrics, &access](const cuzk::engine::JobResult& r) {
    metrics.job_finished(r);
    access.finished(r.job_id);
  };
  cuzk::engine::Engine engine(cfg.engine);
  const bool unix_socket = cfg.listen.rfind("unix:", 0) == 0;
  cuzk::service::ProvingService service(
      engine, [&] { return metrics.render(engine.status(false)); }, {unix_socket, cfg.witness_dir}, &access);

  grpc::ServerBuilder builder;
  builder.SetMaxReceiveMessageSize(static_cast<int>(std::min<std::size_t>(cfg.max_message_bytes, INT32_MAX)));
  builder.SetMaxSendMessageSize(static_cast<int>(std::min<std::size_t>(cfg.max_message_bytes, INT32_MAX)));
  int port = 0;
  builder.AddListeningPort(cfg.listen, security.credentials, unix_socket ? nullptr : &port);
  builder.RegisterService(&service);
  const mode_t old_mask = ::umask(0177);  // the socket is created rw for its owner only
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  ::umask(old_mask);
  if (!server) {
    std::cerr << "cuzk-daemon: cannot listen on " << cfg.listen << "\n";
    return 1;
  }
  std::unique_ptr<cuzk::service::HttpFrontend> http_frontend;
  if (!cfg.http.empty())
    http_frontend = std::make_unique<cuzk::service::HttpFrontend>(cfg.http, engine, metrics, security.token,
                                                                  cfg.healthz_fails_on);
  std::cerr << "cuzk-daemon: listening on " << cfg.listen << " (" << security.description << ")"
            << (cfg.http.empty() ? "" : ", HTTP on " + cfg.http) << ", backend " << engine.backend() << "\n";

  int sig = 0;
  sigwait(&signals, &sig);
  std::atomic<bool> stopping_done{false};
  std::cerr << "cuzk-daemon: signal " << sig << ": draining (a second signal cancels what is left)\n";
  std::thread second([&] {
    int again = 0;
    sigwait(&signals, &again);
    if (again != 0 && !stopping_done) engine.cancel_pending();
  });
  engine.shutdown(true);  // waits for queued and running work
  // Late AwaitProof calls still get their finished jobs until the server stops.
  server->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(2));
  http_frontend.reset();
  const auto s = engine.status(false);
  std::cerr << "cuzk-daemon: stopped: " << s.completed << " completed, " << s.failed << " failed, "
            << s.cancelled << " cancelled; peak host memory " << peak_rss_mib() << " MiB\n";
  stopping_done = true;
  pthread_kill(second.native_handle(),
               SIGTERM);  // releases the second-signal waiter, which then does nothing
  second.join();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  cuzk::io::use_huge_pages_for_malloc(argv);  // before any thread
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "cuzk-daemon: " << e.what() << "\n";
    return 1;
  }
}
