#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

// Every RocksDB key is built here. Numbers are big-endian so that byte order
// is numeric order, and iteration follows positions and versions.
namespace vouch::store::keys {

void append_u64(std::string& out, std::uint64_t value);
std::string encode_u64(std::uint64_t value);
// nullopt unless `bytes` is exactly 8 bytes.
std::optional<std::uint64_t> decode_u64(std::string_view bytes);

// events CF: the event at a global position.
std::string event(std::uint64_t position);
// streams CF: the head version of a stream.
std::string stream_head(std::string_view stream);
// streams CF: the global position of one version of a stream; all versions
// of a stream share stream_index_prefix(stream).
std::string stream_index(std::string_view stream, std::uint64_t version);
std::string stream_index_prefix(std::string_view stream);
// meta CF: the highest position committed.
std::string last_position();
// meta: a key written outside the write-ahead log so that a memtable is
// never empty when a logged write fails (store/database.cpp); never read.
std::string memtable_anchor();
// meta: the format of the read models (store/read_model_format.hpp).
std::string read_model_format();
// views CF: one owner's entries of a read model's index, in log order:
// "<index>/<owner>\0<position>". owner_index_prefix() covers them all.
std::string owner_index_prefix(std::string_view index, std::string_view owner);
std::string owner_index(std::string_view index, std::string_view owner, std::uint64_t position);

// views CF: the checkpoint of one projection.
std::string checkpoint(std::string_view projection);

}  // namespace vouch::store::keys

namespace vouch::store::keys {

// meta CF: the position a log subscriber (e.g. the webhook dispatcher) has
// finished with.
std::string subscriber_cursor(std::string_view subscriber);

}  // namespace vouch::store::keys
