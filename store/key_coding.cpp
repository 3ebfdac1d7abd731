#include "store/key_coding.hpp"

namespace vouch::store::keys {

void append_u64(std::string& out, std::uint64_t value) {
  for (int shift = 56; shift >= 0; shift -= 8) {
    out.push_back(static_cast<char>((value >> shift) & 0xff));
  }
}

std::string encode_u64(std::uint64_t value) {
  std::string out;
  append_u64(out, value);
  return out;
}

std::optional<std::uint64_t> decode_u64(std::string_view bytes) {
  if (bytes.size() != 8) return std::nullopt;
  std::uint64_t value = 0;
  for (unsigned char byte : bytes) value = (value << 8) | byte;
  return value;
}

std::string event(std::uint64_t position) { return encode_u64(position); }

// 'h' and 'i' keep heads and index entries apart; '\0' ends the stream name
// (stream names never contain it) so one stream's prefix is not another's.
std::string stream_head(std::string_view stream) {
  std::string key = "h";
  key.append(stream);
  return key;
}

std::string stream_index_prefix(std::string_view stream) {
  std::string key = "i";
  key.append(stream);
  key.push_back('\0');
  return key;
}

std::string stream_index(std::string_view stream, std::uint64_t version) {
  std::string key = stream_index_prefix(stream);
  append_u64(key, version);
  return key;
}

std::string last_position() { return "last-position"; }

std::string memtable_anchor() { return "memtable-anchor"; }

std::string read_model_format() { return "read-model-format"; }

std::string owner_index_prefix(std::string_view index, std::string_view owner) {
  std::string key(index);
  key.push_back('/');
  key.append(owner);
  key.push_back('\0');
  return key;
}

std::string owner_index(std::string_view index, std::string_view owner, std::uint64_t position) {
  std::string key = owner_index_prefix(index, owner);
  append_u64(key, position);
  return key;
}

std::string checkpoint(std::string_view projection) {
  std::string key = "~checkpoint/";
  key.append(projection);
  return key;
}

}  // namespace vouch::store::keys

namespace vouch::store::keys {

std::string subscriber_cursor(std::string_view subscriber) {
  std::string key = "cursor/";
  key.append(subscriber);
  return key;
}

namespace {

std::string row(std::string_view area, std::string_view kind, std::string_view name) {
  std::string key(area);
  key.push_back('/');
  key.append(kind);
  key.push_back('/');
  key.append(name);
  return key;
}

}  // namespace

std::string record(std::string_view area, std::string_view id) { return row(area, "id", id); }
std::string record_position(std::string_view area, std::string_view id) {
  return row(area, "pos", id);
}
std::string index_name(std::string_view area, std::string_view index) {
  std::string name(area);
  name.push_back('/');
  name.append(index);
  return name;
}

std::string access_key_by_hash(std::string_view hash) { return row("access", "hash", hash); }
std::string access_key(std::string_view key_id) { return row("access", "key", key_id); }
std::string access_account(std::string_view account) { return row("access", "account", account); }

std::string project_snapshot(std::string_view project_id) {
  return row("projects", "snapshot", project_id);
}
std::string project_imported_snapshot(std::string_view project_id, std::string_view snapshot_id) {
  std::string key = row("projects", "snapshots", project_id);
  key.push_back('/');
  key.append(snapshot_id);
  return key;
}

std::string project_coverage(std::string_view project_id) {
  return row("tests", "coverage", project_id);
}

std::string generating_tests_prefix() { return row("tests", "generating", ""); }
std::string generating_test(std::string_view test_id) {
  return row("tests", "generating", test_id);
}

std::string running_runs_prefix() { return row("runs", "running", ""); }
std::string running_run(std::string_view run_id) { return row("runs", "running", run_id); }

std::string idempotent_response(std::string_view stream) {
  std::string key = "idempotency/";
  key.append(stream);
  return key;
}

std::string delivery(std::string_view delivery_id) { return record("deliveries", delivery_id); }
std::string webhook_deliveries_prefix(std::string_view webhook_id) {
  return owner_index_prefix("deliveries/hook", webhook_id);
}
std::string webhook_delivery(std::string_view webhook_id, std::uint64_t position) {
  return owner_index("deliveries/hook", webhook_id, position);
}
std::string pending_deliveries_prefix() { return row("deliveries", "pending", ""); }
std::string pending_delivery(std::string_view webhook_id, std::string_view event_id) {
  return owner_index_prefix("deliveries/pending", webhook_id) + std::string(event_id);
}
std::string delivery_attempts(std::string_view webhook_id, std::string_view event_id) {
  return owner_index_prefix("deliveries/attempts", webhook_id) + std::string(event_id);
}
std::string webhook_failing_since(std::string_view webhook_id) {
  return row("deliveries", "failing-since", webhook_id);
}

}  // namespace vouch::store::keys
