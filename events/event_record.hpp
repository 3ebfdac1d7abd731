#pragma once

#include <cstdint>
#include <string>

#include "base/clock.hpp"

namespace vouch::events {

// An event about to be appended: a past-tense fact with its versioned stored
// name (e.g. "ProjectCreated.v1") and its data as a JSON object text.
struct NewEvent {
  std::string id;       // evt_…, unique across the log
  std::string type;     // stored name, never derived from typeid
  std::string account;  // owner; events are only ever shown to this account
  base::Millis created = 0;
  std::string data;  // JSON object
};

// An event as the log holds it: a NewEvent plus where it sits in the log.
struct RecordedEvent {
  std::uint64_t position = 0;  // global, 1-based, gap-free, in commit order
  std::string stream;          // "<kind>-<id>"
  std::uint64_t version = 0;   // 1-based within the stream
  NewEvent event;
};

// Stream names: "<kind>-<id>" (docs/architecture.md, "The event model").
inline std::string project_stream(const std::string& id) { return "project-" + id; }
inline std::string apikey_stream(const std::string& id) { return "apikey-" + id; }
inline std::string account_stream(const std::string& id) { return "account-" + id; }

}  // namespace vouch::events
