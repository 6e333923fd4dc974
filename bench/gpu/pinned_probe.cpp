// cuzk-bench pinned [GIB] [KILL_GIB]: what page-locked host memory costs to get and to give back, for the
// pinned pool's leases (a 32 GiB PoRep partition's a, b, c and aux: 12.5 + 4.2 GB, fresh in every new
// worker) and for a worker process that dies holding them:
//   - GIB (default 8) allocated by cudaMallocHost, then by mmap + madvise(MADV_HUGEPAGE) + a first touch on
//     all cores + cudaHostRegister, then the same without huge pages; each freed again (timed);
//   - two threads doing each at once (two workers taking their first leases together);
//   - a child process that holds KILL_GIB (default 32) of each kind, plus a CUDA context, SIGKILLed: the time
//     until its end of a pipe closes (what a daemon watching a socket sees) and until waitpid returns.
// Run before anything else touches CUDA in this process (the children fork first).
#include <cuda_runtime_api.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "cuda/error.hpp"
#include "probe_support.hpp"

namespace cuzk::bench {
namespace {

enum class Kind { kMallocHost, kMappedHuge, kMapped4k };

const char* name(Kind k) {
  switch (k) {
    case Kind::kMallocHost:
      return "cudaMallocHost";
    case Kind::kMappedHuge:
      return "mmap + THP + touch + register";
    case Kind::kMapped4k:
      return "mmap (4 KiB) + touch + register";
  }
  return "?";
}

// One allocation of `bytes` of `kind`, with the time each step took.
struct Held {
  Kind kind{};
  void* p = nullptr;
  std::size_t bytes = 0;
  double map_ms = 0, touch_ms = 0, lock_ms = 0;

