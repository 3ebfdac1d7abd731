#include "events/webhook.hpp"

#include <algorithm>
#include <boost/url/parse.hpp>

#include "base/overloaded.hpp"

namespace vouch::events {
namespace {

void check_url(const std::string& url, const WebhookRules& rules,
               std::vector<base::FieldError>& errors) {
  if (auto problem = check_webhook_url(url, rules.allow_http)) errors.push_back({"url", *problem});
}

void check_patterns(const std::vector<std::string>& patterns,
                    std::vector<base::FieldError>& errors) {
  if (patterns.empty()) {
    errors.push_back({"events", "must name at least one event type"});
    return;
  }
  if (patterns.size() > kMaxWebhookPatterns) {
    errors.push_back({"events", "must name at most " + std::to_string(kMaxWebhookPatterns) +
                                    " event types or patterns"});
  }
  for (std::size_t i = 0; i < patterns.size(); ++i) {
    if (is_valid_event_pattern(patterns[i])) continue;
    std::string known;
    for (const auto& type : public_event_types()) known += type + ", ";
    errors.push_back({"events[" + std::to_string(i) + "]", "unknown event type \"" + patterns[i] +
                                                               "\"; use one of " + known +
                                                               "test.*, project.* or *"});
  }
}

void check_description(const std::string& description, std::vector<base::FieldError>& errors) {
  if (description.size() > kMaxWebhookDescriptionLength) {
    errors.push_back(
        {"description",
         "must be at most " + std::to_string(kMaxWebhookDescriptionLength) + " characters"});
  }
}

bool visible_to(const WebhookState& state, const std::string& account) {
  return state.webhook && !state.deleted && state.webhook->account == account;
}

}  // namespace

const std::vector<std::string>& public_event_types() {
  static const std::vector<std::string> kTypes{
      "test.started",    "test.completed",  "test.failed",     "test.coverage.updated",
      "project.created", "project.updated", "project.deleted", "project.imported"};
  return kTypes;
}

bool is_valid_event_pattern(std::string_view pattern) {
  if (pattern == "*" || pattern == "test.*" || pattern == "project.*") return true;
  const auto& types = public_event_types();
  return std::find(types.begin(), types.end(), pattern) != types.end();
}

bool pattern_matches(std::string_view pattern, std::string_view type) {
  if (pattern == "*") return true;
  if (pattern.size() >= 2 && pattern.substr(pattern.size() - 2) == ".*") {
    // "test.*" selects "test.started" and "test.coverage.updated", not "testing.x".
    return type.substr(0, pattern.size() - 1) == pattern.substr(0, pattern.size() - 1);
  }
  return pattern == type;
}

bool any_pattern_matches(const std::vector<std::string>& patterns, std::string_view type) {
  return std::any_of(patterns.begin(), patterns.end(),
                     [&](const std::string& pattern) { return pattern_matches(pattern, type); });
}

std::optional<std::string> check_webhook_url(std::string_view url, bool allow_http) {
  if (url.empty()) return "must not be empty";
  if (url.size() > kMaxWebhookUrlLength) {
    return "must be at most " + std::to_string(kMaxWebhookUrlLength) + " characters";
  }
  auto parsed = boost::urls::parse_absolute_uri(url);
  if (!parsed) return "must be an absolute URL (" + parsed.error().message() + ")";
  const auto scheme = parsed->scheme_id();
  if (scheme != boost::urls::scheme::https &&
      !(allow_http && scheme == boost::urls::scheme::http)) {
    return allow_http ? "must be an https or http URL" : "must be an https URL";
  }
  if (parsed->encoded_host().empty()) return "must name a host";
  if (parsed->has_userinfo()) return "must not carry user information";
  if (parsed->has_port()) {
    const auto port = parsed->port_number();
    if (port == 0) return "must have a port from 1 to 65535";
  }
  return std::nullopt;
}

base::Result<std::vector<WebhookEvent>> decide(const WebhookState& state,
                                               const CreateWebhook& command,
                                               const SealedSecret& sealed,
                                               const WebhookRules& rules) {
  if (state.webhook) return base::Error::conflict("webhook " + command.id + " already exists");
  std::vector<base::FieldError> errors;
  check_url(command.url, rules, errors);
  check_patterns(command.events, errors);
  check_description(command.description, errors);
  if (!errors.empty()) return base::Error::invalid("the webhook is not valid", std::move(errors));
  Webhook webhook;
  webhook.id = command.id;
  webhook.account = command.account;
  webhook.url = command.url;
  webhook.events = command.events;
  webhook.description = command.description;
  webhook.secret = sealed;
  webhook.created = command.at;
  webhook.updated = command.at;
  return std::vector<WebhookEvent>{WebhookCreated{std::move(webhook)}};
}

base::Result<std::vector<WebhookEvent>> decide(const WebhookState& state,
                                               const UpdateWebhook& command,
                                               const WebhookRules& rules) {
  if (!visible_to(state, command.account)) return no_such("webhook", command.id);
  std::vector<base::FieldError> errors;
  const WebhookChanges& asked = command.changes;
  if (asked.url) check_url(*asked.url, rules, errors);
  if (asked.events) check_patterns(*asked.events, errors);
  if (asked.description) check_description(*asked.description, errors);
  if (!errors.empty()) return base::Error::invalid("the update is not valid", std::move(errors));

  const Webhook& current = *state.webhook;
  return updated_events<WebhookEvent>(
      command, WebhookChanges{changed_value(asked.url, current.url),
                              changed_value(asked.events, current.events),
                              changed_value(asked.description, current.description),
                              changed_value(asked.active, current.active)});
}

base::Result<std::vector<WebhookEvent>> decide(const WebhookState& state,
                                               const DeleteWebhook& command) {
  if (!visible_to(state, command.account)) return no_such("webhook", command.id);
  return std::vector<WebhookEvent>{WebhookDeleted{command.id, command.at}};
}

base::Result<std::vector<WebhookEvent>> decide(const WebhookState& state,
                                               const RotateWebhookSecret& command,
                                               const SealedSecret& sealed) {
  if (!visible_to(state, command.account)) return no_such("webhook", command.id);
  return std::vector<WebhookEvent>{
      WebhookSecretRotated{command.id, sealed, command.at + kSecretOverlapMillis, command.at}};
}

base::Result<std::vector<WebhookEvent>> decide(const WebhookState& state,
                                               const DisableWebhook& command) {
  if (!state.webhook || state.deleted || !state.webhook->active) {
    return std::vector<WebhookEvent>{};
  }
  return std::vector<WebhookEvent>{WebhookDisabled{command.id, command.reason, command.at}};
}

const std::string& webhook_id_of(const WebhookEvent& event) {
  return std::visit(
      base::Overloaded{
          [](const WebhookCreated& created) -> const std::string& { return created.webhook.id; },
          [](const auto& other) -> const std::string& { return other.id; },
      },
      event);
}

WebhookState evolve(WebhookState state, const WebhookEvent& event) {
  std::visit(base::Overloaded{
                 [&](const WebhookCreated& created) {
                   state.webhook = created.webhook;
                   state.deleted = false;
                 },
                 [&](const WebhookUpdated& updated) {
                   if (!state.webhook) return;
                   auto& webhook = *state.webhook;
                   const WebhookChanges& changes = updated.changes;
                   if (changes.url) webhook.url = *changes.url;
                   if (changes.events) webhook.events = *changes.events;
                   if (changes.description) webhook.description = *changes.description;
                   if (changes.active) {
                     webhook.active = *changes.active;
                     webhook.disabled_reason.clear();
                   }
                   webhook.updated = updated.at;
                 },
                 [&](const WebhookDeleted& deleted) {
                   state.deleted = true;
                   if (state.webhook) state.webhook->updated = deleted.at;
                 },
                 [&](const WebhookSecretRotated& rotated) {
                   if (!state.webhook) return;
                   state.webhook->previous_secret = std::move(state.webhook->secret);
                   state.webhook->secret = rotated.secret;
                   state.webhook->previous_secret_until = rotated.previous_secret_until;
                   state.webhook->updated = rotated.at;
                 },
                 [&](const WebhookDisabled& disabled) {
                   if (!state.webhook) return;
                   state.webhook->active = false;
                   state.webhook->disabled_reason = disabled.reason;
                   state.webhook->updated = disabled.at;
                 },
             },
             event);
  return state;
}

std::vector<SealedSecret> signing_secrets(const Webhook& webhook, base::Millis at) {
  std::vector<SealedSecret> secrets{webhook.secret};
  if (!webhook.previous_secret.empty() && at < webhook.previous_secret_until) {
    secrets.push_back(webhook.previous_secret);
  }
  return secrets;
}

std::vector<std::string> needed_keys(const WebhookState& state, base::Millis at) {
  std::vector<std::string> keys;
  if (!state.webhook || state.deleted) return keys;
  for (const auto& secret : signing_secrets(*state.webhook, at)) {
    if (!secret.empty()) keys.push_back(secret.key_id);
  }
  return keys;
}

}  // namespace vouch::events
