// The host memory budget for keys and witnesses (engine/host_budget.hpp): reservations wait while keys and
// other witnesses leave no room, one is always let through, a stop gives up, and "auto" leaves the system a
// tenth of the host (at least 8 GiB).
#include "engine/host_budget.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

namespace cuzk::engine {
namespace {

constexpr std::size_t GiB = std::size_t(1) << 30;

TEST(HostMemoryBudget, WitnessesWaitForRoomBesideTheKeys) {
  std::atomic<std::size_t> keys{44 * GiB};
  HostMemoryBudget budget(100 * GiB, [&] { return keys.load(); });
  EXPECT_EQ(budget.fitting(16 * GiB), 3u);  // (100 − 44) / 16
  auto a = budget.reserve(16 * GiB, {});
  auto b = budget.reserve(16 * GiB, {});
  auto c = budget.reserve(16 * GiB, {});
  EXPECT_EQ(budget.reserved(), 48 * GiB);
  // A fourth waits until one is returned.
  std::atomic<bool> got{false};
  double waited = 0;
  std::thread t([&] {
    auto d = budget.reserve(16 * GiB, {}, &waited);
    got = d.bytes() == 16 * GiB;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_FALSE(got.load());
  b.release();
  t.join();
  EXPECT_TRUE(got.load());
  EXPECT_GE(waited, 250.0);
  EXPECT_EQ(budget.reserved(), 32 * GiB);  // the fourth's came back when its thread ended
  // Keys unloaded make room without any reservation returned (the wait polls them).
  std::atomic<bool> got_e{false};
  std::thread te([&] { got_e = budget.reserve(30 * GiB, {}).bytes() > 0; });
  std::this_thread::sleep_for(std::chrono::milliseconds(250));
  EXPECT_FALSE(got_e.load());
  keys = 0;
  te.join();
  EXPECT_TRUE(got_e.load());
}

TEST(HostMemoryBudget, OneWitnessAlwaysGoesAndAStopGivesUp) {
  HostMemoryBudget budget(10 * GiB, [] { return 44 * GiB; });  // the key alone is larger
  EXPECT_EQ(budget.fitting(16 * GiB), 1u);
  auto first = budget.reserve(16 * GiB, {});
  EXPECT_EQ(first.bytes(), 16 * GiB);  // alone: let through, one partition at a time
  std::atomic<bool> stop{false};
  std::thread t([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    stop = true;
  });
  const auto second = budget.reserve(16 * GiB, [&] { return stop.load(); });
  t.join();
  EXPECT_EQ(second.bytes(), 0u);  // gave up: nothing reserved
  EXPECT_EQ(budget.reserved(), 16 * GiB);
  // Moving a reservation keeps one reservation; releasing twice returns it once.
  HostMemoryBudget::Reservation moved = std::move(first);
  moved.release();
  moved.release();
  EXPECT_EQ(budget.reserved(), 0u);
}

TEST(HostMemoryBudget, NoBudgetNeverWaitsAndAutoLeavesTheSystemItsShare) {
  HostMemoryBudget none(0, [] { return 500 * GiB; });
  auto a = none.reserve(100 * GiB, {});
  auto b = none.reserve(100 * GiB, {});
  EXPECT_EQ(a.bytes() + b.bytes(), 200 * GiB);
  EXPECT_EQ(auto_host_memory_budget(128 * GiB), 128 * GiB - 128 * GiB / 10);
  EXPECT_EQ(auto_host_memory_budget(64 * GiB), 56 * GiB);  // at least 8 GiB left
  EXPECT_EQ(auto_host_memory_budget(4 * GiB), 0u);         // too small to say: no limit
  EXPECT_EQ(auto_host_memory_budget(0), 0u);               // unknown: no limit
}

}  // namespace
}  // namespace cuzk::engine
