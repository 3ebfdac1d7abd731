#include "store/runs_view.hpp"

#include <rocksdb/db.h>

namespace vouch::store {
namespace {

constexpr std::string_view kRunningPrefix = "runs/running/";
std::string running_key(std::string_view id) {
  return std::string(kRunningPrefix) + std::string(id);
}

std::string_view run_id_of(const events::RunEvent& event) {
  return std::visit(
      [](const auto& e) -> std::string_view {
        if constexpr (std::is_same_v<std::decay_t<decltype(e)>, events::RunStarted>) {
          return e.run.id;
        } else {
          return e.run_id;
        }
      },
      event);
}

}  // namespace

events::Status RunsView::apply(const events::RecordedEvent& record, ViewWriter& writer) {
  if (!events::is_run_event(record.event.type)) return events::ok_status();
  auto decoded =
      events::decode_run_event(record.event.type, record.event.data, record.event.account);
  if (!decoded) return std::move(decoded).error();
  const std::string id(run_id_of(*decoded));

  events::TestRun run;
  if (!std::holds_alternative<events::RunStarted>(*decoded)) {
    auto text = writer.get(records_.record_key(id));
    if (!text) return events::Error::internal("run event for unknown run " + id);
    auto stored = events::decode_run(*text);
    if (!stored) return std::move(stored).error();
    run = std::move(stored).value();
  }
  run = events::evolve(std::move(run), *decoded);
  records_.put(writer, id, events::encode_run(run));
  if (run.status == events::kRunRunning) {
    writer.put(running_key(id), "");
  } else {
    writer.erase(running_key(id));
  }
  return events::ok_status();
}

RunsView::RunsView(Database& database, std::size_t kept_bytes)
    : OwnedView(database, "runs", "run", events::decode_run, kept_bytes) {}

events::Result<std::vector<events::TestRun>> RunsView::running() const {
  std::vector<events::TestRun> out;
  std::unique_ptr<rocksdb::Iterator> it(
      database_.db().NewIterator(rocksdb::ReadOptions(), database_.views()));
  for (it->Seek(kRunningPrefix); it->Valid() && it->key().starts_with(kRunningPrefix); it->Next()) {
    std::string text;
    const auto id = it->key().ToStringView().substr(kRunningPrefix.size());
    auto status = database_.db().Get(rocksdb::ReadOptions(), database_.views(),
                                     records_.record_key(id), &text);
    if (!status.ok()) return events::Error::internal(status.ToString());
    auto run = events::decode_run(text);
    if (!run) return std::move(run).error();
    out.push_back(std::move(run).value());
  }
  return out;
}

}  // namespace vouch::store
