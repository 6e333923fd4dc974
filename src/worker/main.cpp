// cuzk-worker: the worker process of an engine with isolation = "process" (engine/worker_process.hpp). It
// runs its own engine on one GPU (or the CPU) over the parent's repository and proves the partitions the
// parent sends on the socket `--fd`, replying as each finishes. It exits at the end of that stream (the
// parent is gone or done), or at once after a sticky CUDA fault so that the parent can start a new one.
// Not meant to be run by hand.
#include <sys/socket.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "cuda/fault_plan.hpp"
#include "engine/engine.hpp"
#include "engine/worker_protocol.hpp"
#include "filecoin/vanilla_job.hpp"
#include "io/error.hpp"
#include "io/huge_pages.hpp"
#include "io/kept_memory.hpp"
#include "io/whole_file.hpp"

namespace {

using namespace cuzk;
namespace wp = engine::worker_protocol;

// When the host runs out of memory the kernel ends the process it scores worst. A worker process's end is
// recovered from (its parent starts another and proves its partitions again), the daemon's is not: it holds
// every queued job and the clients' connections. So a worker raises its own score (unprivileged: lowering
// the daemon's would need CAP_SYS_RESOURCE); where /proc cannot be written it runs on as it is.
constexpr int kWorkerOomScoreAdj = 500;

void prefer_this_process_under_memory_pressure() {
  if (std::FILE* f = std::fopen("/proc/self/oom_score_adj", "w")) {
    std::fprintf(f, "%d\n", kWorkerOomScoreAdj);
    std::fclose(f);
  }
}

cuda::FaultSpec parse_fault(const std::string& s) {
  cuda::FaultSpec f;
  if (s.empty()) return f;
  const auto a = s.find(','), b = s.find(',', a + 1);
  if (a == std::string::npos || b == std::string::npos) throw CLI::ValidationError("fault spec", s);
  f.every = std::stoull(s.substr(0, a));
  f.rate = std::stod(s.substr(a + 1, b - a - 1));
  f.seed = std::stoull(s.substr(b + 1));
  return f;
}

// One thread per partition in flight (each waits for its job in the engine), replying as it finishes, in
// any order. Finished threads are joined before the next one starts and at the end, so a worker process
// that lives for months holds only the threads it needs.
class Handlers {
 public:
  explicit Handlers(int fd) : fd_(fd) {}
  ~Handlers() { join_all(); }

  template <class F>
  void spawn(F handle) {
    join_finished();
    std::lock_guard lock(mutex_);
    auto it = threads_.emplace(threads_.end());
    *it = std::thread([this, handle, it] {
      const wp::Reply reply = handle();
      std::lock_guard l(mutex_);
      wp::send_frame(fd_, wp::encode(reply));  // the parent gone: nobody to tell
      finished_.push_back(it);
    });
  }

  // A reply from the reading thread itself (status requests are answered at once).
  void send(const wp::Reply& reply) {
    std::lock_guard lock(mutex_);
    wp::send_frame(fd_, wp::encode(reply));
  }

  void join_all() {
    std::unique_lock lock(mutex_);
    while (!threads_.empty()) {
      std::thread t = std::move(threads_.front());
      threads_.pop_front();
      lock.unlock();
      t.join();
      lock.lock();
    }
    finished_.clear();
  }

 private:
  void join_finished() {
    std::vector<std::thread> done;
    {
      std::lock_guard lock(mutex_);
      for (auto it : finished_) {
        done.push_back(std::move(*it));
        threads_.erase(it);
      }
      finished_.clear();
    }
    for (auto& t : done) t.join();
  }

  int fd_;
  std::mutex mutex_;
  std::list<std::thread> threads_;
  std::vector<std::list<std::thread>::iterator> finished_;
};

// The parent's request ids and this engine's jobs, so that a cancel request finds its job (or, arriving
// before the job exists, cancels it as soon as it does).
class Jobs {
 public:
  void started(engine::Engine& e, std::uint64_t request, const std::string& job) {
    std::lock_guard lock(mutex_);
    if (cancelled_early_.erase(request)) {
      e.cancel(job);
      return;
    }
    running_[request] = job;
  }
  void finished(std::uint64_t request) {
    std::lock_guard lock(mutex_);
    running_.erase(request);
  }
  void cancel(engine::Engine& e, std::uint64_t request) {
    std::lock_guard lock(mutex_);
    if (auto it = running_.find(request); it != running_.end()) {
      try {
        e.cancel(it->second);
      } catch (const engine::RequestError&) {  // finished meanwhile
      }
    } else {
      cancelled_early_.insert(request);  // at most one per parent request: cleared when it starts
    }
  }

