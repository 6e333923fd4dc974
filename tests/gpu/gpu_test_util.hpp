// Helpers shared by the GPU tests: skip without a device, random inputs (never zeros), device copies.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "cuda/device.hpp"
#include "cuda/device_buffer.hpp"
#include "ec/batch_normalize.hpp"
#include "ec/fixed_base.hpp"
#include "ff/encoding.hpp"

#define CUZK_REQUIRE_GPU()                                                 \
  do {                                                                     \
    if (cuzk::cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device"; \
  } while (0)

namespace cuzk::test {

template <class F>
std::vector<F> random_field_vector(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<F> v(n);
  for (auto& x : v) x = ff::random_element<F>(rng);
  return v;
}

// n random points of the group (k·G for random k), via a fixed-base table.
template <class Cfg>
std::vector<ec::Affine<Cfg>> random_points(std::size_t n, std::uint64_t seed) {
  static const ec::FixedBaseTable<Cfg> table(Cfg::generator());
  auto ks = random_field_vector<typename Cfg::Scalar>(n, seed);
  return table.mul_all(ks);
}

template <class T>
cuda::DeviceBuffer<T> to_device(const std::vector<T>& host) {
  cuda::DeviceBuffer<T> d(host.size());
  d.upload(host.data(), host.size(), nullptr);
  return d;
}

// An environment variable a test sets (set(value)), given back its earlier value (or unset) when the test
// ends.
class ScopedEnv {
 public:
  explicit ScopedEnv(std::string name) : name_(std::move(name)) {
    if (const char* v = std::getenv(name_.c_str())) saved_ = v;
  }
  ~ScopedEnv() {
    if (saved_)
      ::setenv(name_.c_str(), saved_->c_str(), 1);
    else
      ::unsetenv(name_.c_str());
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;
  void set(const char* value) { ::setenv(name_.c_str(), value, 1); }

 private:
  std::string name_;
  std::optional<std::string> saved_;
};

template <class T>
std::vector<T> to_host(const cuda::DeviceBuffer<T>& d) {
  std::vector<T> h(d.size());
  d.download(h.data(), h.size(), nullptr);
  cudaDeviceSynchronize();
  return h;
}

}  // namespace cuzk::test
