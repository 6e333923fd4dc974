// The queue of partition work: priority levels CRITICAL > HIGH > NORMAL > LOW; within a level the
// partitions of older jobs first (job sequence number, then partition index), so a job's partitions
// finish together instead of interleaving with every later job. Thread-safe; workers block in pop().
#pragma once

#include <array>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <set>
#include <vector>

#include "engine/priority.hpp"

namespace cuzk::engine {

struct WorkItem {
  std::uint64_t job = 0;        // the engine's job sequence number (unique, increasing)
  std::uint32_t partition = 0;  // index within the job
  Priority priority = Priority::kNormal;
};

class Scheduler {
 public:
  void push(const WorkItem& item);

  // The next item, blocking while the queue is empty. After close(): the remaining items (a drain),
  // then nullopt.
  std::optional<WorkItem> pop();

  // Removes every queued partition of `job`; returns how many were removed.
  std::size_t remove_job(std::uint64_t job);

  // No more pushes; pop() returns nullopt once the queue is empty.
  void close();
  // Drops everything still queued (the second shutdown signal); returns the removed items.
  std::vector<WorkItem> clear();

  std::size_t size() const;
  // Queued items per priority, indexed by the wire value (1..4; index 0 unused).
  std::array<std::size_t, 5> depth_by_priority() const;
  // Items that would be popped before a new item of `priority` pushed now.
  std::size_t position_for(Priority priority) const;

 private:
  struct Order {
    bool operator()(const WorkItem& a, const WorkItem& b) const {
      if (a.priority != b.priority) return a.priority > b.priority;
      if (a.job != b.job) return a.job < b.job;
      return a.partition < b.partition;
    }
  };
  mutable std::mutex mutex_;
  std::condition_variable ready_;
  std::set<WorkItem, Order> queue_;
  bool closed_ = false;
};

}  // namespace cuzk::engine
