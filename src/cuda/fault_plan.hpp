// FaultPlan: when to inject one kind of fault (a refused device allocation, a sticky kernel fault, a
// corrupted proof), so the recovery paths that production only meets once a month run in every test.
//
// A plan fires on every `every`-th event (1: every one; 0: never by count) and, independently, with
// probability `rate` per event from a seeded generator, so a failing run can be replayed. It is
// thread-safe and costs one relaxed atomic increment per event when disabled. This header has no CUDA
// dependency: the engine's corruption plan uses it on CPU-only builds too.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <random>
#include <stdexcept>
#include <string>

namespace cuzk::cuda {

struct FaultSpec {
  std::uint64_t every = 0;  // fire on events every, 2·every, …; 0: not by count
  double rate = 0;          // and each event with this probability; 0: never
  std::uint64_t seed = 1;

  bool enabled() const { return every > 0 || rate > 0; }
  std::string describe() const {
    if (!enabled()) return "off";
    std::string s;
    if (every > 0) s += "every " + std::to_string(every);
    if (rate > 0) s += (s.empty() ? "" : ", ") + std::string("rate ") + std::to_string(rate);
    return s;
  }
};

class FaultPlan {
 public:
  FaultPlan() = default;
  explicit FaultPlan(FaultSpec spec) { configure(spec); }

  void configure(FaultSpec spec) {
    std::lock_guard lock(mutex_);
    spec_ = spec;
    events_ = 0;
    rng_.seed(spec.seed);
    enabled_.store(spec.enabled(), std::memory_order_relaxed);
  }
  FaultSpec spec() const {
    std::lock_guard lock(mutex_);
    return spec_;
  }

  // Counts one event; true when this one is to fail.
  bool fire() {
    if (!enabled_.load(std::memory_order_relaxed)) return false;
    std::lock_guard lock(mutex_);
    ++events_;
    bool hit = spec_.every > 0 && events_ % spec_.every == 0;
    if (spec_.rate > 0 && std::uniform_real_distribution<double>(0, 1)(rng_) < spec_.rate) hit = true;
    if (hit) fired_.fetch_add(1, std::memory_order_relaxed);
    return hit;
  }

  std::uint64_t fired() const { return fired_.load(std::memory_order_relaxed); }

 private:
  mutable std::mutex mutex_;
  FaultSpec spec_;
  std::uint64_t events_ = 0;
  std::mt19937_64 rng_{1};
  std::atomic<bool> enabled_{false};
  std::atomic<std::uint64_t> fired_{0};
};

// `base` with the environment's overrides <prefix>_EVERY, <prefix>_RATE and CUZK_FAULT_SEED applied (e.g.
// prefix CUZK_FAULT_ALLOC). Throws std::invalid_argument naming a malformed variable.
inline FaultSpec fault_spec_from_env(const std::string& prefix, FaultSpec spec) {
  auto read = [&](const std::string& name, auto parse) {
    const char* v = std::getenv(name.c_str());
    if (v == nullptr || *v == '\0') return;
    try {
      std::size_t used = 0;
      parse(std::string(v), used);
      if (used != std::string(v).size()) throw std::invalid_argument("trailing characters");
    } catch (const std::exception&) {
      throw std::invalid_argument(name + "=\"" + v + "\" is not a valid value");
    }
  };
  read(prefix + "_EVERY",
       [&](const std::string& s, std::size_t& used) { spec.every = std::stoull(s, &used); });
  read(prefix + "_RATE", [&](const std::string& s, std::size_t& used) {
    spec.rate = std::stod(s, &used);
    if (!(spec.rate >= 0 && spec.rate <= 1)) throw std::invalid_argument("rate outside [0, 1]");
  });
  read("CUZK_FAULT_SEED",
       [&](const std::string& s, std::size_t& used) { spec.seed = std::stoull(s, &used); });
  return spec;
}

}  // namespace cuzk::cuda
