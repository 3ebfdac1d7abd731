#pragma once

#include <archive.h>
#include <archive_entry.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace vouch::testing {

// One entry of a test archive.
struct TarEntry {
  std::string path;
  std::string content{};  // for a file
  enum Kind { kFile, kFolder, kSymlink, kHardlink, kFifo } kind = kFile;
  std::string target{};  // for links
};

// A tar archive of `entries`, gzip-compressed unless `gzip` is false, built
// with libarchive (the reader's own library, used the other way round).
inline std::string make_tar(const std::vector<TarEntry>& entries, bool gzip = true) {
  std::vector<char> buffer(64u << 20);
  std::size_t used = 0;
  archive* writer = archive_write_new();
  if (gzip) archive_write_add_filter_gzip(writer);
  archive_write_set_format_pax_restricted(writer);
  archive_write_set_bytes_in_last_block(writer, 1);
  if (archive_write_open_memory(writer, buffer.data(), buffer.size(), &used) != ARCHIVE_OK) {
    throw std::runtime_error("cannot open the archive writer");
  }
  for (const auto& item : entries) {
    archive_entry* entry = archive_entry_new();
    archive_entry_set_pathname(entry, item.path.c_str());
    archive_entry_set_perm(entry, 0644);
    switch (item.kind) {
      case TarEntry::kFile:
        archive_entry_set_filetype(entry, AE_IFREG);
        archive_entry_set_size(entry, static_cast<la_int64_t>(item.content.size()));
        break;
      case TarEntry::kFolder:
        archive_entry_set_filetype(entry, AE_IFDIR);
        break;
      case TarEntry::kSymlink:
        archive_entry_set_filetype(entry, AE_IFLNK);
        archive_entry_set_symlink(entry, item.target.c_str());
        break;
      case TarEntry::kHardlink:
        archive_entry_set_filetype(entry, AE_IFREG);
        archive_entry_set_hardlink(entry, item.target.c_str());
        break;
      case TarEntry::kFifo:
        archive_entry_set_filetype(entry, AE_IFIFO);
        break;
    }
    archive_write_header(writer, entry);
    if (item.kind == TarEntry::kFile && !item.content.empty()) {
      archive_write_data(writer, item.content.data(), item.content.size());
    }
    archive_entry_free(entry);
  }
  archive_write_close(writer);
  archive_write_free(writer);
  return std::string(buffer.data(), used);
}

}  // namespace vouch::testing
