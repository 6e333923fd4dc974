// cuzk-bench pcie [GIB]: host-to-device upload rates on this machine, for the inputs a proof uploads in its
// GPU region (a, b, c of a bellperson partition: 12.9 GB at 32 GiB PoRep, from the caller's pageable
// memory through the C ABI or when the pinned pool cannot take them):
//   pageable, one stream (what the prover did before StagedUpload), and split over 2, 4 and 8 threads with a
//   stream each (the driver stages pageable copies through its own pinned buffers, a CPU copy per chunk);
//   through cuda::StagedUpload (two page-locked buffers, filled on all cores while the other goes up: what
//   the provers do now), first with its buffers' page-locking, then again;
//   cudaHostRegister of the caller's buffer (its cost), then one upload from it, and the unregister;
//   a host copy into a pinned buffer, then one upload from it (the pinned pool's path, copy and upload).
// Every rate is GB/s of the GIB gibibytes (default 4) moved; the device copy is checked against the host
// buffer's first and last words.
#include <cuda_runtime_api.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <thread>
#include <vector>

#include "cuda/device_buffer.hpp"
#include "cuda/host_registration.hpp"
#include "cuda/parallel_copy.hpp"
#include "cuda/pinned_buffer.hpp"
#include "cuda/staged_upload.hpp"
#include "cuda/stream.hpp"
#include "groth16/timings.hpp"
#include "probe_support.hpp"

namespace cuzk::bench {
namespace {

using groth16::seconds_since;

// Uploads `host` into `device` split over `threads` threads, each with its own stream.
double upload_split(const std::uint64_t* host, cuda::DeviceBuffer<std::uint64_t>& device, std::size_t n,
                    unsigned threads) {
  std::vector<cuda::Stream> streams(threads);
  const auto t0 = Clock::now();
  std::vector<std::thread> pool;
  for (unsigned k = 0; k < threads; ++k)
    pool.emplace_back([&, k] {
      const std::size_t from = n * k / threads, to = n * (k + 1) / threads;
      device.upload(host + from, to - from, streams[k].get(), from);
      CUZK_CUDA_CHECK(cudaStreamSynchronize(streams[k].get()));
    });
  for (auto& t : pool) t.join();
  return seconds_since(t0);
}

bool same_ends(const std::vector<std::uint64_t>& host, const cuda::DeviceBuffer<std::uint64_t>& device) {
  std::uint64_t first = 0, last = 0;
  device.download(&first, 1, nullptr, 0);
  device.download(&last, 1, nullptr, host.size() - 1);
  CUZK_CUDA_CHECK(cudaDeviceSynchronize());
  return first == host.front() && last == host.back();
}

int measure_pcie(int argc, char** argv) {
  const double gib = argc >= 1 ? std::atof(argv[0]) : 4.0;
  if (!(gib > 0)) {
    std::fprintf(stderr, "usage: cuzk-bench pcie [GIB > 0]\n");
    return 2;
  }
  const std::size_t n = static_cast<std::size_t>(gib * double(1 << 30)) / sizeof(std::uint64_t);
  const double gb = double(n * sizeof(std::uint64_t)) / 1e9;
  std::vector<std::uint64_t> host(n);
  for (std::size_t i = 0; i < n; ++i) host[i] = i * 0x9E3779B97F4A7C15ull + 1;  // every page touched
  cuda::DeviceBuffer<std::uint64_t> device(n);
  bool ok = true;
  auto report = [&](const char* what, double s) {
    ok = same_ends(host, device) && ok;
    std::printf("| %-40s | %6.2f GB | %8.1f ms | %6.1f GB/s |\n", what, gb, s * 1e3, gb / s);
    std::fflush(stdout);
    device.memset_async(0, nullptr);
  };
  std::printf("| upload | bytes | time | rate |\n|---|---:|---:|---:|\n");
  upload_split(host.data(), device, n, 1);  // warm-up: the driver's staging buffers, the device's pages
  for (unsigned threads : {1u, 2u, 4u, 8u})
    report(("pageable, " + std::to_string(threads) + " thread(s)").c_str(),
           upload_split(host.data(), device, n, threads));
  for (int round = 0; round < 2; ++round) {  // the first round page-locks the process's staging buffers
    cuda::Stream stream;
    const auto t0 = Clock::now();
    {
      cuda::StagedUpload up;
      up.upload(device, host.data(), n, stream.get());
    }  // waits for the copies
    report(round == 0 ? "pageable via StagedUpload (first)" : "pageable via StagedUpload", seconds_since(t0));
  }
  {
    auto t0 = Clock::now();
    cuda::HostRegistration pin{std::span<const std::uint64_t>(host)};
    const double reg = seconds_since(t0);
    std::printf("| %-40s | %6.2f GB | %8.1f ms | %6.1f GB/s |\n", "cudaHostRegister", gb, reg * 1e3,
                gb / reg);
    report("registered, 1 thread", upload_split(host.data(), device, n, 1));
    report("registered, 2 threads", upload_split(host.data(), device, n, 2));
    t0 = Clock::now();
    pin.reset();
    const double unreg = seconds_since(t0);
    std::printf("| %-40s | %6.2f GB | %8.1f ms | %6.1f GB/s |\n", "cudaHostUnregister", gb, unreg * 1e3,
                gb / unreg);
  }
  {
    cuda::PinnedBuffer<std::uint64_t> pinned(n);
    auto t0 = Clock::now();
    cuda::parallel_copy(pinned.data(), host.data(), n * sizeof(std::uint64_t));
    const double copy = seconds_since(t0);
    std::printf("| %-40s | %6.2f GB | %8.1f ms | %6.1f GB/s |\n", "host copy into pinned (all cores)", gb,
                copy * 1e3, gb / copy);
    t0 = Clock::now();
    std::memcpy(pinned.data(), host.data(), n * sizeof(std::uint64_t));
    const double copy1 = seconds_since(t0);
    std::printf("| %-40s | %6.2f GB | %8.1f ms | %6.1f GB/s |\n", "host copy into pinned (one core)", gb,
                copy1 * 1e3, gb / copy1);
    report("pinned buffer, 1 thread", upload_split(pinned.data(), device, n, 1));
  }
  std::printf("%s\n", ok ? "every upload checked" : "AN UPLOAD DIFFERS");
  return ok ? 0 : 1;
}

}  // namespace

int run_pcie_probe(int argc, char** argv) {
  return run_probe("pcie", [&] { return measure_pcie(argc, argv); });
}

}  // namespace cuzk::bench
