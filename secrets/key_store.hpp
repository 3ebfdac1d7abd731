#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/clock.hpp"
#include "base/result.hpp"
#include "secrets/aead.hpp"
#include "store/database.hpp"

// The data keys of a data folder, each wrapped (AES-256-GCM) by the master
// key, in the `secrets` column family and nowhere else: not in the event log,
// which is never edited, so that destroying a key really destroys it.
//   key/<id>          {"owner": "wh_…", "created": ms, "wrapped": "<base64>"}
//   master-key-check  a known text sealed under the master key
// Thread-safe (RocksDB is); REQUIRES: `database` outlives the store.
namespace vouch::secrets {

struct DataKeyInfo {
  std::string id;  // "dk_" and 32 hex digits
  std::string owner;
  base::Millis created = 0;
};

class KeyStore {
 public:
  // The store of `database` under `master`; the first open records a check
  // value sealed under `master`. kInvalid when the folder's check value does
  // not open under `master`: its keys were wrapped by another master key.
  [[nodiscard]] static base::Result<std::unique_ptr<KeyStore>> open(store::Database& database,
                                                                    Key master);
  // Whether a master key was ever recorded for the folder.
  [[nodiscard]] static base::Result<bool> has_master_key(const store::Database& database);

  // A new random key for `owner`, stored wrapped. Not synced on its own: the
  // event that names it is appended next with a synced write, which makes
  // RocksDB's write-ahead log (shared by every column family) durable up to it.
  [[nodiscard]] base::Result<std::pair<std::string, Key>> create(std::string_view owner);
  // Key `id` of `owner`: kNotFound when it was destroyed (or never made),
  // kInvalid when its wrapping does not open (another owner, altered bytes).
  [[nodiscard]] base::Result<Key> find(std::string_view id, std::string_view owner) const;
  // Deletes the keys, synced. Their bytes may linger in RocksDB's files until
  // purge(); without the master key they open nothing.
  [[nodiscard]] base::Status destroy(const std::vector<std::string>& ids);
  [[nodiscard]] base::Result<std::vector<DataKeyInfo>> list() const;
  // Rewraps every key and the check value under `next`, in one synced write,
  // then purges. Returns the number of keys. After it, only `next` opens them.
  [[nodiscard]] base::Result<std::size_t> rewrap(const Key& next);
  // Removes destroyed keys and superseded wrappings from the data folder's
  // files: flushes every column family (so that no write-ahead log file still
  // holds them) and compacts the secrets column family to its last level.
  // Blocking (a flush and a compaction): for tools, start-up and detached work.
  [[nodiscard]] base::Status purge();

 private:
  KeyStore(store::Database& database, Key master)
      : database_(database), master_(std::move(master)) {}

  store::Database& database_;
  Key master_;
};

// A new data key id.
std::string new_data_key_id();

// The key store of `database` under the master key in `key_file`. When the
// file does not exist and the folder never recorded a master key, creates
// it (mode 0600) and says so in the log. kInvalid, naming the file and the
// fix, when the file is inside `database`'s folder, is missing while the
// folder's keys need it, is readable by group or others, has the wrong size,
// or holds another master key than the folder's.
[[nodiscard]] base::Result<std::unique_ptr<KeyStore>> open_key_store(
    store::Database& database, const std::filesystem::path& key_file);

}  // namespace vouch::secrets
