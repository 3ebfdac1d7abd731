#pragma once

#include <rocksdb/iterator.h>
#include <rocksdb/options.h>
#include <rocksdb/sst_file_reader.h>

#include <filesystem>
#include <memory>
#include <string>

#include "test_files.hpp"

namespace vouch::testing {

// Whether any file under `folder` holds `needle`: in its raw bytes, or, for a
// RocksDB table file (whose blocks are compressed, so a grep could miss it),
// in any key or value RocksDB reads from it.
inline bool data_folder_holds(const std::filesystem::path& folder, const std::string& needle) {
  for (const auto& entry : std::filesystem::recursive_directory_iterator(folder)) {
    if (!entry.is_regular_file()) continue;
    if (read_file(entry.path()).find(needle) != std::string::npos) return true;
    if (entry.path().extension() != ".sst") continue;
    rocksdb::SstFileReader reader{rocksdb::Options()};
    if (!reader.Open(entry.path().string()).ok()) return true;  // unreadable: assume the worst
    std::unique_ptr<rocksdb::Iterator> it(reader.NewIterator(rocksdb::ReadOptions()));
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      if (it->key().ToStringView().find(needle) != std::string_view::npos ||
          it->value().ToStringView().find(needle) != std::string_view::npos) {
        return true;
      }
    }
  }
  return false;
}

}  // namespace vouch::testing
