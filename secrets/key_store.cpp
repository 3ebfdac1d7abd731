#include "secrets/key_store.hpp"

#include <openssl/crypto.h>
#include <rocksdb/db.h>
#include <rocksdb/write_batch.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include "base/ids.hpp"
#include "events/json_access.hpp"
#include "events/webhook_signature.hpp"
#include "log/log.hpp"
#include "secrets/compaction.hpp"
#include "secrets/master_key.hpp"

namespace vouch::secrets {
namespace {

namespace ja = events::json_access;

constexpr std::string_view kKeyPrefix = "key/";
constexpr std::string_view kCheckKey = "master-key-check";
constexpr std::string_view kCheckText = "vouch master key";
constexpr std::string_view kCheckBinding = "vouch.master-key-check.v1";

// The label of a wrapped data key's binding (aead.hpp): the key's id and its owner, so that a
// wrapped key copied under another id or owner does not open.
constexpr std::string_view kWrapBinding = "vouch.data-key.v1";

std::string record_key(std::string_view id) { return std::string(kKeyPrefix) + std::string(id); }

struct Record {
  std::string owner;
  base::Millis created = 0;
  std::string wrapped;  // sealed bytes
};

base::Result<std::string> encode_record(const Key& master, std::string_view id,
                                        std::string_view owner, base::Millis created,
                                        const Key& key) {
  auto wrapped = seal(master, key.view(), binding(kWrapBinding, {id, owner}));
  if (!wrapped) return std::move(wrapped).error();
  return boost::json::serialize(boost::json::object{
      {"owner", owner}, {"created", created}, {"wrapped", events::base64_encode(*wrapped)}});
}

base::Result<Record> decode_record(std::string_view text) {
  return ja::read_stored<Record>(
      text, "data key record", [](const boost::json::object& object) -> base::Result<Record> {
        auto wrapped = events::base64_decode(ja::string_at(object, "wrapped"));
        if (!wrapped) throw ja::CorruptRecord{"wrapped is not base64"};
        return Record{ja::string_at(object, "owner"), ja::int_at(object, "created"),
                      std::move(*wrapped)};
      });
}

base::Error storage_error(const rocksdb::Status& status, std::string_view what) {
  return base::Error::internal("the key store cannot " + std::string(what) + ": " +
                               status.ToString());
}

}  // namespace

std::string new_data_key_id() {
  auto key = Key::random();
  if (!key) throw std::runtime_error(key.error().message);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string id("dk_");
  for (std::size_t i = 0; i < 16; ++i) {
    const auto byte = static_cast<unsigned char>(key->view()[i]);
    id.push_back(kHex[byte >> 4]);
    id.push_back(kHex[byte & 15]);
  }
  return id;
}

base::Result<bool> KeyStore::has_master_key(const store::Database& database) {
  std::string value;
  const auto status =
      database.db().Get(rocksdb::ReadOptions(), database.secrets(), kCheckKey, &value);
  if (status.IsNotFound()) return false;
  if (!status.ok()) return storage_error(status, "read its check value");
  return true;
}

base::Result<std::unique_ptr<KeyStore>> KeyStore::open(store::Database& database, Key master) {
  std::string value;
  const auto status =
      database.db().Get(rocksdb::ReadOptions(), database.secrets(), kCheckKey, &value);
  if (status.IsNotFound()) {
    auto check = seal(master, kCheckText, kCheckBinding);
    if (!check) return std::move(check).error();
    rocksdb::WriteOptions synced;
    synced.sync = true;
    rocksdb::WriteBatch batch;
    batch.Put(database.secrets(), kCheckKey, *check);
    if (auto put = database.write(synced, batch); !put) return std::move(put).error();
  } else if (!status.ok()) {
    return storage_error(status, "read its check value");
  } else {
    auto opened = secrets::open(master, value, kCheckBinding);
    if (!opened || *opened != kCheckText) {
      return base::Error::invalid(
          "the secrets key file does not hold the master key this data folder's secrets were "
          "wrapped with; start with the key file it was first started with (or the one "
          "`vouchd rotate-master-key` wrote)");
    }
  }
  return std::unique_ptr<KeyStore>(new KeyStore(database, std::move(master)));
}

base::Result<std::pair<std::string, Key>> KeyStore::create(std::string_view owner) {
  auto key = Key::random();
  if (!key) return std::move(key).error();
  auto id = new_data_key_id();
  auto record = encode_record(master_, id, owner, base::now_millis(), *key);
  if (!record) return std::move(record).error();
  rocksdb::WriteBatch batch;
  batch.Put(database_.secrets(), record_key(id), *record);
  if (auto put = database_.write(rocksdb::WriteOptions(), batch); !put) {
    return std::move(put).error();
  }
  return std::pair{std::move(id), std::move(key).value()};
}

base::Result<Key> KeyStore::find(std::string_view id, std::string_view owner) const {
  std::string value;
  const auto status =
      database_.db().Get(rocksdb::ReadOptions(), database_.secrets(), record_key(id), &value);
  if (status.IsNotFound()) {
    return base::Error::not_found("the data key " + std::string(id) + " was destroyed");
  }
  if (!status.ok()) return storage_error(status, "read a data key");
  auto record = decode_record(value);
  if (!record) return std::move(record).error();
  if (record->owner != owner) {
    return base::Error::invalid("the data key " + std::string(id) + " is not " +
                                std::string(owner) + "'s");
  }
  auto bytes = secrets::open(master_, record->wrapped, binding(kWrapBinding, {id, owner}));
  if (!bytes) return std::move(bytes).error();
  auto key = Key::from_bytes(*bytes);
  OPENSSL_cleanse(bytes->data(), bytes->size());
  return key;
}

base::Status KeyStore::destroy(const std::vector<std::string>& ids) {
  if (ids.empty()) return base::ok_status();
  rocksdb::WriteBatch batch;
  for (const auto& id : ids) batch.Delete(database_.secrets(), record_key(id));
  rocksdb::WriteOptions synced;
  synced.sync = true;
  if (auto written = database_.write(synced, batch); !written) return std::move(written).error();
  return base::ok_status();
}

base::Result<std::vector<DataKeyInfo>> KeyStore::list() const {
  std::vector<DataKeyInfo> out;
  std::unique_ptr<rocksdb::Iterator> it(
      database_.db().NewIterator(rocksdb::ReadOptions(), database_.secrets()));
  for (it->Seek(kKeyPrefix); it->Valid() && it->key().starts_with(kKeyPrefix); it->Next()) {
    auto record = decode_record(it->value().ToStringView());
    if (!record) return std::move(record).error();
    out.push_back({std::string(it->key().ToStringView().substr(kKeyPrefix.size())),
                   std::move(record->owner), record->created});
  }
  if (!it->status().ok()) return storage_error(it->status(), "list its keys");
  return out;
}

base::Result<std::size_t> KeyStore::rewrap(const Key& next) {
  auto keys = list();
  if (!keys) return std::move(keys).error();
  rocksdb::WriteBatch batch;
  for (const auto& info : *keys) {
    auto key = find(info.id, info.owner);
    if (!key) return std::move(key).error();
    auto record = encode_record(next, info.id, info.owner, info.created, *key);
    if (!record) return std::move(record).error();
    batch.Put(database_.secrets(), record_key(info.id), *record);
  }
  auto check = seal(next, kCheckText, kCheckBinding);
  if (!check) return std::move(check).error();
  batch.Put(database_.secrets(), kCheckKey, *check);
  rocksdb::WriteOptions synced;
  synced.sync = true;
  if (auto written = database_.write(synced, batch); !written) return std::move(written).error();
  master_ = next;
  if (auto purged = purge(); !purged) return std::move(purged).error();
  return keys->size();
}

base::Status KeyStore::purge() {
  return flush_and_compact(database_, {database_.secrets()}, "the key store");
}

base::Result<std::unique_ptr<KeyStore>> open_key_store(store::Database& database,
                                                       const std::filesystem::path& key_file) {
  if (auto outside = check_outside_data_folder(key_file, database.folder()); !outside) {
    return std::move(outside).error();
  }
  auto master = read_master_key(key_file);
  if (!master && master.error().code == base::ErrorCode::kNotFound) {
    auto recorded = KeyStore::has_master_key(database);
    if (!recorded) return std::move(recorded).error();
    if (*recorded) {
      return base::Error::invalid(
          "the secrets key file " + key_file.string() +
          " does not exist, and this data folder's webhook secrets are wrapped by a master key: "
          "pass --secrets-key-file naming the key file it was started with");
    }
    master = create_master_key(key_file);
    if (master) {
      log::info("secrets", "created the master key file " + key_file.string() +
                               " (mode 0600); keep it, and keep it apart from the data folder");
    } else if (std::filesystem::exists(key_file)) {
      // Another vouchd (on another folder) created the default file just now.
      master = read_master_key(key_file);
    }
  }
  if (!master) return std::move(master).error();
  auto store = KeyStore::open(database, std::move(master).value());
  if (!store) {
    auto error = std::move(store).error();
    error.message = key_file.string() + ": " + error.message;
    return error;
  }
  return store;
}

}  // namespace vouch::secrets
