#include "secrets/key_sweep.hpp"

#include <algorithm>
#include <map>

#include "events/idempotency.hpp"
#include "events/webhook.hpp"
#include "events/webhook_delivery.hpp"

namespace vouch::secrets {
namespace {

// The keys webhook `owner` needs at `now`.
base::Result<std::vector<std::string>> needed_by_webhook(const store::EventLog& log,
                                                         const std::string& owner,
                                                         base::Millis now) {
  auto records = log.read_stream(events::webhook_stream(owner));
  if (!records) return std::move(records).error();
  events::WebhookState state;
  for (const auto& record : *records) {
    if (!events::is_webhook_event(record.event.type)) continue;
    auto event = events::decode_webhook_event(record.event.type, record.event.data);
    if (!event) return std::move(event).error();
    state = events::evolve(std::move(state), *event);
  }
  return events::needed_keys(state, now);
}

// The key of the API key recorded in idempotency stream `owner`: needed
// while its latest record answers retries.
base::Result<std::vector<std::string>> needed_by_response(const store::EventLog& log,
                                                          const std::string& owner,
                                                          base::Millis now) {
  auto records = log.read_stream(owner);
  if (!records) return std::move(records).error();
  if (records->empty()) return std::vector<std::string>{};
  auto recorded = events::decode_idempotent_response(records->back().event.data);
  if (!recorded) return std::move(recorded).error();
  const auto& response = recorded->response;
  if (response.secret.empty() || !events::answers_retries(response.at, now)) {
    return std::vector<std::string>{};
  }
  return std::vector<std::string>{response.secret.key_id};
}

}  // namespace

base::Result<std::size_t> destroy_unneeded_keys(const store::EventLog& log, WebhookSecrets& secrets,
                                                base::Millis now) {
  auto keys = secrets.keys().list();
  if (!keys) return std::move(keys).error();
  std::map<std::string, std::vector<std::string>> by_owner;
  for (auto& key : *keys) by_owner[key.owner].push_back(std::move(key.id));

  std::vector<std::string> unneeded;
  for (const auto& [owner, ids] : by_owner) {
    auto needed = events::is_idempotency_stream(owner) ? needed_by_response(log, owner, now)
                                                       : needed_by_webhook(log, owner, now);
    if (!needed) return std::move(needed).error();
    for (const auto& id : ids) {
      if (std::find(needed->begin(), needed->end(), id) == needed->end()) unneeded.push_back(id);
    }
  }
  if (auto destroyed = secrets.destroy(unneeded); !destroyed) return std::move(destroyed).error();
  return unneeded.size();
}

}  // namespace vouch::secrets
