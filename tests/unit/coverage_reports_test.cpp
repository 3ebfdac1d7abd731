#include "store/coverage_reports.hpp"

#include <gtest/gtest.h>

#include "temp_folder.hpp"
#include "test_files.hpp"

namespace vouch::store {
namespace {

namespace fs = std::filesystem;
using testing::TempFolder;
using testing::write_file;

constexpr std::chrono::milliseconds kDay{24LL * 60 * 60 * 1000};

// A report as run.js leaves it.
fs::path report(const fs::path& root, const std::string& name, const std::string& lcov) {
  const auto folder = root / name;
  write_file(folder / "lcov.info", lcov);
  write_file(folder / "coverage-final.json", "{}");
  write_file(folder / "lcov-report" / "base.css", "body{}");
  write_file(folder / "lcov-report" / "src" / "a.js.html", "<html>" + lcov + "</html>");
  return folder;
}

std::size_t blob_count(const fs::path& reports) {
  std::size_t count = 0;
  for (const auto& entry : fs::directory_iterator(reports / "blobs")) {
    (void)entry;
    ++count;
  }
  return count;
}

TEST(CoverageReports, KeepsAReportAndServesItsFilesByPath) {
  TempFolder temp;
  CoverageReports reports(temp.path() / "reports", 30 * kDay);
  auto kept = reports.keep("run_1", report(temp.path(), "work1", "SF:a.js\n"), 1000);
  ASSERT_TRUE(kept.ok()) << kept.error().message;
  EXPECT_TRUE(*kept);
  auto manifest = reports.manifest("run_1");
  ASSERT_TRUE(manifest.ok());
  ASSERT_TRUE(manifest->has_value());
  EXPECT_EQ((*manifest)->created, 1000);
  EXPECT_EQ((*manifest)->files.size(), 4u);
  auto page = reports.file("run_1", "lcov-report/src/a.js.html");
  ASSERT_TRUE(page.ok());
  EXPECT_EQ(page->value(), "<html>SF:a.js\n</html>");
  EXPECT_FALSE(reports.file("run_1", "lcov-report/../lcov.info")->has_value());
  EXPECT_FALSE(reports.manifest("run_2")->has_value());
  EXPECT_FALSE(reports.manifest("../run_1")->has_value());
}

TEST(CoverageReports, IdenticalFilesAreStoredOnce) {
  TempFolder temp;
  CoverageReports reports(temp.path() / "reports", 30 * kDay);
  ASSERT_TRUE(reports.keep("run_1", report(temp.path(), "w1", "one"), 1000).ok());
  ASSERT_TRUE(reports.keep("run_2", report(temp.path(), "w2", "two"), 1000).ok());
  // coverage-final.json and base.css are shared; lcov.info and the page differ.
  EXPECT_EQ(blob_count(temp.path() / "reports"), 6u);
}

TEST(CoverageReports, AMissingFolderIsNoReport) {
  TempFolder temp;
  CoverageReports reports(temp.path() / "reports", 30 * kDay);
  auto kept = reports.keep("run_1", temp.path() / "nothing-here", 1000);
  ASSERT_TRUE(kept.ok());
  EXPECT_FALSE(*kept);
  EXPECT_FALSE(reports.manifest("run_1")->has_value());
}

TEST(CoverageReports, LinksAndSpecialFilesAreRefusedNeverFollowed) {
  TempFolder temp;
  write_file(temp.path() / "secret", "the server's secret");
  CoverageReports reports(temp.path() / "reports", 30 * kDay);

  auto linked_file = report(temp.path(), "w1", "x");
  fs::create_symlink(temp.path() / "secret", linked_file / "lcov-report" / "steal.html");
  auto refused = reports.keep("run_1", linked_file, 1000);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, base::ErrorCode::kInvalid);

