#include "store/event_log.hpp"

#include <rocksdb/db.h>
#include <rocksdb/write_batch.h>

#include <future>

#include "log/log.hpp"
#include "store/key_coding.hpp"
#include "store/log_end.hpp"
#include "store/record_codec.hpp"

namespace vouch::store {
namespace {

// Bounds the head cache; heads evicted are read back from RocksDB.
constexpr std::size_t kMaxCachedHeads = 100'000;

}  // namespace

base::Result<std::unique_ptr<EventLog>> EventLog::open(Database& database, Options options) {
  auto end = read_log_end(database);
  if (!end) return std::move(end).error();
  return std::unique_ptr<EventLog>(new EventLog(database, options, *end));
}

EventLog::EventLog(Database& database, Options options, std::uint64_t last_position)
    : database_(database), options_(options), next_position_(last_position + 1) {
  last_position_.store(last_position);
  writer_ = std::thread([this] { run_writer(); });
}

base::Status EventLog::reread_end() {
  heads_.clear();
  auto end = read_log_end(database_);
  if (!end) {
    reread_needed_ = true;
    log::error("event-log", "cannot reread where the log ends; appends are refused until it can: " +
                                end.error().message);
    return std::move(end).error();
  }
  if (*end != last_position_.load(std::memory_order_acquire)) {
    log::warn("event-log", "the log ends at position " + std::to_string(*end) + ", not at " +
                               std::to_string(last_position_.load()) + " as this process thought");
  }
  last_position_.store(*end, std::memory_order_release);
  next_position_ = *end + 1;
  reread_needed_ = false;
  return base::ok_status();
}

EventLog::~EventLog() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  writer_.join();
}

void EventLog::add_listener(CommitListener* listener) { listeners_.push_back(listener); }

void EventLog::append_async(AppendRequest request, AppendCallback done) {
  {
    std::lock_guard lock(mutex_);
    if (!stopping_ && queue_.size() < options_.max_pending) {
      queue_.push_back({std::move(request), std::move(done)});
      wake_.notify_one();
      return;
    }
  }
  done(base::Error::unavailable("the event log is busy or closing; retry later"));
}

base::Result<AppendResult> EventLog::append(AppendRequest request) {
  std::promise<base::Result<AppendResult>> promise;
  auto future = promise.get_future();
  append_async(std::move(request), [&promise](base::Result<AppendResult> result) {
    promise.set_value(std::move(result));
  });
  return future.get();
}

void EventLog::run_writer() {
  std::vector<Pending> group;
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping, and everything queued is committed
      while (!queue_.empty() && group.size() < options_.max_group) {
        group.push_back(std::move(queue_.front()));
        queue_.pop_front();
      }
    }
    if (reread_needed_) {
      if (auto reread = reread_end(); !reread) {
        for (auto& pending : group) {
          answer(pending, base::Error::unavailable("the event log cannot tell where it ends (" +
                                                       reread.error().message +
                                                       "); appends wait until it can",
                                                   5));
        }
        group.clear();
        continue;
      }
    }
    // The exception barrier: whatever throws, every appender hears back and
    // the writer goes on from what the database holds.
    const auto first_position = next_position_;
    try {
      commit_group(group);
    } catch (const std::exception& error) {
      recover(group, first_position, error.what());
    } catch (...) {
      recover(group, first_position, "an unknown exception");
    }
    group.clear();
  }
}

void EventLog::recover(std::vector<Pending>& group, std::uint64_t first_position,
                       const std::string& what) {
  log::error("event-log", "committing a group of appends threw: " + what);
  // The caches may be ahead of or behind the database: read it again. When
  // that fails too, the position stays and appends wait for a reread.
  const auto reread = reread_end();
  const std::string outcome =
      !reread ? "whether the events are stored is unknown until the log can be reread"
      : next_position_ > first_position ? "the events are stored, reread before retrying"
                                        : "nothing was stored";
  for (auto& pending : group) {
    if (pending.answered) continue;
    answer(pending, base::Error::internal(std::string("the event log failed while committing (") +
                                          what + "); " + outcome));
  }
}

void EventLog::answer(Pending& pending, base::Result<AppendResult> outcome) {
  pending.answered = true;
  try {
    pending.done(std::move(outcome));
  } catch (const std::exception& error) {
    log::error("event-log", std::string("an appender's callback threw: ") + error.what());
  }
}

std::uint64_t EventLog::head_of(const std::string& stream) {
  if (auto it = heads_.find(stream); it != heads_.end()) return it->second;
  std::string value;
  auto status = database_.db().Get(rocksdb::ReadOptions(), database_.streams(),
                                   keys::stream_head(stream), &value);
  std::uint64_t head = 0;
  if (status.ok()) head = keys::decode_u64(value).value_or(0);
  if (heads_.size() >= kMaxCachedHeads) heads_.clear();
  heads_.emplace(stream, head);
  return head;
}

