#include "store/read_models.hpp"

#include <rocksdb/db.h>

namespace vouch::store {
namespace {

std::string printable(std::string_view bytes) {
  std::string out;
  for (unsigned char c : bytes) {
    if (c >= 0x20 && c < 0x7f) {
      out.push_back(static_cast<char>(c));
    } else {
      static constexpr char kDigits[] = "0123456789abcdef";
      out += "\\x";
      out.push_back(kDigits[c >> 4]);
      out.push_back(kDigits[c & 0x0f]);
    }
  }
  return out;
}

}  // namespace

ReadModels::ReadModels(Database& database, const ReadMemoBudget& memo)
    : projects_(database, memo.records),
      access_(database, memo.grants),
      tests_(database, memo.records),
      runs_(database, memo.records),
      webhooks_(database, memo.records),
      deliveries_(database),
      events_(database),
      idempotency_(database),
      projector_(database, {&projects_, &access_, &tests_, &runs_, &webhooks_, &deliveries_,
                            &events_, &idempotency_}) {}

std::size_t ReadModels::memo_bytes() const {
  return projects_.memo_bytes() + access_.memo_bytes() + tests_.memo_bytes() + runs_.memo_bytes() +
         webhooks_.memo_bytes();
}

base::Result<std::vector<std::string>> verify_read_models(Database& database, const EventLog& log,
                                                          const std::filesystem::path& scratch) {
  std::error_code ec;
  std::filesystem::remove_all(scratch, ec);
  std::vector<std::string> differences;
  {
    auto rebuilt = Database::open(scratch);
    if (!rebuilt) return std::move(rebuilt).error();
    ReadModels models(**rebuilt);
    if (auto status = models.projector().catch_up(log); !status) return std::move(status).error();

    std::unique_ptr<rocksdb::Iterator> stored(
        database.db().NewIterator(rocksdb::ReadOptions(), database.views()));
    std::unique_ptr<rocksdb::Iterator> fresh(
        (*rebuilt)->db().NewIterator(rocksdb::ReadOptions(), (*rebuilt)->views()));
    stored->SeekToFirst();
    fresh->SeekToFirst();
    while (stored->Valid() || fresh->Valid()) {
      const int order = !stored->Valid()  ? 1
                        : !fresh->Valid() ? -1
                                          : stored->key().compare(fresh->key());
      if (order < 0) {
        differences.push_back("only stored: " + printable(stored->key().ToStringView()));
        stored->Next();
      } else if (order > 0) {
        differences.push_back("only rebuilt: " + printable(fresh->key().ToStringView()));
        fresh->Next();
      } else {
        if (stored->value() != fresh->value()) {
          differences.push_back("differs: " + printable(stored->key().ToStringView()) +
                                " stored=" + printable(stored->value().ToStringView()) +
                                " rebuilt=" + printable(fresh->value().ToStringView()));
        }
        stored->Next();
        fresh->Next();
      }
    }
  }
  std::filesystem::remove_all(scratch, ec);
  return differences;
}

}  // namespace vouch::store
