#include "store/subscriber_cursor.hpp"

#include <rocksdb/db.h>
#include <rocksdb/write_batch.h>

#include "store/key_coding.hpp"

namespace vouch::store {

SubscriberCursor::SubscriberCursor(Database& database, std::string subscriber)
    : database_(database), key_(keys::subscriber_cursor(subscriber)) {}

base::Result<std::uint64_t> SubscriberCursor::load() const {
  std::string value;
  auto status = database_.db().Get(rocksdb::ReadOptions(), database_.meta(), key_, &value);
  if (status.IsNotFound()) return std::uint64_t{0};
  if (!status.ok()) return base::Error::internal("cursor read failed: " + status.ToString());
  return keys::decode_u64(value).value_or(0);
}

base::Status SubscriberCursor::save(std::uint64_t position) {
  rocksdb::WriteBatch batch;
  batch.Put(database_.meta(), key_, keys::encode_u64(position));
  return database_.write(rocksdb::WriteOptions(), batch);
}

}  // namespace vouch::store