void EventLog::commit_group(std::vector<Pending>& group) {
  std::vector<base::Result<AppendResult>> outcomes;
  outcomes.reserve(group.size());
  std::unordered_map<std::string, std::uint64_t> group_heads;  // heads as this group leaves them
  std::vector<events::RecordedEvent> committed;
  rocksdb::WriteBatch batch;
  std::uint64_t position = next_position_;

  for (auto& pending : group) {
    const auto& request = pending.request;
    auto found = group_heads.find(request.stream);
    const std::uint64_t head = found != group_heads.end() ? found->second : head_of(request.stream);
    if (request.expected_version != kAnyVersion && request.expected_version != head) {
      ++conflicts_;
      outcomes.emplace_back(base::Error::conflict("stream " + request.stream + " is at version " +
                                                  std::to_string(head) + ", not " +
                                                  std::to_string(request.expected_version)));
      continue;
    }
    AppendResult result;
    std::uint64_t version = head;
    for (const auto& event : request.events) {
      events::RecordedEvent record{position, request.stream, ++version, event};
      batch.Put(database_.events(), keys::event(position), encode_record(record));
      batch.Put(database_.streams(), keys::stream_index(request.stream, version),
                keys::encode_u64(position));
      result.recorded.push_back(record);
      committed.push_back(std::move(record));
      ++position;
    }
    if (version != head) {
      batch.Put(database_.streams(), keys::stream_head(request.stream), keys::encode_u64(version));
    }
    result.stream_version = version;
    group_heads[request.stream] = version;
    outcomes.emplace_back(std::move(result));
  }

  if (!committed.empty()) {
    batch.Put(database_.meta(), keys::last_position(), keys::encode_u64(position - 1));
    rocksdb::WriteOptions write_options;
    write_options.sync = options_.sync;
    auto status = database_.write(write_options, batch);
    ++syncs_;
    if (!status) {
      // Not acknowledged; the end is reread before the next write, in case
      // the database holds more (or less) than this process thinks.
      reread_needed_ = true;
      for (auto& outcome : outcomes) {
        if (outcome.ok()) outcome = status.error();
      }
      committed.clear();
    } else {
      next_position_ = position;
      for (auto& [stream, head] : group_heads) heads_[stream] = head;
      last_position_.store(position - 1, std::memory_order_release);
      events_ += committed.size();
      for (auto* listener : listeners_) {
        try {
          listener->on_committed(committed);
        } catch (const std::exception& error) {
          log::error("event-log", std::string("a commit listener threw: ") + error.what());
        }
      }
    }
  }

  for (std::size_t i = 0; i < group.size(); ++i) {
    if (outcomes[i].ok()) ++appends_;
    answer(group[i], std::move(outcomes[i]));
  }
}

base::Result<std::vector<events::RecordedEvent>> EventLog::read_stream(
    const std::string& stream, std::uint64_t from_version) const {
  std::vector<events::RecordedEvent> out;
  // The head first: a point lookup, which the tables' bloom filters answer
  // without reading them, where a seek reads an index and a data block of
  // every table. A stream without a head has no events, and every new
  // project's actor reads its empty stream.
  std::string head;
  auto status = database_.db().Get(rocksdb::ReadOptions(), database_.streams(),
                                   keys::stream_head(stream), &head);
  if (status.IsNotFound()) return out;
  if (!status.ok()) return base::Error::internal(status.ToString());
  const auto version = keys::decode_u64(head);
  if (!version) return base::Error::internal("corrupt stream head of " + stream);
  if (from_version > *version) return out;
  const std::string prefix = keys::stream_index_prefix(stream);
  std::unique_ptr<rocksdb::Iterator> it(
      database_.db().NewIterator(rocksdb::ReadOptions(), database_.streams()));
  for (it->Seek(keys::stream_index(stream, from_version));
       it->Valid() && it->key().starts_with(prefix); it->Next()) {
    auto position = keys::decode_u64(it->value().ToStringView());
    if (!position) return base::Error::internal("corrupt stream index of " + stream);
    std::string bytes;
    status = database_.db().Get(rocksdb::ReadOptions(), database_.events(), keys::event(*position),
                                &bytes);
    if (!status.ok()) return base::Error::internal("missing event " + std::to_string(*position));
    auto record = decode_record(bytes);
    if (!record) return std::move(record).error();
    out.push_back(std::move(record).value());
  }
  if (!it->status().ok()) return base::Error::internal(it->status().ToString());
  return out;
}

base::Result<std::vector<events::RecordedEvent>> EventLog::read_all(std::uint64_t from_position,
                                                                    std::size_t max) const {
  std::vector<events::RecordedEvent> out;
  std::unique_ptr<rocksdb::Iterator> it(
      database_.db().NewIterator(rocksdb::ReadOptions(), database_.events()));
  for (it->Seek(keys::event(from_position)); it->Valid() && out.size() < max; it->Next()) {
    auto record = decode_record(it->value().ToStringView());
    if (!record) return std::move(record).error();
    out.push_back(std::move(record).value());
  }
  if (!it->status().ok()) return base::Error::internal(it->status().ToString());
  return out;
}

base::Result<EventLog::FilteredPage> EventLog::read_all_of(
    std::uint64_t from_position, std::size_t max_scanned,
    const std::function<bool(std::string_view type)>& wanted) const {
  FilteredPage page;
  page.next_position = from_position;
  std::size_t scanned = 0;
  std::unique_ptr<rocksdb::Iterator> it(
      database_.db().NewIterator(rocksdb::ReadOptions(), database_.events()));
  for (it->Seek(keys::event(from_position)); it->Valid() && scanned < max_scanned; it->Next()) {
    ++scanned;
    const auto bytes = it->value().ToStringView();
    if (const auto type = peek_record_type(bytes); type && !wanted(*type)) {
      auto position = keys::decode_u64(it->key().ToStringView());
      if (!position) return base::Error::internal("corrupt event key");
      page.next_position = *position + 1;
      continue;
    }
    auto record = decode_record(bytes);
    if (!record) return std::move(record).error();
    page.next_position = record->position + 1;
    if (!wanted(record->event.type)) continue;
    page.events.push_back(std::move(record).value());
  }
  if (!it->status().ok()) return base::Error::internal(it->status().ToString());
  page.exhausted = scanned < max_scanned;
  return page;
}

EventLogStats EventLog::stats() const {
  return {appends_.load(), syncs_.load(), events_.load(), conflicts_.load()};
}

}  // namespace vouch::store
