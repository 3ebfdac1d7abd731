#pragma once

#include <cstddef>

#include "base/clock.hpp"
#include "base/result.hpp"
#include "secrets/webhook_secrets.hpp"
#include "store/event_log.hpp"

namespace vouch::secrets {

// Destroys every data key that nothing needs at `now`: the keys of deleted
// webhooks, of secrets rotated out whose overlap has passed, of secrets whose
// event was never committed (a crash or a failed append between making the
// key and recording it; events::needed_keys of the webhook's stream), and of
// API keys in recorded idempotent responses that no longer answer retries
// (or were never recorded). Returns how many it destroyed.
// REQUIRES: no webhook command or idempotent request runs meanwhile (start-up).
[[nodiscard]] base::Result<std::size_t> destroy_unneeded_keys(const store::EventLog& log,
                                                              WebhookSecrets& secrets,
                                                              base::Millis now);

}  // namespace vouch::secrets
