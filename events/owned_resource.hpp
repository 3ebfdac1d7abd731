#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/clock.hpp"
#include "base/result.hpp"

// The lifecycle that the account-owned aggregates (projects, webhooks) share:
// a partial update that records only what it changes, and a deletion. Each
// aggregate names its own instances (DeleteProject is Delete<Project>), which
// stay distinct types for decide() overloads and actor messages.
namespace vouch::events {

// Changes the fields of `Changes` that are present (an aggregate's
// ProjectChanges, with any(): whether one is present).
template <class Changes>
struct Update {
  std::string id;
  std::string account;
  Changes changes;
  base::Millis at = 0;
};

template <class Changes>
struct Updated {
  std::string id;
  Changes changes;  // only what differs from the record before
  base::Millis at = 0;
};

template <class Record>
struct Delete {
  std::string id;
  std::string account;
  base::Millis at = 0;
};

template <class Record>
struct Deleted {
  std::string id;
  base::Millis at = 0;
};

// `asked` when it differs from `current`, otherwise nullopt.
template <class T>
std::optional<T> changed_value(const std::optional<T>& asked, const T& current) {
  if (asked && *asked != current) return asked;
  return std::nullopt;
}

// What an update records: Updated with `changed` (what differs from the
// record), or no event at all when nothing does (and so no webhook call).
template <class Event, class Changes>
std::vector<Event> updated_events(const Update<Changes>& command, Changes changed) {
  if (!changed.any()) return {};
  return {Updated<Changes>{command.id, std::move(changed), command.at}};
}

// kNotFound "no <noun> <id>": what a command about a record that is missing,
// deleted or another account's gets (ids of others never leak).
inline base::Error no_such(std::string_view noun, const std::string& id) {
  return base::Error::not_found("no " + std::string(noun) + " " + id);
}

}  // namespace vouch::events
