#pragma once

#include <optional>
#include <string>
#include <vector>

#include "events/plan.hpp"
#include "events/result.hpp"
#include "store/database.hpp"
#include "store/projection.hpp"

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
  events::Millis created = 0;
  bool revoked = false;
};

// Read model of accounts and API keys, looked up on every request. Keys are
// found by the SHA-256 of the secret; a revoked key is no longer found.
class AccessView : public Projection {
 public:
  explicit AccessView(Database& database) : database_(database) {}

  std::string_view name() const override { return "access"; }
  events::Status apply(const events::RecordedEvent& event, ViewWriter& writer) override;

  // nullopt for an unknown or revoked key.
  [[nodiscard]] events::Result<std::optional<KeyGrant>> find_by_hash(const std::string& hash) const;
  [[nodiscard]] events::Result<std::optional<KeyRecord>> find_key(const std::string& key_id) const;
  [[nodiscard]] events::Result<std::optional<events::Plan>> plan_of(
      const std::string& account) const;

 private:
  Database& database_;
};

}  // namespace vouch::store
