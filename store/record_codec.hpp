#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "base/result.hpp"
#include "events/event_record.hpp"

namespace vouch::store {

// The stored bytes of a recorded event: one JSON object per event, the same
// line `vouchd replay` prints, so the log stays readable by any tool.
std::string encode_record(const events::RecordedEvent& record);
// kInternal when the bytes are not a record this program wrote.
base::Result<events::RecordedEvent> decode_record(std::string_view bytes);
// The stored type of an encoded record without decoding it (a subscriber
// that skips most types need not parse them); nullopt when it cannot be
// read cheaply (then decode_record() tells).
std::optional<std::string_view> peek_record_type(std::string_view bytes);

}  // namespace vouch::store
