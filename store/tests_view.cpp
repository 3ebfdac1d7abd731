#include "store/tests_view.hpp"

#include <rocksdb/db.h>

#include "events/overloaded.hpp"
#include "store/index_walk.hpp"
#include "store/key_coding.hpp"

namespace vouch::store {
namespace {

std::string record_key(std::string_view id) { return "tests/id/" + std::string(id); }
std::string position_key(std::string_view id) { return "tests/pos/" + std::string(id); }
std::string coverage_key(std::string_view project) {
  return "tests/coverage/" + std::string(project);
}
std::string project_prefix(std::string_view project) {
  return keys::owner_index_prefix("tests/project", project);
}
std::string project_key(std::string_view project, std::uint64_t position) {
  return keys::owner_index("tests/project", project, position);
}

std::optional<events::GeneratedTest> load(ViewWriter& writer, const std::string& id) {
  auto text = writer.get(record_key(id));
  if (!text) return std::nullopt;
  auto test = events::decode_generated_test(*text);
  if (!test) return std::nullopt;
  return std::move(test).value();
}

// The test's status follows its LAST run: an older run ending late changes nothing.
void follow_run(ViewWriter& writer, const std::string& test_id, const std::string& run_id,
                std::string_view status, events::Millis at, bool starts) {
  auto test = load(writer, test_id);
  if (!test) return;
  if (!starts && test->last_run_id != run_id) return;
  test->status = status;
  test->last_run_id = run_id;
  test->updated = at;
  writer.put(record_key(test_id), events::encode_generated_test(*test));
}

}  // namespace

events::Status TestsView::apply(const events::RecordedEvent& record, ViewWriter& writer) {
  const auto& type = record.event.type;
  if (type == events::kTestGeneratedV1) {
    auto generated = events::decode_test_generated(record.event.data, record.event.account);
    if (!generated) return std::move(generated).error();
    const auto& test = generated->test;
    writer.put(record_key(test.id), events::encode_generated_test(test));
    writer.put(position_key(test.id), keys::encode_u64(record.position));
    writer.put(project_key(test.project_id, record.position), test.id);
    return events::ok_status();
  }
  if (!events::is_run_event(type)) return events::ok_status();
  auto decoded = events::decode_run_event(type, record.event.data, record.event.account);
  if (!decoded) return std::move(decoded).error();
  std::visit(events::Overloaded{
                 [&](const events::RunStarted& started) {
                   follow_run(writer, started.run.test_id, started.run.id, events::kTestRunning,
                              started.run.created, true);
                 },
                 [&](const events::RunCompleted& completed) {
                   follow_run(writer, completed.test_id, completed.run_id,
                              completed.outcome == events::kOutcomeSuccess ? events::kTestPassed
                                                                           : events::kTestFailed,
                              completed.at, false);
                 },
                 [&](const events::RunFailed& failed) {
                   follow_run(writer, failed.test_id, failed.run_id, events::kTestFailed, failed.at,
                              false);
                 },
                 [&](const events::CoverageUpdated& updated) {
                   writer.put(coverage_key(updated.project_id),
                              events::encode_coverage(updated.current));
                 },
             },
             *decoded);
  return events::ok_status();
}

TestsView::TestsView(Database& database)
    : database_(database),
      records_(database, {"test", record_key, position_key, events::decode_generated_test,
                          [](const events::GeneratedTest& record) -> const std::string& {
                            return record.account;
                          }}) {}

events::Result<std::optional<events::GeneratedTest>> TestsView::find(const std::string& account,
                                                                     const std::string& id) const {
  return records_.find(account, id);
}

events::Result<Page<events::GeneratedTest>> TestsView::list(
    const std::string& account, const std::string& project_id,
    const std::optional<std::string>& starting_after, std::size_t limit) const {
  return records_.list(
      account,
      {project_prefix(project_id),
       [&](std::uint64_t position) { return project_key(project_id, position); }, "of this project",
       [&](const events::GeneratedTest& test) { return test.project_id == project_id; }},
      starting_after, limit);
}

events::Result<std::optional<events::Coverage>> TestsView::latest_coverage(
    const std::string& project_id) const {
  auto text = database_.read_view(coverage_key(project_id));
  if (!text) return std::move(text).error();
  if (!*text) return std::optional<events::Coverage>{};
  auto coverage = events::decode_coverage(**text);
  if (!coverage) return std::move(coverage).error();
  return std::optional<events::Coverage>{*coverage};
}

}  // namespace vouch::store
