#include "store/tests_view.hpp"

#include <rocksdb/db.h>

#include "events/overloaded.hpp"
#include "store/index_walk.hpp"
#include "store/key_coding.hpp"

namespace vouch::store {
namespace {

std::string coverage_key(std::string_view project) {
  return "tests/coverage/" + std::string(project);
}
// The test's status follows its LAST run: an older run ending late changes nothing.
void follow_run(OwnedRecords<events::GeneratedTest>& records, ViewWriter& writer,
                const std::string& test_id, const std::string& run_id, std::string_view status,
                events::Millis at, bool starts) {
  auto test = records.load(writer, test_id);
  if (!test) return;
  if (!starts && test->last_run_id != run_id) return;
  test->status = status;
  test->last_run_id = run_id;
  test->updated = at;
  records.put(writer, test_id, events::encode_generated_test(*test));
}

}  // namespace

events::Status TestsView::apply(const events::RecordedEvent& record, ViewWriter& writer) {
  const auto& type = record.event.type;
  if (type == events::kTestGeneratedV1) {
    auto generated = events::decode_test_generated(record.event.data, record.event.account);
    if (!generated) return std::move(generated).error();
    const auto& test = generated->test;
    records_.insert(writer, test.id, events::encode_generated_test(test), record.position,
                    "project", test.project_id);
    return events::ok_status();
  }
  if (!events::is_run_event(type)) return events::ok_status();
  auto decoded = events::decode_run_event(type, record.event.data, record.event.account);
  if (!decoded) return std::move(decoded).error();
  std::visit(events::Overloaded{
                 [&](const events::RunStarted& started) {
                   follow_run(records_, writer, started.run.test_id, started.run.id,
                              events::kTestRunning, started.run.created, true);
                 },
                 [&](const events::RunCompleted& completed) {
                   follow_run(records_, writer, completed.test_id, completed.run_id,
                              completed.outcome == events::kOutcomeSuccess ? events::kTestPassed
                                                                           : events::kTestFailed,
                              completed.at, false);
                 },
                 [&](const events::RunFailed& failed) {
                   follow_run(records_, writer, failed.test_id, failed.run_id, events::kTestFailed,
                              failed.at, false);
                 },
                 [&](const events::CoverageUpdated& updated) {
                   writer.put(coverage_key(updated.project_id),
                              events::encode_coverage(updated.current));
                 },
             },
             *decoded);
  return events::ok_status();
}

TestsView::TestsView(Database& database, std::size_t kept_bytes)
    : OwnedView(database, "tests", "test", events::decode_generated_test, kept_bytes) {}

events::Result<Page<events::GeneratedTest>> TestsView::list(
    const std::string& account, const std::string& project_id,
    const std::optional<std::string>& starting_after, std::size_t limit) const {
  return records_.list(account,
                       records_.index("project", project_id, "of this project",
                                      [&](const events::GeneratedTest& test) {
                                        return test.project_id == project_id;
                                      }),
                       starting_after, limit);
}

events::Result<std::optional<events::Coverage>> TestsView::latest_coverage(
    const std::string& project_id) const {
  return database_.read_view<events::Coverage>(coverage_key(project_id), events::decode_coverage);
}

}  // namespace vouch::store
