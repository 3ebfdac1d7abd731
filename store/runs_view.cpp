#include "store/runs_view.hpp"

#include <rocksdb/db.h>

#include "store/key_coding.hpp"

namespace vouch::store {
namespace {

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

base::Status RunsView::apply(const events::RecordedEvent& record, ViewWriter& writer) {
  if (!events::is_run_event(record.event.type)) return base::ok_status();
  auto decoded =
      events::decode_run_event(record.event.type, record.event.data, record.event.account);
  if (!decoded) return std::move(decoded).error();
  const std::string id(run_id_of(*decoded));

  events::TestRun run;
  if (!std::holds_alternative<events::RunStarted>(*decoded)) {
    auto text = writer.get(records_.record_key(id));
    if (!text) return base::Error::internal("run event for unknown run " + id);
    auto stored = events::decode_run(*text);
    if (!stored) return std::move(stored).error();
    run = std::move(stored).value();
  }
  run = events::evolve(std::move(run), *decoded);
  records_.put(writer, id, events::encode_run(run));
  if (run.status == events::kRunRunning) {
    writer.put(keys::running_run(id), "");
  } else {
    writer.erase(keys::running_run(id));
  }
  return base::ok_status();
}

RunsView::RunsView(Database& database, std::size_t kept_bytes)
    : OwnedView(database, "runs", "run", events::decode_run, kept_bytes) {}

base::Result<std::vector<events::TestRun>> RunsView::running() const {
  return records_.listed(keys::running_runs_prefix());
}

}  // namespace vouch::store