  Held(Kind k, std::size_t n) : kind(k), bytes(n) {
    if (k == Kind::kMallocHost) {
      const auto t = Clock::now();
      CUZK_CUDA_CHECK(cudaMallocHost(&p, n));
      lock_ms = ms_since(t);
      return;
    }
    auto t = Clock::now();
    p = ::mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::runtime_error("mmap failed");
    if (k == Kind::kMappedHuge) ::madvise(p, n, MADV_HUGEPAGE);
    map_ms = ms_since(t);
    t = Clock::now();
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    std::vector<std::thread> pool;
    for (unsigned i = 0; i < threads; ++i)
      pool.emplace_back([&, i] {
        auto* b = static_cast<std::uint8_t*>(p);
        for (std::size_t at = n * i / threads / 4096 * 4096; at < n * (i + 1) / threads; at += 4096)
          b[at] = 1;
      });
    for (auto& th : pool) th.join();
    touch_ms = ms_since(t);
    t = Clock::now();
    CUZK_CUDA_CHECK(cudaHostRegister(p, n, cudaHostRegisterDefault));
    lock_ms = ms_since(t);
  }
  double total_ms() const { return map_ms + touch_ms + lock_ms; }
  double release() {
    const auto t = Clock::now();
    if (kind == Kind::kMallocHost) {
      CUZK_CUDA_CHECK(cudaFreeHost(p));
    } else {
      CUZK_CUDA_CHECK(cudaHostUnregister(p));
      ::munmap(p, bytes);
    }
    p = nullptr;
    return ms_since(t);
  }
};

// A child holding `bytes` of `kind` and a CUDA context with `device_bytes` allocated, SIGKILLed once ready.
void kill_probe(Kind kind, std::size_t bytes, std::size_t device_bytes) {
  int ready[2], watch[2];
  if (::pipe(ready) != 0 || ::pipe(watch) != 0) throw std::runtime_error("pipe failed");
  const pid_t child = ::fork();
  if (child < 0) throw std::runtime_error("fork failed");
  if (child == 0) {
    ::close(ready[0]);
    ::close(watch[0]);
    try {
      void* d = nullptr;
      CUZK_CUDA_CHECK(cudaMalloc(&d, device_bytes));
      CUZK_CUDA_CHECK(cudaMemset(d, 1, device_bytes));
      Held h(kind, bytes);
      CUZK_CUDA_CHECK(cudaDeviceSynchronize());
      const char c = 'r';
      if (::write(ready[1], &c, 1) != 1) std::_Exit(3);
      for (;;) ::pause();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "child: %s\n", e.what());
      std::_Exit(2);
    }
  }
  ::close(ready[1]);
  ::close(watch[1]);
  char c = 0;
  const auto up = Clock::now();
  if (::read(ready[0], &c, 1) != 1) {
    ::waitpid(child, nullptr, 0);
    throw std::runtime_error(std::string("the child holding ") + name(kind) + " did not get ready");
  }
  const double setup_ms = ms_since(up);
  const auto t = Clock::now();
  ::kill(child, SIGKILL);
  while (::read(watch[0], &c, 1) > 0) {
  }
  const double eof_ms = ms_since(t);
  ::waitpid(child, nullptr, 0);
  const double reaped_ms = ms_since(t);
  ::close(ready[0]);
  ::close(watch[0]);
  std::printf(
      "| SIGKILL, child holding %5.1f GB %-32s + %4.1f GB device | set up %8.1f ms | pipe closed %8.1f ms "
      "| reaped %8.1f ms |\n",
      double(bytes) / 1e9, name(kind), double(device_bytes) / 1e9, setup_ms, eof_ms, reaped_ms);
  std::fflush(stdout);
}

int measure_pinned(int argc, char** argv) {
  const double gib = argc >= 1 ? std::atof(argv[0]) : 8.0;
  const double kill_gib = argc >= 2 ? std::atof(argv[1]) : 32.0;
  if (!(gib > 0) || !(kill_gib >= 0)) {
    std::fprintf(stderr, "usage: cuzk-bench pinned [GIB > 0] [KILL_GIB >= 0]\n");
    return 2;
  }
  const std::size_t n = static_cast<std::size_t>(gib * double(1 << 30)) & ~std::size_t(4095);
  const std::size_t kn = static_cast<std::size_t>(kill_gib * double(1 << 30)) & ~std::size_t(4095);
  const Kind kinds[] = {Kind::kMallocHost, Kind::kMappedHuge, Kind::kMapped4k};
  if (kn > 0)
    for (Kind k : kinds) kill_probe(k, kn, std::size_t(40) << 30);
  CUZK_CUDA_CHECK(cudaFree(nullptr));  // the context, outside the timings
  std::printf(
      "| page-locked %.2f GB by | map | touch | lock | total | rate | free "
      "|\n|---|---:|---:|---:|---:|---:|---:|\n",
      double(n) / 1e9);
  for (int round = 0; round < 2; ++round)
    for (Kind k : kinds) {
      Held h(k, n);
      const double free_ms = h.release();
      std::printf("| %-32s | %7.1f | %7.1f | %7.1f | %7.1f ms | %5.1f GB/s | %7.1f ms |\n", name(k), h.map_ms,
                  h.touch_ms, h.lock_ms, h.total_ms(), double(n) / 1e6 / h.total_ms(), free_ms);
      std::fflush(stdout);
    }
  for (Kind k : kinds) {
    double ms[2] = {0, 0};
    const auto t = Clock::now();
    std::thread a([&] {
      Held h(k, n);
      ms[0] = h.total_ms();
      h.release();
    });
    std::thread b([&] {
      Held h(k, n);
      ms[1] = h.total_ms();
      h.release();
    });
    a.join();
    b.join();
    std::printf("| two threads at once, %-32s | each %7.1f / %7.1f ms | both %7.1f ms (with the frees) |\n",
                name(k), ms[0], ms[1], ms_since(t));
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace

int run_pinned_probe(int argc, char** argv) {
  return run_probe("pinned", [&] { return measure_pinned(argc, argv); });
}

}  // namespace cuzk::bench
