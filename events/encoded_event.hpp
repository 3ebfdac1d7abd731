#pragma once

#include <string>

namespace vouch::events {

// An event in its stored form: an explicit, versioned name and its data.
struct EncodedEvent {
  std::string type;  // stored name, e.g. "ProjectCreated.v1"
  std::string data;  // JSON object text
};

}  // namespace vouch::events
