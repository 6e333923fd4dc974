#include "engine/scheduler.hpp"

#include <algorithm>
#include <cctype>
#include <vector>

namespace cuzk::engine {

std::optional<Priority> parse_priority(std::string_view text) {
  std::string up(text);
  std::transform(up.begin(), up.end(), up.begin(), [](unsigned char c) { return std::toupper(c); });
  for (Priority p : {Priority::kLow, Priority::kNormal, Priority::kHigh, Priority::kCritical})
    if (up == to_string(p)) return p;
  return std::nullopt;
}

void Scheduler::push(const WorkItem& item) {
  {
    std::lock_guard lock(mutex_);
    queue_.insert(item);
  }
  ready_.notify_one();
}

std::optional<WorkItem> Scheduler::pop() {
  std::unique_lock lock(mutex_);
  ready_.wait(lock, [&] { return closed_ || !queue_.empty(); });
  if (queue_.empty()) return std::nullopt;
  WorkItem item = *queue_.begin();
  queue_.erase(queue_.begin());
  return item;
}

std::size_t Scheduler::remove_job(std::uint64_t job) {
  std::lock_guard lock(mutex_);
  return std::erase_if(queue_, [&](const WorkItem& w) { return w.job == job; });
}

void Scheduler::close() {
  {
    std::lock_guard lock(mutex_);
    closed_ = true;
  }
  ready_.notify_all();
}

std::vector<WorkItem> Scheduler::clear() {
  std::lock_guard lock(mutex_);
  std::vector<WorkItem> removed(queue_.begin(), queue_.end());
  queue_.clear();
  return removed;
}

std::size_t Scheduler::size() const {
  std::lock_guard lock(mutex_);
  return queue_.size();
}

std::array<std::size_t, 5> Scheduler::depth_by_priority() const {
  std::lock_guard lock(mutex_);
  std::array<std::size_t, 5> d{};
  for (const auto& w : queue_) ++d[static_cast<int>(w.priority)];
  return d;
}

std::size_t Scheduler::position_for(Priority priority) const {
  std::lock_guard lock(mutex_);
  return static_cast<std::size_t>(
      std::count_if(queue_.begin(), queue_.end(), [&](const WorkItem& w) { return w.priority >= priority; }));
}

}  // namespace cuzk::engine
