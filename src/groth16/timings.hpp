// Wall-clock timings of the prover's stages, in the order they ran.
#pragma once

#include <chrono>
#include <string>
#include <utility>
#include <vector>

namespace cuzk::groth16 {

struct StageTimings {
  std::vector<std::pair<std::string, double>> stages_ms;

  double total_ms() const {
    double t = 0;
    for (const auto& s : stages_ms) t += s.second;
    return t;
  }
};

// Measures one stage from construction to finish() (or destruction) and records it.
class StageTimer {
 public:
  StageTimer(StageTimings* sink, std::string name)
      : sink_(sink), name_(std::move(name)), start_(std::chrono::steady_clock::now()) {}
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
