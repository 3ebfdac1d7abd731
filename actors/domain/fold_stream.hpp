#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <utility>

#include "base/result.hpp"
#include "store/event_log.hpp"

namespace vouch::actors {

// The one way a domain actor rebuilds an aggregate from its stream: every
// record decoded with `decode(type, data)` and folded with events::evolve
// (found by argument-dependent lookup, so the caller includes the aggregate).
// Returns the state and the stream's version (0 for an empty stream), or the
// error of the read or of the first record that does not decode. Reads
// RocksDB on the caller's thread.
template <class State, class Decode>
base::Result<std::pair<State, std::uint64_t>> fold_stream(const store::EventLog& log,
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

// How a keyed actor loads its aggregate: the stream folded into `state` and
// `version` as fold_stream() does, or the error (both then left as they
// were), which the actor keeps and answers its commands with.
template <class State, class Decode>
std::optional<base::Error> load_stream(const store::EventLog& log, const std::string& stream,
                                       Decode decode, State& state, std::uint64_t& version) {
  auto folded = fold_stream<State>(log, stream, decode);
  if (!folded) return std::move(folded).error();
  std::tie(state, version) = std::move(folded).value();
  return std::nullopt;
}

}  // namespace vouch::actors
