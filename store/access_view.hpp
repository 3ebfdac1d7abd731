#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/result.hpp"
#include "events/plan.hpp"
#include "store/database.hpp"
#include "store/projection.hpp"
#include "store/read_memo.hpp"

namespace vouch::store {

// What an API key grants: who is calling, on which plan, with which scopes.
struct KeyGrant {
  std::string key_id;
  std::string account;
  events::Plan plan = events::Plan::kFree;
  std::vector<std::string> scopes;
};

struct KeyRecord {
  std::string key_id;
  std::string account;
  std::string name;
  std::vector<std::string> scopes;
  base::Millis created = 0;
  bool revoked = false;
};

// Read model of accounts and API keys, looked up on every request. Keys are
// found by the SHA-256 of the secret; a revoked key is no longer found.
//
// The grants found are kept in memory until an account or key event is
// committed (an issued or revoked key, a plan change), which drops them all:
// a request costs no database read, and a revocation is in force by the time
// its request is answered.
class AccessView : public StoredView {
 public:
  // Keeps up to `kept_grant_bytes` of key grants in memory (ReadMemo).
  explicit AccessView(Database& database, std::size_t kept_grant_bytes = ReadMemoBudget{}.grants)
      : StoredView(database, "access"), grants_(kept_grant_bytes) {}

  base::Status apply(const events::RecordedEvent& event, ViewWriter& writer) override;
  void committed() override;
  // Bytes of key grants kept in memory (ReadMemo::bytes()).
  std::size_t memo_bytes() const { return grants_.bytes(); }

  // nullopt for an unknown or revoked key.
  [[nodiscard]] base::Result<std::optional<KeyGrant>> find_by_hash(const std::string& hash) const;
  [[nodiscard]] base::Result<std::optional<KeyRecord>> find_key(const std::string& key_id) const;
  [[nodiscard]] base::Result<std::optional<events::Plan>> plan_of(const std::string& account) const;

 private:
  [[nodiscard]] base::Result<std::optional<KeyGrant>> read_grant(const std::string& hash) const;

  bool changed_ = false;  // an access event applied since the last commit (projector thread)
  ReadMemo<std::optional<KeyGrant>> grants_;  // by key hash
};

}  // namespace vouch::store
