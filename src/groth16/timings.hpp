// Wall-clock timings of the prover's stages, in the order they ran.
#pragma once

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace cuzk::groth16 {

// Seconds from t0 to now (progress lines of the CLI and the benchmarks).
inline double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

struct StageTimings {
  std::vector<std::pair<std::string, double>> stages_ms;
  // Sub-stage times (not part of total_ms), summed by name: the split MSMs' "batch_add" and "tail_msm".
  std::vector<std::pair<std::string, double>> details_ms;
  // When set and true, the next stage that starts throws Cancelled: provers stop at stage boundaries.
  const std::atomic<bool>* cancel = nullptr;

  void add_detail(const std::string& name, double ms) {
    for (auto& [n, t] : details_ms)
      if (n == name) {
        t += ms;
        return;
      }
    details_ms.emplace_back(name, ms);
  }
  double detail(const std::string& name) const {
    for (const auto& [n, t] : details_ms)
      if (n == name) return t;
    return 0;
  }

  double total_ms() const {
    double t = 0;
    for (const auto& s : stages_ms) t += s.second;
    return t;
  }
};

// Thrown when a stage starts after StageTimings::cancel was set.
struct Cancelled : std::runtime_error {
  Cancelled() : std::runtime_error("cancelled") {}
};

// Measures one stage from construction to finish() (or destruction) and records it. Starting a stage is
// the provers' cancellation point (StageTimings::cancel).
class StageTimer {
 public:
  StageTimer(StageTimings* sink, std::string name)
      : sink_(sink), name_(std::move(name)), start_(std::chrono::steady_clock::now()) {
    if (sink_ && sink_->cancel && sink_->cancel->load(std::memory_order_relaxed)) {
      sink_ = nullptr;
      throw Cancelled();
    }
  }
  ~StageTimer() { finish(); }
  StageTimer(const StageTimer&) = delete;
  StageTimer& operator=(const StageTimer&) = delete;

  void finish() {
    if (!sink_) return;
    auto ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_).count();
    sink_->stages_ms.emplace_back(std::move(name_), ms);
    sink_ = nullptr;
  }

 private:
  StageTimings* sink_;
  std::string name_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace cuzk::groth16