 private:
  std::mutex mutex_;
  std::map<std::uint64_t, std::string> running_;
  std::set<std::uint64_t> cancelled_early_;
};

// The vanilla-proof requests the parent spooled, each read once for all of its partitions this worker is
// sent (a 32 GiB PoRep's ten come close together; a C1 output is tens of MB of JSON to parse). The newest
// few stay; the parent removes a file when its job ends.
class VanillaJobs {
 public:
  std::shared_ptr<const filecoin::VanillaJob> get(const std::string& path) {
    std::lock_guard lock(mutex_);  // a second partition of the same job waits for the first one's read
    for (const auto& [p, job] : recent_)
      if (p == path) return job;
    std::string bytes;
    try {
      bytes = io::read_whole_file(path);
    } catch (const io::FormatError& e) {
      throw std::runtime_error(std::string("the spooled vanilla proofs: ") + e.what());
    }
    auto job = filecoin::read_vanilla_job(wp::decode_vanilla(bytes));
    recent_.emplace_front(path, job);
    if (recent_.size() > kKept) recent_.pop_back();
    return job;
  }

 private:
  static constexpr std::size_t kKept = 4;
  std::mutex mutex_;
  std::list<std::pair<std::string, std::shared_ptr<const filecoin::VanillaJob>>> recent_;
};

}  // namespace

