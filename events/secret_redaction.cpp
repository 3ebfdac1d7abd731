#include "events/secret_redaction.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <cctype>

#include "base/ids.hpp"

namespace vouch::events {
namespace {

// Webhook secrets, API keys.
constexpr std::string_view kSecretPrefixes[] = {"whsec_", base::kApiKeyPrefix};

bool is_secret_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '/' || c == '=' ||
         c == '_' || c == '-';
}

// `text` with each whsec_… and vk_… token (one that starts a word) replaced;
// true when it changed.
bool withhold_tokens(std::string& text) {
  bool changed = false;
  for (const auto prefix : kSecretPrefixes) {
    for (auto at = text.find(prefix); at != std::string::npos; at = text.find(prefix, at + 1)) {
      if (at > 0 && is_secret_char(text[at - 1])) continue;
      auto end = at + prefix.size();
      while (end < text.size() && is_secret_char(text[end])) ++end;
      text.replace(at, end - at, kSecretWithheld);
      changed = true;
    }
  }
  return changed;
}

void withhold(boost::json::value& value) {
  if (auto* object = value.if_object()) {
    for (auto& [key, member] : *object) {
      if (key == "secret" || key == "previousSecret") {
        member = kSecretWithheld;
      } else {
        withhold(member);
      }
    }
  } else if (auto* array = value.if_array()) {
    for (auto& member : *array) withhold(member);
  } else if (auto* string = value.if_string()) {
    std::string text(*string);
    if (withhold_tokens(text)) *string = text;
  }
}

}  // namespace

RecordedEvent without_secrets(RecordedEvent record) {
  boost::system::error_code ec;
  auto data = boost::json::parse(record.event.data, ec);
  if (ec || !data.is_object()) return record;
  withhold(data);
  record.event.data = boost::json::serialize(data);
  return record;
}

}  // namespace vouch::events
