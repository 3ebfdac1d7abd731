#include "store/snapshot_archive.hpp"

#include <gtest/gtest.h>

#include "store/snapshots.hpp"
#include "tar_builder.hpp"
#include "temp_folder.hpp"

namespace vouch::store {
namespace {

using testing::make_tar;
using testing::TarEntry;

std::vector<std::string> paths(const SnapshotContents& contents) {
  std::vector<std::string> out;
  for (const auto& file : contents.files) out.push_back(file.path);
  return out;
}

TEST(SnapshotArchive, ReadsFilesAndDropsTheCommonTopFolder) {
  const auto archive = make_tar({{"package/", "", TarEntry::kFolder},
                                 {"package/package.json", R"({"name":"x"})"},
                                 {"package/lib/index.js", "module.exports = 1;\n"},
                                 {"package/node_modules/dep/index.js", "x"},
                                 {"package/.git/HEAD", "ref"}});
  auto read = read_snapshot_archive(archive, {}, LinkPolicy::kRefuse);
  ASSERT_TRUE(read.ok()) << read.error().message;
  EXPECT_EQ(paths(*read), (std::vector<std::string>{"package.json", "lib/index.js"}));
  EXPECT_EQ(read->files[1].content, "module.exports = 1;\n");
}

TEST(SnapshotArchive, KeepsPathsWithoutACommonTopFolder) {
  auto read = read_snapshot_archive(make_tar({{"a.js", "1"}, {"src/b.js", "2"}}, false), {},
                                    LinkPolicy::kRefuse);
  ASSERT_TRUE(read.ok()) << read.error().message;
  EXPECT_EQ(paths(*read), (std::vector<std::string>{"a.js", "src/b.js"}));
}

TEST(SnapshotArchive, PathsThatEscapeAreRefused) {
  for (const std::string bad : {"../evil.js", "/etc/passwd", "a/../../b.js", "a\\b.js"}) {
    auto read =
        read_snapshot_archive(make_tar({{"ok.js", "1"}, {bad, "x"}}), {}, LinkPolicy::kRefuse);
    ASSERT_FALSE(read.ok()) << bad;
    EXPECT_EQ(read.error().code, base::ErrorCode::kInvalid) << bad;
  }
}

TEST(SnapshotArchive, LinksAreRefusedInUploadsAndSkippedFromRepositories) {
  const auto archive = make_tar({{"a.js", "1"},
                                 {"secret", "", TarEntry::kSymlink, "/etc/shadow"},
                                 {"b.js", "", TarEntry::kHardlink, "a.js"}});
  auto refused = read_snapshot_archive(archive, {}, LinkPolicy::kRefuse);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("link"), std::string::npos);
  auto skipped = read_snapshot_archive(archive, {}, LinkPolicy::kSkip);
  ASSERT_TRUE(skipped.ok()) << skipped.error().message;
  EXPECT_EQ(paths(*skipped), (std::vector<std::string>{"a.js"}));
  EXPECT_EQ(skipped->skipped.size(), 2u);
  auto fifo = read_snapshot_archive(make_tar({{"a.js", "1"}, {"pipe", "", TarEntry::kFifo}}), {},
                                    LinkPolicy::kSkip);
  EXPECT_FALSE(fifo.ok());
}

TEST(SnapshotArchive, ABombIsStoppedAtTheLimitWhileReading) {
  // 20 MiB of zeros compress to a few kilobytes.
  const auto bomb = make_tar({{"zeros.js", std::string(20u << 20, '\0')}});
  EXPECT_LT(bomb.size(), 200u * 1024);
  auto read = read_snapshot_archive(bomb, {.max_bytes = 8u << 20}, LinkPolicy::kRefuse);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.error().code, base::ErrorCode::kTooLarge);

  std::vector<TarEntry> many;
  for (int i = 0; i < 12; ++i) many.push_back({"f" + std::to_string(i) + ".js", "x"});
  auto too_many = read_snapshot_archive(make_tar(many), {.max_entries = 10}, LinkPolicy::kRefuse);
  ASSERT_FALSE(too_many.ok());
  EXPECT_EQ(too_many.error().code, base::ErrorCode::kTooLarge);
}

TEST(SnapshotArchive, FoldersAndSkippedLinksCountAsEntries) {
  // Two files, but eight entries: empty headers compress to almost nothing, so they are bounded
  // too.
  std::vector<TarEntry> entries{{"a.js", "1"}, {"b.js", "2"}};
  for (int i = 0; i < 3; ++i) {
    entries.push_back({"d" + std::to_string(i) + "/", "", TarEntry::kFolder});
    entries.push_back({"l" + std::to_string(i), "", TarEntry::kSymlink, "a.js"});
  }
  auto read = read_snapshot_archive(make_tar(entries), {.max_entries = 7}, LinkPolicy::kSkip);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.error().code, base::ErrorCode::kTooLarge);
  auto within = read_snapshot_archive(make_tar(entries), {.max_entries = 8}, LinkPolicy::kSkip);
  ASSERT_TRUE(within.ok());
  EXPECT_EQ(paths(*within), (std::vector<std::string>{"a.js", "b.js"}));
}

TEST(SnapshotArchive, OversizedFilesAreSkippedAndNamed) {
  auto read = read_snapshot_archive(make_tar({{"a.js", "1"}, {"big.bin", std::string(2000, 'b')}}),
                                    {.max_file_bytes = 1000}, LinkPolicy::kRefuse);
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(paths(*read), (std::vector<std::string>{"a.js"}));
  ASSERT_EQ(read->skipped.size(), 1u);
  EXPECT_EQ(read->skipped[0].rfind("big.bin: ", 0), 0u);
}

TEST(SnapshotArchive, GarbageIsNotAnArchive) {
  auto read = read_snapshot_archive("this is not a tarball", {}, LinkPolicy::kRefuse);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.error().code, base::ErrorCode::kInvalid);
  auto empty =
      read_snapshot_archive(make_tar({{"only/", "", TarEntry::kFolder}}), {}, LinkPolicy::kRefuse);
  EXPECT_FALSE(empty.ok());
}

TEST(SnapshotStore, SnapshotsAreContentAddressed) {
  testing::TempFolder temp;
  SnapshotStore store(temp.path() / "snapshots");
  const std::vector<events::SourceFile> files{{"b.js", "2"}, {"a.js", "1"}};
  auto first = store.put(files);
  ASSERT_TRUE(first.ok()) << first.error().message;
  EXPECT_EQ(first->id.rfind("snp_", 0), 0u);
  EXPECT_EQ(first->id.size(), 28u);
  EXPECT_EQ(first->bytes, 2u);
  auto again = store.put({{"a.js", "1"}, {"b.js", "2"}});
  EXPECT_EQ(again->id, first->id);
  auto other = store.put({{"a.js", "1"}, {"b.js", "3"}});
  EXPECT_NE(other->id, first->id);

  auto found = store.find(first->id);
  ASSERT_TRUE(found.ok() && found->has_value());
  auto read = store.files(**found);
  ASSERT_TRUE(read.ok());
  ASSERT_EQ(read->size(), 2u);
  EXPECT_EQ((*read)[0].path, "a.js");
  EXPECT_EQ((*read)[1].content, "2");
  EXPECT_FALSE(store.find("snp_000000000000000000000000")->has_value());
  EXPECT_FALSE(store.find("../../etc/passwd")->has_value());
}

}  // namespace
}  // namespace vouch::store