int main(int argc, char** argv) {
  cuzk::io::use_huge_pages_for_malloc(argv);  // before any thread (the engine passes its setting on)
  prefer_this_process_under_memory_pressure();
  CLI::App app{"cuzk-worker: proves partitions for a cuzk engine with isolation = \"process\""};
  int fd = -1, device = -1;
  unsigned workers = 1;
  engine::EngineConfig cfg;
  std::string repository, parameter_cache, alloc, sticky, corrupt;
  bool pin_keys = false, no_self_check = false, fallback = false;
  app.add_option("--fd", fd, "the socket to the parent")->required();
  int after_pidfd = -1;
  app.add_option("--after-pidfd", after_pidfd,
                 "a pidfd of the worker process this one replaces: GPU work waits for its exit");
  int keep_fd = -1;
  app.add_option("--keep-fd", keep_fd,
                 "a channel to the parent's memory keeper: device copies of keys outlive this process");
  app.add_option("--repository", repository, "the parent's circuit repository")->required();
  app.add_option("--parameter-cache", parameter_cache, "the parent's Filecoin parameter cache");
  app.add_option("--backend", cfg.backend, "cpu or cuda")->required();
  app.add_option("--device", device, "the GPU this worker process serves");
  app.add_option("--workers", workers, "workers (per GPU, or CPU workers)");
  app.add_option("--memory-budget", cfg.memory_budget);
  app.add_option("--pinned-budget", cfg.pinned_budget);
  app.add_option("--max-witness-bytes", cfg.max_witness_bytes);
  app.add_option("--max-attempts", cfg.max_attempts);
  app.add_option("--vram-limit", cfg.vram_limit);
  app.add_option("--vram-margin", cfg.vram_margin);
  app.add_option("--pinned-pool", cfg.pinned_pool);
  app.add_option("--host-memory-budget", cfg.host_memory_budget);
  app.add_option("--key-store", cfg.key_store_dir, "the parent's shared key store (engine/key_store.hpp)");
  app.add_option("--key-sharers", cfg.key_store_sharers, "worker processes that map the store's keys");
  app.add_option("--fault-alloc", alloc);
  app.add_option("--fault-sticky", sticky);
  app.add_option("--fault-corrupt", corrupt);
  app.add_flag("--pin-keys", pin_keys, "page-lock every loaded key (repository.pin_keys)");
  app.add_flag("--no-self-check", no_self_check);
  app.add_flag("--fallback", fallback, "this worker replaces a GPU worker that kept dying (CPU backend)");
  bool fail_start = false;
  app.add_flag("--fault-start-fail", fail_start, "tests: this worker cannot start (a simulated lost GPU)");
  CLI11_PARSE(app, argc, argv);
  // Test hook: a worker that cannot start (as on a GPU no process can open any more); fallbacks start.
  if (const char* v = std::getenv("CUZK_FAULT_WORKER_START_FAIL");
      (fail_start || (v && *v == '1')) && !fallback) {
    std::fprintf(stderr, "cuzk-worker: injected start failure (CUZK_FAULT_WORKER_START_FAIL)\n");
    return 1;
  }
  try {
    if (keep_fd >= 0)
      io::kept::install_client(std::make_unique<io::kept::Client>(io::kept::UniqueFd(keep_fd)));
    cfg.repository = repository;
    if (!parameter_cache.empty()) cfg.parameter_cache = parameter_cache;
    cfg.cpu_workers = cfg.gpu_workers_per_device = workers;
    if (device >= 0) cfg.devices = {device};
    cfg.pin_keys = pin_keys;
    cfg.self_check = !no_self_check;
    cfg.prestage = cfg.pinned_pool > 0;
    cfg.fault_alloc = parse_fault(alloc);
    cfg.fault_sticky = parse_fault(sticky);
    cfg.fault_corrupt = parse_fault(corrupt);
    cfg.exit_on_sticky = true;
    // The parent sees the socket end at once, not after the kernel has released this process's memory.
    cfg.before_sticky_exit = [fd] { ::shutdown(fd, SHUT_RDWR); };
    cfg.predecessor_pidfd = after_pidfd;
    // Its lines share the daemon's stderr: each says which worker process wrote it. The timing lines are the
    // parent's to write, under the daemon's job ids.
    cfg.log_partitions = false;
    cfg.log = [tag = "cuzk-worker[" + std::to_string(::getpid()) + "] " +
                     (device >= 0 && !fallback ? "cuda:" + std::to_string(device) : std::string("cpu")) +
                     ": "](const std::string& line) {
      std::fprintf(stderr, "%s%s\n", tag.c_str(), line.c_str());
    };
    engine::Engine e(cfg);
    // Test hooks: the worker process dies (SIGABRT), or stops answering, on the chosen proof requests, as a
    // crashing or hung prover would.
    cuda::FaultPlan crash(cuda::fault_spec_from_env("CUZK_FAULT_WORKER_CRASH", {}));
    cuda::FaultPlan hang(cuda::fault_spec_from_env("CUZK_FAULT_WORKER_HANG", {}));
    Handlers handlers(fd);
    Jobs jobs;
    VanillaJobs vanilla;
    while (auto frame = wp::read_frame(fd)) {
      const wp::Request request = wp::decode_request(*frame);
      if (request.kind == wp::RequestKind::kStatus) {
        handlers.send({request.id, {}, e.status(false)});
        continue;
      }
      if (request.kind == wp::RequestKind::kCancel) {
        jobs.cancel(e, request.target);
        continue;
      }
      if (request.kind == wp::RequestKind::kEvict) {
        auto reply = wp::reply_to(request.id);
        try {
          const auto r = e.evict(request.circuit_id);
          reply = {request.id, {}, std::nullopt, r.was_loaded, 0, r.freed_bytes, r.jobs_holding};
        } catch (const std::exception&) {  // unknown here: nothing to free
        }
        handlers.send(reply);
        continue;
      }
      if (request.kind == wp::RequestKind::kPreload) {  // loading takes a while: off the reading thread
        handlers.spawn([&e, request] {
          auto reply = wp::reply_to(request.id);
          try {
            const auto r = e.preload(request.circuit_id);
            reply.result.state = engine::PartitionState::kDone;
            reply.already = r.already_loaded;
            reply.ms = r.load_ms;
          } catch (const std::exception& ex) {
            reply.result.state = engine::PartitionState::kFailed;
            reply.result.error = ex.what();
          }
          return reply;
        });
        continue;
      }
      if (crash.fire()) {  // proof requests only
        std::fprintf(stderr, "cuzk-worker: injected crash (CUZK_FAULT_WORKER_CRASH)\n");
        // As a process with a large CUDA context dies: its socket ends first, its exit comes seconds later.
        if (const char* v = std::getenv("CUZK_FAULT_WORKER_EXIT_LINGER_MS")) {
          ::shutdown(fd, SHUT_RDWR);
          std::this_thread::sleep_for(std::chrono::milliseconds(std::atoll(v)));
        }
        std::abort();
      }
      if (hang.fire()) {  // a worker that stops answering: its parent's partition_timeout must end it
        std::fprintf(stderr, "cuzk-worker: injected hang (CUZK_FAULT_WORKER_HANG)\n");
        for (;;) ::pause();
      }
      handlers.spawn([&e, &jobs, &vanilla, request] {
        auto reply = wp::reply_to(request.id);
        try {
          engine::SubmitRequest s{"p" + std::to_string(request.partition), request.circuit_id};
          if (request.vanilla_path.empty()) {
            s.witness_paths = {request.witness_path};
            s.single_partition = true;
          } else {
            s.vanilla_job = vanilla.get(request.vanilla_path);
            s.vanilla_partition = request.partition;
          }
          const std::string job = e.submit(std::move(s)).job_id;
          jobs.started(e, request.id, job);
          const auto result = e.await(job);
          jobs.finished(request.id);
          reply.result = result.partitions.at(0);
          if (reply.result.state != engine::PartitionState::kDone && reply.result.error.empty())
            reply.result.error = result.error;
        } catch (const std::exception& ex) {
          reply.result.state = engine::PartitionState::kFailed;
          reply.result.error = ex.what();
        }
        return reply;
      });
    }
    // End of the request stream: the parent is done (it waited for every reply) or gone (nobody will read
    // what is still in flight), so stop that at its next stage rather than prove it for no one.
    e.cancel_pending();
    handlers.join_all();
    e.shutdown(true);
    return 0;
  } catch (const std::exception& ex) {
    std::fprintf(stderr, "cuzk-worker: %s\n", ex.what());
    return 1;
  }
}
