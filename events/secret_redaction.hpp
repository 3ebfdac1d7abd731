#pragma once

#include "events/event_record.hpp"

namespace vouch::events {

// What an audit export shows in place of a secret.
inline constexpr std::string_view kSecretWithheld = "[secret withheld]";

// `record` as `vouchd replay` prints it: the value of every "secret" and
// "previousSecret" field (sealed or, in a folder not yet migrated, plain) and
// every whsec_… or vk_… token inside other strings (a recorded response body:
// a webhook secret, an API key)
// replaced by kSecretWithheld. Data that is not a JSON object is left as it is.
RecordedEvent without_secrets(RecordedEvent record);

}  // namespace vouch::events
