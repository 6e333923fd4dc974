// cuzk-bench key-image KEY [--dir DIR] [--reps N]
//
// What a worker process pays for its proving key (engine.key_store, io/key_image.hpp), for a .params or
// .zkey file:
//   read     decoded from the key file into the heap: a worker without a key store, at every start
//   build    decoded from the key file into a new image in DIR: the first worker with a store
//   map      the image mapped: every other worker, and a worker started again after one died
//   touch    every page of the mapped key faulted in (what the first upload or a CPU proof costs a new
//            mapping; a heap key pays it while decoding)
//   pin      (CUDA builds) mapped without filling its page tables, then page-locked for the GPU, as a GPU
//            worker's repository does at load
// DIR should be the store's file system (default /dev/shm). The image is removed at the end.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <vector>

#include "io/bellperson.hpp"
#include "io/key_image.hpp"
#include "io/zkey.hpp"
#ifdef CUZK_HAVE_CUDA
#include "cuda/host_registry.hpp"
#endif

namespace cuzk::bench {

namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// Calls f(data, bytes) for each big array of the key.
template <class F>
void for_arrays(io::bellperson::Params& p, F&& f) {
  for (auto* a : {&p.h, &p.l, &p.a, &p.b_g1}) f(a->data(), a->size() * sizeof((*a)[0]));
  f(p.b_g2.data(), p.b_g2.size() * sizeof(p.b_g2[0]));
}
template <class C, class F>
void for_arrays(groth16::ProvingKey<C>& pk, F&& f) {
  for (auto* a : {&pk.a, &pk.b1, &pk.c, &pk.h}) f(a->data(), a->size() * sizeof((*a)[0]));
  f(pk.b2.data(), pk.b2.size() * sizeof(pk.b2[0]));
  f(pk.coefs.data(), pk.coefs.size() * sizeof(pk.coefs[0]));
}

template <class Key, class Read>
int measure(const std::filesystem::path& key_file, const std::filesystem::path& dir, unsigned reps,
            Read read) {
  const auto image = dir / ("cuzk-bench-" + std::to_string(::getpid()) + ".key");
  const auto source = io::key_image::identify(key_file);
  std::size_t bytes = 0;
  {
    const auto t0 = Clock::now();
    Key key = read(nullptr);
    for_arrays(key, [&](void*, std::size_t n) { bytes += n; });
    std::printf("read   %9.1f ms  (%.2f GB decoded into the heap)\n", ms_since(t0), double(bytes) / 1e9);
  }
  {
    const auto t0 = Clock::now();
    io::key_image::Builder builder(image, std::filesystem::file_size(key_file) * 9 / 8 + (1 << 20));
    Key key = read(&builder);
    builder.finish(key, source);
    std::printf("build  %9.1f ms  (image %.2f GB)\n", ms_since(t0),
                double(std::filesystem::file_size(image)) / 1e9);
  }
  for (unsigned r = 0; r < reps; ++r) {
    // A CPU worker: the image mapped with its page tables filled, then every page read once.
    auto t0 = Clock::now();
    {
      Key key = io::key_image::map<Key>(image, source);
      const double map_ms = ms_since(t0);
      t0 = Clock::now();
      const long page = ::sysconf(_SC_PAGESIZE);
      volatile std::uint8_t sink = 0;
      for_arrays(key, [&](void* p, std::size_t n) {
        for (std::size_t i = 0; i < n; i += static_cast<std::size_t>(page))
          sink = static_cast<std::uint8_t>(sink + static_cast<std::uint8_t*>(p)[i]);
      });
      std::printf("map    %9.1f ms  touch %9.1f ms\n", map_ms, ms_since(t0));
    }
#ifdef CUZK_HAVE_CUDA
    // A GPU worker: mapped without filling (the page-locking does), then page-locked as the repository does.
    t0 = Clock::now();
    Key key = io::key_image::map<Key>(image, source, false);
    const double map_ms = ms_since(t0);
    std::vector<std::shared_ptr<void>> pins;
    t0 = Clock::now();
    for_arrays(key,
               [&](void* p, std::size_t n) { pins.push_back(cuda::HostRegistry::instance().pin(p, n)); });
    std::printf("map    %9.1f ms  pin   %9.1f ms  (GPU worker)\n", map_ms, ms_since(t0));
#endif
  }
  std::filesystem::remove(image);
  return 0;
}

}  // namespace

int run_key_image(int argc, char** argv) {
  CLI::App app{"cuzk-bench key-image: what a worker process pays for its key, with and without a key store"};
  std::string key, dir = "/dev/shm";
  unsigned reps = 3;
  app.add_option("key", key, "a .params or .zkey file")->required()->check(CLI::ExistingFile);
  app.add_option("--dir", dir, "where the image goes (the key store's file system)")
      ->check(CLI::ExistingDirectory);
  app.add_option("--reps", reps, "maps of the image")->check(CLI::PositiveNumber);
  CLI11_PARSE(app, argc, argv);
  if (key.ends_with(".params"))
    return measure<io::bellperson::Params>(key, dir, reps, [&](io::ArraySource* a) {
      return io::bellperson::read_params(key, false, false, a);
    });
  const io::CurveId curve = io::peek_curve(key);
  int rc = 0;
  io::with_curve(curve, [&]<class C>() {
    rc = measure<groth16::ProvingKey<C>>(key, dir, reps, [&](io::ArraySource* a) {
      return io::read_zkey<C>(key, io::MappedFile(key), false, a);
    });
  });
  return rc;
}

}  // namespace cuzk::bench
