#include "store/snapshot_archive.hpp"

#include <archive.h>
#include <archive_entry.h>

#include <memory>
#include <set>

namespace vouch::store {
namespace {

// Folders a snapshot never takes: a repository's own data and installed packages.
bool in_left_out_folder(std::string_view path) {
  for (std::string_view folder : {".git", "node_modules"}) {
    if (path == folder || path.starts_with(std::string(folder) + "/") ||
        path.find("/" + std::string(folder) + "/") != std::string_view::npos) {
      return true;
    }
  }
  return false;
}

// The single top-level folder every path starts with, or "".
std::string common_top_folder(const std::vector<events::SourceFile>& files) {
  if (files.empty()) return "";
  const auto slash = files.front().path.find('/');
  if (slash == std::string::npos) return "";
  const std::string top = files.front().path.substr(0, slash + 1);
  for (const auto& file : files) {
    if (!file.path.starts_with(top)) return "";
  }
  return top;
}

// Applies what read_snapshot_archive and select_snapshot_files share: the
// top folder removed (archives), left-out folders and oversized files skipped, limits.
base::Result<SnapshotContents> finish(std::vector<events::SourceFile> files,
                                      std::vector<std::string> skipped,
                                      const SnapshotLimits& limits, bool strip_top_folder) {
  const auto top = strip_top_folder ? common_top_folder(files) : std::string();
  SnapshotContents contents;
  contents.skipped = std::move(skipped);
  std::set<std::string> seen;
  for (auto& file : files) {
    std::string path = file.path.substr(top.size());
    if (in_left_out_folder(path)) continue;
    if (file.content.size() > limits.max_file_bytes) {
      contents.skipped.push_back(path + ": larger than " + std::to_string(limits.max_file_bytes) +
                                 " bytes");
      continue;
    }
    if (!seen.insert(path).second) {
      return base::Error::invalid("the archive holds " + path + " twice");
    }
    contents.files.push_back({std::move(path), std::move(file.content)});
  }
  if (contents.files.empty()) return base::Error::invalid("the import holds no file to keep");
  return contents;
}

}  // namespace

base::Result<SnapshotContents> read_snapshot_archive(std::string_view bytes,
                                                     const SnapshotLimits& limits,
                                                     LinkPolicy links) {
  std::unique_ptr<archive, int (*)(archive*)> reader(archive_read_new(), archive_read_free);
  if (!reader) return base::Error::internal("cannot allocate an archive reader");
  archive_read_support_filter_gzip(reader.get());
  archive_read_support_filter_none(reader.get());
  archive_read_support_format_tar(reader.get());
  if (archive_read_open_memory(reader.get(), bytes.data(), bytes.size()) != ARCHIVE_OK) {
    return base::Error::invalid(std::string("not a tar archive (gzip-compressed or not): ") +
                                archive_error_string(reader.get()));
  }
  std::vector<events::SourceFile> files;
  std::vector<std::string> skipped;
  std::uint64_t total = 0;
  std::size_t entries = 0;
  archive_entry* entry = nullptr;
  while (true) {
    const int status = archive_read_next_header(reader.get(), &entry);
    if (status == ARCHIVE_EOF) break;
    if (status < ARCHIVE_WARN) {
      return base::Error::invalid(std::string("the archive is corrupt: ") +
                                  archive_error_string(reader.get()));
    }
    // Folders and links count too: they cost a header each and nothing else bounds them.
    if (++entries > limits.max_entries) {
      return base::Error::too_large("the archive holds more than " +
                                    std::to_string(limits.max_entries) +
                                    " entries (files, folders and links)");
    }
    const char* name = archive_entry_pathname(entry);
    std::string path = name ? name : "";
    while (path.starts_with("./")) path.erase(0, 2);
    const auto type = archive_entry_filetype(entry);
    if (type == AE_IFDIR) continue;
    if (path.empty() && type != AE_IFREG) continue;
    if (auto problem = events::invalid_upload_path(path)) {
      return base::Error::invalid("the archive holds an unsafe path \"" + path + "\": " + *problem);
    }
    const bool link = type == AE_IFLNK || archive_entry_hardlink(entry) != nullptr;
    if (link) {
      if (links == LinkPolicy::kRefuse) {
        return base::Error::invalid("the archive holds a link, " + path +
                                    ", and links are not imported");
      }
      skipped.push_back(path + ": a link");
      continue;
    }
    if (type != AE_IFREG) {
      return base::Error::invalid("the archive holds " + path +
                                  ", which is neither a file nor a folder");
    }
    // Read in bounded chunks whatever the header claims: the expanded size is
    // what counts, and reading stops as soon as it passes a limit.
    std::string content;
    char chunk[64 * 1024];
    while (true) {
      const auto n = archive_read_data(reader.get(), chunk, sizeof chunk);
      if (n < 0) {
        return base::Error::invalid(std::string("the archive is corrupt: ") +
                                    archive_error_string(reader.get()));
      }
      if (n == 0) break;
      total += static_cast<std::uint64_t>(n);
      if (total > limits.max_bytes) {
        return base::Error::too_large("the archive expands to more than " +
                                      std::to_string(limits.max_bytes) + " bytes");
      }
      // Past the per-file limit only the count goes on: the file is skipped.
      if (content.size() <= limits.max_file_bytes)
        content.append(chunk, static_cast<std::size_t>(n));
    }
    files.push_back({std::move(path), std::move(content)});
  }
  return finish(std::move(files), std::move(skipped), limits, true);
}

base::Result<SnapshotContents> select_snapshot_files(std::vector<events::SourceFile> files,
                                                     const SnapshotLimits& limits) {
  if (files.size() > limits.max_entries) {
    return base::Error::too_large("more than " + std::to_string(limits.max_entries) + " files");
  }
  std::uint64_t total = 0;
  for (const auto& file : files) total += file.content.size();
  if (total > limits.max_bytes) {
    return base::Error::too_large("the files hold more than " + std::to_string(limits.max_bytes) +
                                  " bytes");
  }
  return finish(std::move(files), {}, limits, false);
}

}  // namespace vouch::store
