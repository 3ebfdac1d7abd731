#include "secrets/key_sweep.hpp"

#include <algorithm>
#include <map>

#include "events/webhook.hpp"
#include "events/webhook_delivery.hpp"

namespace vouch::secrets {

base::Result<std::size_t> destroy_unneeded_keys(const store::EventLog& log,
                                                  WebhookSecrets& secrets, base::Millis now) {
  auto keys = secrets.keys().list();
  if (!keys) return std::move(keys).error();
  std::map<std::string, std::vector<std::string>> by_owner;
  for (auto& key : *keys) by_owner[key.owner].push_back(std::move(key.id));

  std::vector<std::string> unneeded;
  for (const auto& [owner, ids] : by_owner) {
    auto records = log.read_stream(events::webhook_stream(owner));
    if (!records) return std::move(records).error();
    events::WebhookState state;
    for (const auto& record : *records) {
      if (!events::is_webhook_event(record.event.type)) continue;
      auto event = events::decode_webhook_event(record.event.type, record.event.data);
      if (!event) return std::move(event).error();
      state = events::evolve(std::move(state), *event);
    }
    const auto needed = events::needed_keys(state, now);
    for (const auto& id : ids) {
      if (std::find(needed.begin(), needed.end(), id) == needed.end()) unneeded.push_back(id);
    }
  }
  if (auto destroyed = secrets.destroy(unneeded); !destroyed) return std::move(destroyed).error();
  return unneeded.size();
}

}  // namespace vouch::secrets
