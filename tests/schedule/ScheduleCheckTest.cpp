// ScheduleCheck: exact, parametric verification of schedules against
// dependences, on small relations written by hand.
#include "schedule/IslPtr.h"
#include "schedule/ScheduleCheck.h"

#include <gtest/gtest.h>

namespace tempo {
namespace {

const char* kForward = "[T] -> { A[t] -> A[t + 1] : 0 <= t and t + 1 < T }";

TEST(ScheduleCheck, AForwardLoopRespectsAPastRead) {
  IslContext ctx;
  EXPECT_TRUE(scheduleRespects(ctx, kForward, "[T] -> { A[t] -> [t] }"));
  EXPECT_EQ(scheduleViolations(ctx, kForward, "[T] -> { A[t] -> [t] }").find("A"), std::string::npos);
}

TEST(ScheduleCheck, ABackwardLoopViolatesAPastRead) {
  IslContext ctx;
  EXPECT_FALSE(scheduleRespects(ctx, kForward, "[T] -> { A[t] -> [-t] }"));
  EXPECT_NE(scheduleViolations(ctx, kForward, "[T] -> { A[t] -> [-t] }").find("A"), std::string::npos);
}

TEST(ScheduleCheck, EqualTimesAreNotBefore) {
  IslContext ctx;
  EXPECT_FALSE(scheduleRespects(ctx, "{ A[i] -> B[i] : 0 <= i < 4 }", "{ A[i] -> [i, 0]; B[i] -> [i, 0] }"));
  EXPECT_TRUE(scheduleRespects(ctx, "{ A[i] -> B[i] : 0 <= i < 4 }", "{ A[i] -> [i, 0]; B[i] -> [i, 1] }"));
}

TEST(ScheduleCheck, TheCheckHoldsForEveryParameterValue) {
  IslContext ctx;
  // Valid only while T <= 2: the schedule puts B[0] at time 2 and A[t] at t.
  const char* deps = "[T] -> { A[t] -> B[0] : 0 <= t < T }";
  EXPECT_FALSE(scheduleRespects(ctx, deps, "[T] -> { A[t] -> [t]; B[i] -> [2] }"));
  EXPECT_TRUE(scheduleRespects(ctx, deps, "[T] -> { A[t] -> [t]; B[i] -> [T] }"));
}

TEST(ScheduleCheck, OnlyTheFirstCoordinateThatDiffersDecides) {
  IslContext ctx;
  // A[i, j] -> B[i, j + 1]: equal outer times, so the inner coordinate decides; a later coordinate
  // going backwards does not matter once an earlier one has moved forwards.
  const char* deps = "{ A[i, j] -> B[i, j + 1] : 0 <= i < 4 and 0 <= j < 3 }";
  EXPECT_TRUE(scheduleRespects(ctx, deps, "{ A[i, j] -> [i, j, 5]; B[i, j] -> [i, j, 0] }"));
  EXPECT_FALSE(scheduleRespects(ctx, deps, "{ A[i, j] -> [i, -j, 0]; B[i, j] -> [i, -j, 1] }"));
  EXPECT_TRUE(scheduleRespects(ctx, deps, "{ A[i, j] -> [0, i, j]; B[i, j] -> [1, 0, -j] }"));
  // Some pairs ahead, one pair behind (j = 2 lands at the same outer time, earlier inside).
  EXPECT_FALSE(scheduleRespects(ctx, deps, "{ A[i, j] -> [i, j, 1]; B[i, j] -> [i, 2 + j - 3 * (j / 3), 0] }"));
}

TEST(ScheduleCheck, AnUnscheduledStatementRespectsNothing) {
  IslContext ctx;
  EXPECT_FALSE(scheduleRespects(ctx, "{ A[i] -> B[i] : 0 <= i < 4 }", "{ A[i] -> [i] }"));
}

TEST(ScheduleCheck, NoDependencesAreAlwaysRespected) {
  IslContext ctx;
  EXPECT_TRUE(scheduleRespects(ctx, "{ }", "{ A[i] -> [i] }"));
}

TEST(ScheduleCheck, BadTextIsAnError) {
  IslContext ctx;
  EXPECT_THROW(scheduleRespects(ctx, "{ A[i] -> ", "{ A[i] -> [i] }"), IslError);
}

}  // namespace
}  // namespace tempo
