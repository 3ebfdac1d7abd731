#include "store/read_model_format.hpp"

#include <rocksdb/db.h>
#include <rocksdb/write_batch.h>

#include <memory>
#include <optional>
#include <string>

#include "store/key_coding.hpp"

namespace vouch::store {

base::Result<std::optional<std::uint64_t>> prepare_read_model_format(Database& database) {
  auto& db = database.db();
  std::string stored;
  auto status = db.Get(rocksdb::ReadOptions(), database.meta(), keys::read_model_format(), &stored);
  if (!status.ok() && !status.IsNotFound()) return base::Error::internal(status.ToString());

  std::unique_ptr<rocksdb::Iterator> it(db.NewIterator(rocksdb::ReadOptions(), database.views()));
  it->SeekToFirst();
  if (!it->status().ok()) return base::Error::internal(it->status().ToString());
  const bool empty = !it->Valid();
  // Read models without a recorded format were written before formats were
  // recorded (1); an empty views column family has no format yet.
  const std::uint64_t found =
      status.ok() ? keys::decode_u64(stored).value_or(0) : (empty ? kReadModelFormat : 1);
  if (found == kReadModelFormat && status.ok()) return std::optional<std::uint64_t>{};

  rocksdb::WriteBatch batch;
  if (found != kReadModelFormat && !empty) {
    const std::string first = it->key().ToString();
    it->SeekToLast();
    if (!it->status().ok() || !it->Valid()) return base::Error::internal(it->status().ToString());
    const std::string last = it->key().ToString();
    batch.DeleteRange(database.views(), first, last);
    batch.Delete(database.views(), last);
  }
  it.reset();
  batch.Put(database.meta(), keys::read_model_format(), keys::encode_u64(kReadModelFormat));
  rocksdb::WriteOptions options;
  options.sync = true;
  if (auto written = database.write(options, batch); !written) {
    return base::Error::internal("cannot record the read-model format: " + written.error().message);
  }
  if (found == kReadModelFormat) return std::optional<std::uint64_t>{};
  // Drops the cleared keys from disk now rather than at some later compaction.
  status = db.CompactRange(rocksdb::CompactRangeOptions(), database.views(), nullptr, nullptr);
  if (!status.ok()) {
    return base::Error::internal("cannot compact the read models: " + status.ToString());
  }
  return std::optional<std::uint64_t>{found};
}

}  // namespace vouch::store
