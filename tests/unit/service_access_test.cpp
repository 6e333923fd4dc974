// The daemon's access checks (service/access.hpp) on their own: bearer tokens compared in constant time and
// only as "Bearer <token>", and the per-client count of jobs in flight, including a job that ends before its
// submit has returned and a submit that fails after its slot was taken. tests/daemon/remote_test.cpp drives
// them through a real daemon.
#include <gtest/gtest.h>

#include "service/access.hpp"

namespace cuzk::service {
namespace {

TEST(ServiceAccess, BearerTokensMatchExactly) {
  const std::string token = "0123456789abcdef0123";
  EXPECT_TRUE(bearer_matches("Bearer " + token, token));
  EXPECT_FALSE(bearer_matches("Bearer " + token + "x", token));
  EXPECT_FALSE(bearer_matches("Bearer " + token.substr(1), token));
  EXPECT_FALSE(bearer_matches("bearer " + token, token));
  EXPECT_FALSE(bearer_matches(token, token));
  EXPECT_FALSE(bearer_matches("", token));
  EXPECT_TRUE(bearer_matches("", ""));  // no token configured: nothing asked
  EXPECT_TRUE(same_secret("abc", "abc"));
  EXPECT_FALSE(same_secret("abd", "abc"));
  EXPECT_FALSE(same_secret("", ""));  // an empty secret matches nothing
}

TEST(ServiceAccess, JobsInFlightAreCountedPerClient) {
  ClientAccess access({"", 2});
  EXPECT_TRUE(access.reserve("a").ok());
  access.admitted("a", "1-x");
  EXPECT_TRUE(access.reserve("a").ok());
  access.admitted("a", "2-x");
  const grpc::Status full = access.reserve("a");
  EXPECT_EQ(full.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_NE(full.error_message().find("max_jobs_per_client"), std::string::npos);
  EXPECT_TRUE(access.reserve("b").ok());  // another client has its own
  access.abandoned("b");                  // its submit failed: the slot is free again
  EXPECT_EQ(access.in_flight("b"), 0u);
  access.finished("1-x");
  EXPECT_EQ(access.in_flight("a"), 1u);
  EXPECT_TRUE(access.reserve("a").ok());
  access.finished("3-x");  // ended before its submit returned
  access.admitted("a", "3-x");
  EXPECT_EQ(access.in_flight("a"), 1u);
  access.finished("2-x");
  EXPECT_EQ(access.in_flight("a"), 0u);
  access.finished("unknown");  // a job of nobody's (before the limit was counted): harmless
  EXPECT_EQ(access.in_flight("a"), 0u);
}

TEST(ServiceAccess, NoLimitCountsNothing) {
  ClientAccess access({"", 0});
  for (int i = 0; i < 100; ++i) EXPECT_TRUE(access.reserve("a").ok());
  EXPECT_EQ(access.in_flight("a"), 0u);
}

}  // namespace
}  // namespace cuzk::service
