#include "store/projector.hpp"

#include <rocksdb/db.h>
#include <rocksdb/write_batch.h>

#include <algorithm>

#include "log/log.hpp"
#include "store/key_coding.hpp"

namespace vouch::store {

Projector::Projector(Database& database, std::vector<Projection*> projections)
    : database_(database), projections_(std::move(projections)) {
  for (auto* projection : projections_) {
    std::string value;
    auto status = database_.db().Get(rocksdb::ReadOptions(), database_.views(),
                                     keys::checkpoint(projection->name()), &value);
    checkpoints_.push_back(status.ok() ? keys::decode_u64(value).value_or(0) : 0);
  }
  if (!checkpoints_.empty()) {
    checkpoint_ = *std::min_element(checkpoints_.begin(), checkpoints_.end());
  }
}

base::Status Projector::catch_up(const EventLog& log) {
  log_ = &log;
  constexpr std::size_t kPage = 1024;
  for (;;) {
    auto page = log.read_all(checkpoint_.load() + 1, kPage);
    if (!page) return std::move(page).error();
    if (page->empty()) return base::ok_status();
    if (auto status = apply(*page); !status) return status;
  }
}

void Projector::on_committed(const std::vector<events::RecordedEvent>& committed) {
  if (committed.empty() || stopped_) return;
  // Straight from the batch when it follows the checkpoint; otherwise an
  // earlier batch failed, and the log holds everything from the checkpoint on.
  const bool follows = failures_ == 0 && committed.front().position == checkpoint_.load() + 1;
  auto status = follows || log_ == nullptr ? apply(committed) : catch_up(*log_);
  if (!status) return record_failure(status.error());
  if (failures_ > 0) {
    log::info("projector", "read models caught up with the log at position " +
                               std::to_string(checkpoint_.load()));
  }
  failures_ = 0;
  healthy_ = true;
  const std::lock_guard lock(problem_mutex_);
  problem_.clear();
}

void Projector::record_failure(const base::Error& error) {
  ++failures_;
  healthy_ = false;
  stopped_ = failures_ >= kMaxAttempts;
  std::string problem = "read models are behind the log after position " +
                        std::to_string(checkpoint_.load()) + ": " + error.message;
  if (stopped_) {
    problem += " (stopped after " + std::to_string(failures_) + " attempts; restart to retry)";
  }
  log::write(stopped_ ? log::Level::kError : log::Level::kWarn, "projector", problem);
  const std::lock_guard lock(problem_mutex_);
  problem_ = std::move(problem);
}

std::string Projector::problem() const {
  const std::lock_guard lock(problem_mutex_);
  return problem_;
}

base::Status Projector::apply(const std::vector<events::RecordedEvent>& batch) {
  if (batch.empty()) return base::ok_status();
  rocksdb::WriteBatch write_batch;
  ViewWriter writer(database_, write_batch);
  std::vector<std::uint64_t> advanced = checkpoints_;
  for (std::size_t i = 0; i < projections_.size(); ++i) {
    for (const auto& event : batch) {
      if (event.position <= advanced[i]) continue;  // already folded before a restart
      if (auto status = projections_[i]->apply(event, writer); !status) return status;
      advanced[i] = event.position;
    }
    writer.put(keys::checkpoint(projections_[i]->name()), keys::encode_u64(advanced[i]));
  }
  // Neither synced nor in the write-ahead log: the log is the durable truth.
  // A batch holds the view changes with their checkpoints, and RocksDB keeps
  // a batch whole in the memtable and in every flush of the views column
  // family, so a crash leaves the views at some earlier checkpoint, from
  // which catch_up() replays the log.
  rocksdb::WriteOptions options;
  options.disableWAL = true;
  if (auto status = database_.write(options, write_batch); !status) return status;
  for (auto* projection : projections_) projection->committed();
  checkpoints_ = std::move(advanced);
  checkpoint_ = *std::min_element(checkpoints_.begin(), checkpoints_.end());
  return base::ok_status();
}

}  // namespace vouch::store