  auto linked_folder = report(temp.path(), "w2", "x");
  fs::create_directory_symlink(temp.path(), linked_folder / "lcov-report" / "up");
  EXPECT_FALSE(reports.keep("run_2", linked_folder, 1000).ok());

  fs::create_directory_symlink(report(temp.path(), "w3", "x"), temp.path() / "w3-link");
  EXPECT_FALSE(reports.keep("run_3", temp.path() / "w3-link", 1000).ok());
  for (const char* run : {"run_1", "run_2", "run_3"}) {
    EXPECT_FALSE(reports.manifest(run)->has_value()) << run;
  }
}

TEST(CoverageReports, LimitsAreKept) {
  TempFolder temp;
  CoverageReports few_files(temp.path() / "a", 30 * kDay, {.max_files = 3});
  EXPECT_FALSE(few_files.keep("run_1", report(temp.path(), "w1", "x"), 1000).ok());
  CoverageReports few_bytes(temp.path() / "b", 30 * kDay, {.max_bytes = 20});
  EXPECT_FALSE(few_bytes.keep("run_1", report(temp.path(), "w2", std::string(100, 'x')), 1).ok());
  CoverageReports shallow(temp.path() / "c", 30 * kDay, {.max_depth = 1});
  EXPECT_FALSE(shallow.keep("run_1", report(temp.path(), "w3", "x"), 1000).ok());
  EXPECT_FALSE(few_files.keep("../escape", report(temp.path(), "w4", "x"), 1000).ok());
}

// A report that comes back from a worker is files by path, not a folder:
// its paths and size are checked as a folder's would be.
TEST(CoverageReports, FilesFromAWorkerAreCheckedBeforeTheyAreKept) {
  TempFolder temp;
  CoverageReports reports(temp.path() / "reports", 30 * kDay, {.max_files = 2, .max_bytes = 20});
  for (const char* path : {"../lcov.info", "/etc/passwd", "a//b", "a\\b"}) {
    EXPECT_FALSE(reports.keep_files("run_1", {{path, "x"}}, 1000).ok()) << path;
  }
  EXPECT_FALSE(reports.keep_files("run_1", {{"a", "1"}, {"b", "2"}, {"c", "3"}}, 1000).ok());
  EXPECT_FALSE(reports.keep_files("run_1", {{"lcov.info", std::string(21, 'x')}}, 1000).ok());
  EXPECT_FALSE(reports.keep_files("../run", {{"lcov.info", "x"}}, 1000).ok());
  EXPECT_FALSE(reports.manifest("run_1")->has_value());

  auto kept = reports.keep_files("run_1", {{"lcov-report/index.html", "<html>"}}, 1000);
  ASSERT_TRUE(kept.ok());
  EXPECT_TRUE(*kept);
  EXPECT_EQ(*reports.file("run_1", "lcov-report/index.html").value(), "<html>");
  EXPECT_FALSE(*reports.keep_files("run_2", {}, 1000));
}

TEST(CoverageReports, SweepRemovesExpiredReportsAndTheBlobsOnlyTheyUsed) {
  TempFolder temp;
  CoverageReports reports(temp.path() / "reports", kDay);
  ASSERT_TRUE(reports.keep("run_old", report(temp.path(), "w1", "old"), 0).ok());
  ASSERT_TRUE(reports.keep("run_new", report(temp.path(), "w2", "new"), kDay.count()).ok());
  EXPECT_EQ(blob_count(temp.path() / "reports"), 6u);
  auto removed = reports.sweep(kDay.count() + 1);
  ASSERT_TRUE(removed.ok());
  EXPECT_EQ(*removed, 1u);
  EXPECT_FALSE(reports.manifest("run_old")->has_value());
  ASSERT_TRUE(reports.manifest("run_new")->has_value());
  EXPECT_EQ(blob_count(temp.path() / "reports"), 4u);  // the shared ones stay
  EXPECT_EQ(reports.file("run_new", "lcov.info")->value(), "new");
}

}  // namespace
}  // namespace vouch::store
