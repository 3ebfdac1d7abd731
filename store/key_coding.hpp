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

// --- views CF: the read models' rows ---------------------------------------
// Each read model keeps its rows under an area of its own ("projects",
// "access", "deliveries", ...): "<area>/<kind>/<name>". Ids and names hold
// no '/' or '\0', so one kind's rows never run into another's.

// A record kept by OwnedRecords (or the events read model): "<area>/id/<id>",
// and the log position it was created at, "<area>/pos/<id>".
std::string record(std::string_view area, std::string_view id);
std::string record_position(std::string_view area, std::string_view id);
// The name of one of an area's owner indexes ("projects/acct"), for
// owner_index() and owner_index_prefix().
std::string index_name(std::string_view area, std::string_view index);

// access: a key's id by the hash of its secret, a key's record, an
// account's plan.
std::string access_key_by_hash(std::string_view hash);
std::string access_key(std::string_view key_id);
std::string access_account(std::string_view account);

// projects: a project's latest snapshot, and each snapshot it imported.
std::string project_snapshot(std::string_view project_id);
std::string project_imported_snapshot(std::string_view project_id, std::string_view snapshot_id);

// tests: a project's latest coverage; the asynchronous generations not ended
// yet, one row each under generating_tests_prefix().
std::string project_coverage(std::string_view project_id);
std::string generating_tests_prefix();
std::string generating_test(std::string_view test_id);

// runs: the runs not ended yet, one row each under running_runs_prefix().
std::string running_runs_prefix();
std::string running_run(std::string_view run_id);

// idempotency: the latest response recorded in an idempotency stream.
std::string idempotent_response(std::string_view stream);

// deliveries: a delivery's log position by its id; per webhook, its
// deliveries in log order (one range), the events with a retry pending
// (pending_deliveries_prefix() covers every webhook's), the attempts made
// per event, and since when it has been failing.
std::string delivery(std::string_view delivery_id);
std::string webhook_deliveries_prefix(std::string_view webhook_id);
std::string webhook_delivery(std::string_view webhook_id, std::uint64_t position);
std::string pending_deliveries_prefix();
std::string pending_delivery(std::string_view webhook_id, std::string_view event_id);
std::string delivery_attempts(std::string_view webhook_id, std::string_view event_id);
std::string webhook_failing_since(std::string_view webhook_id);

}  // namespace vouch::store::keys
