#include "app/webhook_options.hpp"

#include <boost/program_options/value_semantic.hpp>
#include <cmath>

namespace vouch::app {

namespace po = boost::program_options;

// The largest --webhook-retry-scale and --webhook-timeout.
constexpr int kMaxRetryScale = 1000;
constexpr long kMaxTimeoutMs = 600'000;

void add_webhook_options(po::options_description& options, WebhookOptions& values) {
  options.add_options()(
      "webhook-allow-cidr", po::value(&values.allow_cidrs)->composing(),
      "let deliveries reach this private, loopback or otherwise reserved range (repeatable)")(
      "webhook-allow-http", "accept plain http:// webhook URLs (development and tests)")(
      "webhook-retry-scale", po::value(&values.retry_scale),
      "multiply every retry delay (and the 5-day disabling) by F; 0.001 turns minutes into ms")(
      "webhook-timeout", po::value(&values.timeout_ms),
      "milliseconds a receiver has to answer (default 15000)")(
      "webhook-ca", po::value(&values.ca_file),
      "PEM file of extra CAs trusted for HTTPS deliveries, besides the system store");
}

base::Result<actors::WebhookSettings> webhook_settings(const WebhookOptions& options,
                                                       const po::variables_map& values) {
  actors::WebhookSettings settings;
  auto allowed = transport::Cidr::parse_all(options.allow_cidrs, "--webhook-allow-cidr");
  if (!allowed) return std::move(allowed).error();
  settings.allow_cidrs = std::move(allowed).value();
  settings.allow_http = values.count("webhook-allow-http") != 0;
  if (!std::isfinite(options.retry_scale) || options.retry_scale <= 0 ||
      options.retry_scale > kMaxRetryScale) {
    return base::Error::invalid("--webhook-retry-scale must be a number above 0 (at most " +
                                std::to_string(kMaxRetryScale) + ")");
  }
  settings.retry_scale = options.retry_scale;
  if (options.timeout_ms < 1 || options.timeout_ms > kMaxTimeoutMs) {
    return base::Error::invalid("--webhook-timeout must be from 1 to " +
                                std::to_string(kMaxTimeoutMs) + " ms");
  }
  settings.timeout = std::chrono::milliseconds(options.timeout_ms);
  settings.ca_file = options.ca_file;
  return settings;
}

}  // namespace vouch::app
