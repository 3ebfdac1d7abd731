#pragma once

#include <cstddef>

#include "base/clock.hpp"
#include "base/result.hpp"
#include "secrets/webhook_secrets.hpp"
#include "store/event_log.hpp"

namespace vouch::secrets {

// Destroys every data key that no webhook needs at `now` (events::needed_keys
// of its stream): the keys of deleted webhooks, of secrets rotated out whose
// overlap has passed, and of secrets whose event was never committed (a crash
// or a failed append between making the key and recording it). Returns how
// many it destroyed. REQUIRES: no webhook command runs meanwhile (start-up).
[[nodiscard]] base::Result<std::size_t> destroy_unneeded_keys(const store::EventLog& log,
                                                                WebhookSecrets& secrets,
                                                                base::Millis now);

}  // namespace vouch::secrets
