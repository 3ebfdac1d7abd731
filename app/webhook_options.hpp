#pragma once

#include <boost/program_options/options_description.hpp>
#include <boost/program_options/variables_map.hpp>
#include <string>
#include <vector>

#include "actors/delivery/webhook_messages.hpp"
#include "base/result.hpp"

namespace vouch::app {

// The raw values of vouchd serve's webhook flags (README.md, "Webhooks").
struct WebhookOptions {
  std::vector<std::string> allow_cidrs;
  double retry_scale = 1.0;
  long timeout_ms = 15'000;
  std::string ca_file;
};

// --webhook-allow-cidr CIDR (repeatable), --webhook-allow-http,
// --webhook-retry-scale F, --webhook-timeout MS, --webhook-ca FILE.
void add_webhook_options(boost::program_options::options_description& options,
                         WebhookOptions& values);

// kInvalid naming the flag when a value is unusable.
[[nodiscard]] base::Result<actors::WebhookSettings> webhook_settings(
    const WebhookOptions& options, const boost::program_options::variables_map& values);

}  // namespace vouch::app
