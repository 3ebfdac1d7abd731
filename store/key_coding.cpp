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

}  // namespace vouch::store::keys
