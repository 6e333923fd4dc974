#include "client/timeline.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <stdexcept>

namespace cuzk::bench {

void write_timeline_svg(const std::string& path, std::vector<TimelineBar> bars) {
  std::map<std::string, int> rows;
  double t0 = 1e300, t1 = 0;
  for (const auto& b : bars) {
    rows.emplace(b.worker, 0);
    t0 = std::min(t0, b.start_ms);
    t1 = std::max(t1, b.end_ms);
  }
  int r = 0;
  for (auto& [name, row] : rows) row = r++;
  if (bars.empty()) t0 = 0, t1 = 1;
  const double width = 1000, left = 110, row_h = 26, top = 30;
  const double scale = (width - left - 10) / std::max(1.0, t1 - t0);
  const double height = top + row_h * std::max<std::size_t>(1, rows.size()) + 30;
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot write " + path);
  const char* colours[] = {"#999999", "#6baed6", "#3182bd", "#fd8d3c", "#e6550d"};
  out << "<svg xmlns='http://www.w3.org/2000/svg' width='" << width << "' height='" << height
      << "' font-family='sans-serif' font-size='11'>\n"
      << "<text x='10' y='18'>cuzk workers over time (" << (t1 - t0) / 1000 << " s); colour = priority "
      << "(light LOW … dark orange CRITICAL); red outline = failed</text>\n";
  for (const auto& [name, row] : rows)
    out << "<text x='10' y='" << top + row * row_h + 17 << "'>" << name << "</text>\n";
  for (const auto& b : bars) {
    const double x = left + (b.start_ms - t0) * scale, w = std::max(1.0, (b.end_ms - b.start_ms) * scale);
    const double y = top + rows[b.worker] * row_h + 3;
    out << "<rect x='" << x << "' y='" << y << "' width='" << w << "' height='" << row_h - 6 << "' fill='"
        << colours[std::clamp(b.priority, 0, 4)] << "' stroke='" << (b.ok ? "#333" : "red") << "'><title>"
        << b.label << " " << b.end_ms - b.start_ms << " ms</title></rect>\n";
  }
  for (int k = 0; k <= 10; ++k) {
    const double x = left + (width - left - 10) * k / 10;
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f s", (t1 - t0) * k / 10 / 1000);
    out << "<text x='" << x << "' y='" << height - 8 << "' text-anchor='middle'>" << buf << "</text>\n";
  }
  out << "</svg>\n";
}

}  // namespace cuzk::bench
