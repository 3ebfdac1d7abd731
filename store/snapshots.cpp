#include "store/snapshots.hpp"

#include <boost/json/array.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <map>

#include "base/digest.hpp"

namespace vouch::store {
namespace {

namespace fs = std::filesystem;

bool usable_snapshot_id(const std::string& id) {
  return id.size() == 28 && id.starts_with("snp_") &&
         id.find_first_not_of("0123456789abcdef", 4) == std::string::npos;
}

}  // namespace

SnapshotStore::SnapshotStore(fs::path root)
    : manifests_(root / "manifests"), blobs_(root / "blobs") {
  std::error_code ec;
  fs::create_directories(manifests_, ec);
}

base::Result<Snapshot> SnapshotStore::put(const std::vector<events::SourceFile>& files) {
  std::map<std::string, const events::SourceFile*> by_path;
  for (const auto& file : files) by_path.emplace(file.path, &file);
  Snapshot snapshot;
  boost::json::array manifest;
  for (const auto& [path, file] : by_path) {
    auto sha = blobs_.put(file->content);
    if (!sha) return std::move(sha).error();
    manifest.push_back(boost::json::array{path, *sha, file->content.size()});
    snapshot.bytes += file->content.size();
    snapshot.files.push_back({path, std::move(sha).value(), file->content.size()});
  }
  const auto text = boost::json::serialize(manifest);
  snapshot.id = "snp_" + base::sha256_hex(text).substr(0, 24);
  const auto target = manifests_ / (snapshot.id + ".json");
  std::error_code ec;
  if (!fs::exists(target, ec)) {
    if (auto status = write_durably(target, text); !status) return std::move(status).error();
  }
  return snapshot;
}

base::Result<std::optional<Snapshot>> SnapshotStore::find(const std::string& id) const {
  if (!usable_snapshot_id(id)) return std::optional<Snapshot>{};
  auto text = read_whole(manifests_ / (id + ".json"));
  if (!text) return std::optional<Snapshot>{};
  boost::system::error_code ec;
  auto value = boost::json::parse(*text, ec);
  if (ec || !value.is_array()) return base::Error::internal("corrupt snapshot manifest " + id);
  Snapshot snapshot{id, {}, 0};
  for (const auto& item : value.get_array()) {
    const auto* entry = item.if_array();
    if (!entry || entry->size() != 3 || !(*entry)[0].is_string() || !(*entry)[1].is_string() ||
        !(*entry)[2].is_number()) {
      return base::Error::internal("corrupt snapshot manifest " + id);
    }
    const auto size = (*entry)[2].to_number<std::uint64_t>();
    snapshot.bytes += size;
    snapshot.files.push_back(
        {std::string((*entry)[0].get_string()), std::string((*entry)[1].get_string()), size});
  }
  return std::optional<Snapshot>{std::move(snapshot)};
}

base::Result<std::vector<events::SourceFile>> SnapshotStore::files(const Snapshot& snapshot) const {
  std::vector<events::SourceFile> out;
  out.reserve(snapshot.files.size());
  for (const auto& entry : snapshot.files) {
    auto content = blobs_.get(entry.sha);
    if (!content) return std::move(content).error();
    if (!*content) {
      return base::Error::internal("snapshot " + snapshot.id + " lost its file " + entry.path);
    }
    out.push_back({entry.path, std::move(**content)});
  }
  return out;
}

}  // namespace vouch::store
