// The work queue: priority levels, FIFO by job within a level, removal, drain on close.
#include <gtest/gtest.h>

#include <thread>

#include "engine/scheduler.hpp"

namespace cuzk::engine {
namespace {

TEST(Scheduler, HigherPriorityFirstThenOlderJobsThenPartitionOrder) {
  Scheduler s;
  s.push({1, 0, Priority::kNormal});
  s.push({1, 1, Priority::kNormal});
  s.push({2, 0, Priority::kLow});
  s.push({3, 1, Priority::kCritical});
  s.push({3, 0, Priority::kCritical});
  s.push({4, 0, Priority::kHigh});
  s.push({0, 5, Priority::kNormal});  // an older job pushed late still goes first in its level
  const std::vector<std::pair<std::uint64_t, std::uint32_t>> expect = {{3, 0}, {3, 1}, {4, 0}, {0, 5},
                                                                       {1, 0}, {1, 1}, {2, 0}};
  for (const auto& [job, part] : expect) {
    auto w = s.pop();
    ASSERT_TRUE(w);
    EXPECT_EQ(w->job, job);
    EXPECT_EQ(w->partition, part);
  }
  EXPECT_EQ(s.size(), 0u);
}

TEST(Scheduler, CriticalBehindTwentyNormalIsNext) {
  Scheduler s;
  for (std::uint64_t j = 1; j <= 20; ++j) s.push({j, 0, Priority::kNormal});
  EXPECT_EQ(s.position_for(Priority::kCritical), 0u);
  EXPECT_EQ(s.position_for(Priority::kNormal), 20u);
  s.push({21, 0, Priority::kCritical});
  EXPECT_EQ(s.pop()->job, 21u);
  const auto depth = s.depth_by_priority();
  EXPECT_EQ(depth[static_cast<int>(Priority::kNormal)], 20u);
  EXPECT_EQ(depth[static_cast<int>(Priority::kCritical)], 0u);
}

TEST(Scheduler, RemoveJobAndClear) {
  Scheduler s;
  for (std::uint32_t p = 0; p < 10; ++p) s.push({7, p, Priority::kNormal});
  s.push({8, 0, Priority::kNormal});
  EXPECT_EQ(s.remove_job(7), 10u);
  EXPECT_EQ(s.remove_job(7), 0u);
  EXPECT_EQ(s.size(), 1u);
  EXPECT_EQ(s.clear().size(), 1u);
  EXPECT_EQ(s.size(), 0u);
}

TEST(Scheduler, CloseDrainsThenWakesEveryWaiter) {
  Scheduler s;
  s.push({1, 0, Priority::kNormal});
  std::vector<std::thread> waiters;
  std::atomic<int> got{0}, ended{0};
  for (int i = 0; i < 3; ++i)
    waiters.emplace_back([&] {
      while (s.pop()) ++got;
      ++ended;
    });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  s.close();
  for (auto& t : waiters) t.join();
  EXPECT_EQ(got, 1);
  EXPECT_EQ(ended, 3);
}

TEST(Priority, ParsesNamesAndWireValues) {
  EXPECT_EQ(parse_priority("critical"), Priority::kCritical);
  EXPECT_EQ(parse_priority("Low"), Priority::kLow);
  EXPECT_FALSE(parse_priority("urgent"));
  EXPECT_EQ(priority_from_wire(3), Priority::kHigh);
  EXPECT_FALSE(priority_from_wire(0));
  EXPECT_FALSE(priority_from_wire(5));
}

}  // namespace
}  // namespace cuzk::engine
