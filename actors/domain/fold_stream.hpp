#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include "events/result.hpp"
#include "store/event_log.hpp"

namespace vouch::actors {

// The one way a domain actor rebuilds an aggregate from its stream: every
// record decoded with `decode(type, data)` and folded with events::evolve
// (found by argument-dependent lookup, so the caller includes the aggregate).
// Returns the state and the stream's version (0 for an empty stream), or the
// error of the read or of the first record that does not decode. Reads
// RocksDB on the caller's thread.
template <class State, class Decode>
events::Result<std::pair<State, std::uint64_t>> fold_stream(const store::EventLog& log,
                                                            const std::string& stream,
                                                            Decode decode) {
  auto records = log.read_stream(stream);
  if (!records) return std::move(records).error();
  State state;
  std::uint64_t version = 0;
  for (const auto& record : *records) {
    auto event = decode(record.event.type, record.event.data);
    if (!event) return std::move(event).error();
    state = evolve(std::move(state), *event);
    version = record.version;
  }
  return std::pair{std::move(state), version};
}

}  // namespace vouch::actors
