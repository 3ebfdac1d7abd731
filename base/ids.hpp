#pragma once

#include <string>
#include <string_view>

namespace vouch::base {

// Identifier prefixes: the kind of a resource is visible in its id.
inline constexpr std::string_view kProjectIdPrefix = "prj_";
inline constexpr std::string_view kTestIdPrefix = "tst_";
inline constexpr std::string_view kRunIdPrefix = "run_";
inline constexpr std::string_view kWebhookIdPrefix = "whk_";
inline constexpr std::string_view kDeliveryIdPrefix = "dlv_";
inline constexpr std::string_view kEventIdPrefix = "evt_";
inline constexpr std::string_view kKeyIdPrefix = "key_";
inline constexpr std::string_view kRequestIdPrefix = "req_";
inline constexpr std::string_view kApiKeyPrefix = "vk_";

// `prefix` followed by 24 lowercase hex digits from a cryptographic source.
std::string new_id(std::string_view prefix);

// For the high-volume ids of the log (events, delivery attempts): `prefix`,
// 12 hex digits of the Unix time in milliseconds, then 16 random hex digits
// (64 bits). Ids made later sort after earlier ones (to the millisecond, on
// one clock), so their index keys insert next to each other instead of at
// random places in RocksDB's memtable, as Svix's KSUID-based message ids do.
std::string new_time_ordered_id(std::string_view prefix);

// A secret API key: kApiKeyPrefix and 64 hex digits (256 bits).
std::string new_api_key();

// True when `id` is `prefix` followed by 1–64 characters of [0-9a-z_].
bool looks_like_id(std::string_view id, std::string_view prefix);

}  // namespace vouch::base
