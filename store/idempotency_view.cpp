#include "store/idempotency_view.hpp"

#include "store/key_coding.hpp"

namespace vouch::store {

base::Status IdempotencyView::apply(const events::RecordedEvent& record, ViewWriter& writer) {
  if (record.event.type != events::kIdempotentResponseRecordedV1) return base::ok_status();
  // Validate before storing: find() decodes the same data.
  auto decoded = events::decode_idempotent_response(record.event.data);
  if (!decoded) return std::move(decoded).error();
  writer.put(keys::idempotent_response(record.stream), record.event.data);
  return base::ok_status();
}

base::Result<std::optional<events::IdempotentResponse>> IdempotencyView::find(
    const std::string& stream) const {
  return database_.read_view<events::IdempotentResponse>(
      keys::idempotent_response(stream),
      [](std::string_view text) -> base::Result<events::IdempotentResponse> {
        auto decoded = events::decode_idempotent_response(text);
        if (!decoded) return std::move(decoded).error();
        return std::move(decoded->response);
      });
}

}  // namespace vouch::store
