// An SVG timeline of the daemon's workers: one row per worker, one bar per partition it proved.
#pragma once

#include <string>
#include <vector>

namespace cuzk::bench {

struct TimelineBar {
  std::string worker, label;
  double start_ms = 0, end_ms = 0;
  int priority = 2;  // colours the bar (1 LOW … 4 CRITICAL)
  bool ok = true;
};

// Writes the SVG to `path`; throws std::runtime_error when it cannot.
void write_timeline_svg(const std::string& path, std::vector<TimelineBar> bars);

}  // namespace cuzk::bench
