// PhaseTimer: per-phase GPU time of a multi-kernel operation, for finding where the time goes.
// Enabled by an environment variable (e.g. CUZK_MSM_TRACE=1); when disabled, mark() costs a branch.
// Phases with the same name are summed (slices of a chunked MSM); report() synchronises the last event
// and prints one line to stderr.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "cuda/event.hpp"

namespace cuzk::cuda {

class PhaseTimer {
 public:
  PhaseTimer(const char* env_var, cudaStream_t stream) : stream_(stream) {
    const char* v = std::getenv(env_var);
    enabled_ = v != nullptr && *v != '\0' && *v != '0';
    if (enabled_) {
      marks_.emplace_back();
      marks_.back().event.record(stream_);
    }
  }
  bool enabled() const { return enabled_; }

  // Ends the phase `name` at the current end of the stream.
  void mark(const char* name) {
    if (!enabled_) return;
    marks_.emplace_back();
    marks_.back().name = name;
    marks_.back().event.record(stream_);
  }

  void report(const std::string& title) {
    if (!enabled_ || marks_.size() < 2) return;
    marks_.back().event.synchronize();
    std::vector<std::pair<std::string, double>> sums;
    for (std::size_t i = 1; i < marks_.size(); ++i) {
      const double ms = Event::elapsed_ms(marks_[i - 1].event, marks_[i].event);
      bool found = false;
      for (auto& [name, total] : sums)
        if (name == marks_[i].name) total += ms, found = true;
      if (!found) sums.emplace_back(marks_[i].name, ms);
    }
    std::string line = title + ":";
    double all = 0;
    for (const auto& [name, total] : sums) {
      char buf[96];
      std::snprintf(buf, sizeof buf, " %s=%.2f", name.c_str(), total);
      line += buf;
      all += total;
    }
    std::fprintf(stderr, "%s total=%.2f ms\n", line.c_str(), all);
  }

 private:
  struct Mark {
    std::string name;
    Event event;
  };
  cudaStream_t stream_;
  bool enabled_ = false;
  std::vector<Mark> marks_;
};

}  // namespace cuzk::cuda
