// store/key_coding: decoding arbitrary bytes, and the order of encoded
// numbers (RocksDB iterates keys in byte order, the log relies on it).
#include <cstring>

#include "fuzz_input.hpp"
#include "store/key_coding.hpp"

using namespace vouch;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  if (const auto value = store::keys::decode_u64(bytes)) {
    VOUCH_FUZZ_CHECK(store::keys::encode_u64(*value) == bytes);
  }
  if (size >= 16) {
    std::uint64_t a = 0, b = 0;
    std::memcpy(&a, data, 8);
    std::memcpy(&b, data + 8, 8);
    const auto ea = store::keys::encode_u64(a), eb = store::keys::encode_u64(b);
    VOUCH_FUZZ_CHECK((a < b) == (ea < eb));
    VOUCH_FUZZ_CHECK(store::keys::decode_u64(ea) == a);
    // Keys of one stream sort by version, and never fall under another
    // stream's prefix (stream names hold no NUL: they are built from ids).
    const auto streams = fuzz::split_input(data + 16, size - 16, 2);
    const std::string one(streams[0]), other(streams[1]);
    if (one.find('\0') != std::string::npos || other.find('\0') != std::string::npos) return 0;
    VOUCH_FUZZ_CHECK((store::keys::stream_index(one, a) < store::keys::stream_index(one, b)) ==
                     (a < b));
    VOUCH_FUZZ_CHECK(
        store::keys::stream_index(one, a).starts_with(store::keys::stream_index_prefix(one)));
    if (one != other) {
      VOUCH_FUZZ_CHECK(
          !store::keys::stream_index(one, a).starts_with(store::keys::stream_index_prefix(other)));
    }
  }
  return 0;
}
