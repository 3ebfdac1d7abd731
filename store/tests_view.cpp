#include "store/tests_view.hpp"

#include <rocksdb/db.h>

#include "base/overloaded.hpp"
#include "store/key_coding.hpp"

namespace vouch::store {
namespace {

// The test's status follows its LAST run: an older run ending late changes nothing.
void follow_run(OwnedRecords<events::GeneratedTest>& records, ViewWriter& writer,
                const std::string& test_id, const std::string& run_id, std::string_view status,
                base::Millis at, bool starts) {
  auto test = records.load(writer, test_id);
  if (!test) return;
  if (!starts && test->last_run_id != run_id) return;
  test->status = status;
  test->last_run_id = run_id;
  test->updated = at;
  records.put(writer, test_id, events::encode_generated_test(*test));
}

}  // namespace

base::Status TestsView::apply(const events::RecordedEvent& record, ViewWriter& writer) {
  const auto& type = record.event.type;
  if (type == events::kTestGenerationAcceptedV1) {
    auto accepted =
        events::decode_test_generation_accepted(record.event.data, record.event.account);
    if (!accepted) return std::move(accepted).error();
    const auto& test = accepted->test;
    records_.insert(writer, test.id, events::encode_generated_test(test), record.position,
                    "project", test.project_id);
    writer.put(keys::generating_test(test.id), "");
    return base::ok_status();
  }
  if (type == events::kTestGeneratedV1) {
    auto generated = events::decode_test_generated(record.event.data, record.event.account);
    if (!generated) return std::move(generated).error();
    const auto& test = generated->test;
    if (writer.get(keys::generating_test(test.id))) {
      // The end of an asynchronous generation: the record keeps its place.
      records_.put(writer, test.id, events::encode_generated_test(test));
      writer.erase(keys::generating_test(test.id));
    } else {
      records_.insert(writer, test.id, events::encode_generated_test(test), record.position,
                      "project", test.project_id);
    }
    return base::ok_status();
  }
  if (type == events::kTestGenerationFailedV1) {
    auto failed = events::decode_test_generation_failed(record.event.data);
    if (!failed) return std::move(failed).error();
    auto test = records_.load(writer, failed->test_id);
    if (!test)
      return base::Error::internal("generation failure of unknown test " + failed->test_id);
    test->status = events::kTestFailed;
    test->error = failed->error;
    test->updated = failed->at;
    records_.put(writer, test->id, events::encode_generated_test(*test));
    writer.erase(keys::generating_test(test->id));
    return base::ok_status();
  }
  if (!events::is_run_event(type)) return base::ok_status();
  auto decoded = events::decode_run_event(type, record.event.data, record.event.account);
  if (!decoded) return std::move(decoded).error();
  std::visit(base::Overloaded{
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
                   writer.put(keys::project_coverage(updated.project_id),
                              events::encode_coverage(updated.current));
                 },
             },
             *decoded);
  return base::ok_status();
}

TestsView::TestsView(Database& database, std::size_t kept_bytes)
    : OwnedView(database, "tests", "test", events::decode_generated_test, kept_bytes) {}

base::Result<Page<events::GeneratedTest>> TestsView::list(
    const std::string& account, const std::string& project_id,
    const std::optional<std::string>& starting_after, std::size_t limit) const {
  return records_.list(account,
                       records_.index("project", project_id, "of this project",
                                      [&](const events::GeneratedTest& test) {
                                        return test.project_id == project_id;
                                      }),
                       starting_after, limit);
}

base::Result<std::vector<events::GeneratedTest>> TestsView::generating() const {
  return records_.listed(keys::generating_tests_prefix());
}

base::Result<std::optional<events::Coverage>> TestsView::latest_coverage(
    const std::string& project_id) const {
  return database_.read_view<events::Coverage>(keys::project_coverage(project_id),
                                               events::decode_coverage);
}

}  // namespace vouch::store
