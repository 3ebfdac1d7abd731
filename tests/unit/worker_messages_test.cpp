// The messages that cross machines between a server and its workers come
// out of CAF's serialization as they went in.
#include <gtest/gtest.h>

#include <caf/all.hpp>

#include "actors/type_ids.hpp"

namespace vouch::actors {
namespace {

class WorkerMessages : public ::testing::Test {
 protected:
  template <class T>
  T round_trip(T value) {
    std::vector<char> buffer;
    caf::binary_serializer sink{system_, buffer};
    EXPECT_FALSE(sink(value));
    T out;
    caf::binary_deserializer source{system_, buffer};
    EXPECT_FALSE(source(out));
    return out;
  }

  static caf::actor_system_config& config(caf::actor_system_config& config) {
    config.add_message_types<caf::id_block::vouch>();
    return config;
  }

  caf::actor_system_config config_;
  caf::actor_system system_{config(config_)};
};

TEST_F(WorkerMessages, ARunTaskKeepsItsFilesAndEnvironment) {
  RunTask task{
      "run_1",
      {{"src/a.js", "exports.a = 1;"}, {"src/__tests__/a.test.js", "test('a', () => {});"}},
      {"20", {{"left-pad", "^1.3.0"}, {"ms", "2.1.3"}}},
      7,
      "prj_1"};
  const auto out = round_trip(task);
  EXPECT_EQ(out.runs_waiting, 7u);
  EXPECT_EQ(out.project_id, "prj_1");
  EXPECT_EQ(out.run_id, "run_1");
  ASSERT_EQ(out.files.size(), 2u);
  EXPECT_EQ(out.files[1].path, "src/__tests__/a.test.js");
  EXPECT_EQ(out.files[1].content, "test('a', () => {});");
  EXPECT_EQ(out.environment.node_version, "20");
  ASSERT_EQ(out.environment.dependencies.size(), 2u);
  EXPECT_EQ(out.environment.dependencies[0].first, "left-pad");
  EXPECT_EQ(out.environment.dependencies[1].second, "2.1.3");
}

TEST_F(WorkerMessages, ARunsAnswerKeepsResultsErrorAndReport) {
  events::RunReport report;
  report.results = events::RunResults{3, 2, 1, {91.5, 80, 100, 90.25}};
  report.failures = {"adds: expected 3"};
  report.error = events::RunError{"wall_time_limit", "ran past 60 s"};
  auto done = run_done(report);
  done.coverage_report = {{"lcov.info", "SF:a.js\nend_of_record\n"}};
  done.worker = "w#2";
  auto out = round_trip(done);
  EXPECT_EQ(out.worker, "w#2");
  ASSERT_EQ(out.coverage_report.size(), 1u);
  EXPECT_EQ(out.coverage_report[0].content, "SF:a.js\nend_of_record\n");
  const auto back = to_report(std::move(out));
  ASSERT_TRUE(back.results.has_value());
  EXPECT_EQ(back.results->failed, 1);
  EXPECT_DOUBLE_EQ(back.results->coverage.lines, 90.25);
  EXPECT_EQ(back.failures, report.failures);
  ASSERT_TRUE(back.error.has_value());
  EXPECT_EQ(back.error->code, "wall_time_limit");
}

TEST_F(WorkerMessages, AGenerationsAnswerKeepsItsFailureAsAnError) {
  GenerationDone done;
  done.failure = job_failure(base::Error::unavailable("busy", 7));
  done.install_failed = true;
  done.install_code = "install_failed";
  const auto out = round_trip(done);
  ASSERT_TRUE(out.failure.failed);
  const auto error = to_error(out.failure);
  EXPECT_EQ(error.code, base::ErrorCode::kUnavailable);
  EXPECT_EQ(error.message, "busy");
  EXPECT_EQ(error.retry_after_seconds, 7u);
  EXPECT_TRUE(out.install_failed);
}

}  // namespace
}  // namespace vouch::actors
