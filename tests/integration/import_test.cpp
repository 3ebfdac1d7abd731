// Project imports through the API: uploaded files, a .tar.gz body and a
// local git repository become content-addressed snapshots; bad archives
// (escaping paths, links, bombs) are refused and nothing is recorded.

#include <cstdlib>
#include <fstream>

#include "../unit/tar_builder.hpp"
#include "api_fixture.hpp"

namespace vouch::testing {
namespace {

class ImportTest : public ApiTest {
 protected:
  HttpResponse import(const std::string& project, const std::string& body,
                      const std::string& content_type = "application/json",
                      const std::string& key = VouchdProcess::kAdminKey) {
    HttpRequest request;
    request.method = "POST";
    request.target = "/v1/projects/" + project + "/import";
    request.key = key;
    request.body = body;
    request.content_type = content_type;
    return send(server_->port(), request);
  }

  std::string project_with(const std::string& repository) {
    auto response = call("POST", "/v1/projects", VouchdProcess::kAdminKey,
                         R"({"name":"imported","repository":")" + repository + R"("})");
    EXPECT_EQ(response.status, 201u) << response.body;
    return std::string(json(response)["id"].as_string());
  }

  static std::string code_of(const HttpResponse& response) {
    return std::string(boost::json::parse(response.body).at("code").as_string());
  }
};

TEST_F(ImportTest, UploadedFilesBecomeAContentAddressedSnapshot) {
  const auto project = project_with("");
  const std::string files = R"({"files":[{"path":"src/a.js","content":"exports.a = 1;\n"},)"
                            R"({"path":"package.json","content":"{\"name\":\"p\"}"}]})";
  auto first = import(project, files);
  ASSERT_EQ(first.status, 201u) << first.body;
  auto snapshot = json(first);
  EXPECT_EQ(snapshot["projectId"], project.c_str());
  EXPECT_EQ(snapshot["source"], "upload");
  EXPECT_EQ(snapshot["files"], 2);
  EXPECT_EQ(snapshot["bytes"], 27);
  EXPECT_EQ(std::string(snapshot["snapshotId"].as_string()).rfind("snp_", 0), 0u);
  auto again = import(project, files);
  ASSERT_EQ(again.status, 201u);
  EXPECT_EQ(json(again)["snapshotId"], snapshot["snapshotId"]);

  EXPECT_EQ(import(project, R"({"files":[{"path":"../x.js","content":""}]})").status, 400u);
  EXPECT_EQ(import(project, R"({})").status, 400u);
  EXPECT_EQ(import(project, "hello", "text/plain").status, 415u);
  EXPECT_EQ(import("prj_000000000000000000000000", files).status, 404u);
  const auto other = issue_key("other", "pro", R"(["projects:write"])");
  EXPECT_EQ(import(project, files, "application/json", other).status, 404u);
}

TEST_F(ImportTest, ATarballIsImportedAndBadArchivesAreRefused) {
  const auto project = project_with("");
  auto imported = import(project,
                         make_tar({{"shop-1.0/", "", TarEntry::kFolder},
                                   {"shop-1.0/index.js", "module.exports = 2;\n"},
                                   {"shop-1.0/lib/util.js", "exports.u = 3;\n"},
                                   {"shop-1.0/node_modules/x/index.js", "ignored"}}),
                         "application/gzip");
  ASSERT_EQ(imported.status, 201u) << imported.body;
  EXPECT_EQ(json(imported)["source"], "archive");
  EXPECT_EQ(json(imported)["files"], 2);

  auto traversal = import(project, make_tar({{"a.js", "1"}, {"../../etc/cron.d/x", "boom"}}),
                          "application/gzip");
  EXPECT_EQ(traversal.status, 400u) << traversal.body;
  auto link =
      import(project, make_tar({{"a.js", "1"}, {"passwd", "", TarEntry::kSymlink, "/etc/passwd"}}),
             "application/gzip");
  EXPECT_EQ(link.status, 400u) << link.body;
  // 40 MiB of zeros: a few dozen kilobytes on the wire, past the 32 MiB limit expanded.
  auto bomb =
      import(project, make_tar({{"zeros.js", std::string(40u << 20, '\0')}}), "application/gzip");
  EXPECT_EQ(bomb.status, 413u) << bomb.body;
  EXPECT_EQ(code_of(bomb), "payload_too_large");
  EXPECT_EQ(import(project, "not gzip at all", "application/gzip").status, 400u);
}

// An upload may be as large as the snapshot it expands to, not just the 1 MiB
// other requests may send; those still get 413 before their body is read.
TEST_F(ImportTest, AnArchiveLargerThanOtherBodiesMayBeUploaded) {
  const auto project = project_with("");
  std::vector<TarEntry> entries;
  std::uint64_t state = 88172645463325252ull;  // xorshift: text gzip cannot shrink much
  for (int file = 0; file < 8; ++file) {
    std::string content;
    for (int i = 0; i < 100000; ++i) {
      state ^= state << 13, state ^= state >> 7, state ^= state << 17;
      content += "0123456789abcdef"[state & 15];
      content += "0123456789abcdef"[(state >> 4) & 15];
      content += "0123456789abcdef"[(state >> 8) & 15];
      content += i % 30 == 29 ? '\n' : ' ';
    }
    entries.push_back({"data/" + std::to_string(file) + ".js", "// " + content});
  }
  const auto archive = make_tar(entries);
  ASSERT_GT(archive.size(), 1u << 20);
  auto imported = import(project, archive, "application/gzip");
  ASSERT_EQ(imported.status, 201u) << imported.body;
  EXPECT_EQ(json(imported)["files"], 8);

  auto too_large = call("POST", "/v1/projects", VouchdProcess::kAdminKey,
                        R"({"name":")" + std::string(2u << 20, 'x') + R"("})");
  EXPECT_EQ(too_large.status, 413u) << too_large.body;
  EXPECT_EQ(code_of(too_large), "payload_too_large");
}

TEST_F(ImportTest, ALocalRepositoryIsClonedAtARefWhereTheServerAllowsFileUrls) {
  const auto repository = folder_.path() / "repo";
  std::filesystem::create_directories(repository / "src");
  std::ofstream(repository / "src" / "math.js") << "exports.twice = (n) => n * 2;\n";
  std::ofstream(repository / "README.md") << "# math\n";
  const auto git =
      "git -C '" + repository.string() + "' -c user.name=t -c user.email=t@example.com ";
  ASSERT_EQ(std::system((git + "init -q -b main && " + git + "add -A && " + git +
                         "commit -q -m first && " + git + "tag v1")
                            .c_str()),
            0);
  std::ofstream(repository / "src" / "extra.js") << "exports.x = 1;\n";
  ASSERT_EQ(std::system((git + "add -A && " + git + "commit -q -m second").c_str()), 0);
  const auto url = "file://" + repository.string();

  // Without the server's permission, file:// is refused.
  const auto refused_project = project_with(url);
  auto refused = import(refused_project, R"({"git":{"ref":"main"}})");
  EXPECT_EQ(refused.status, 400u) << refused.body;

  server_->terminate();
  start({"--import-allow-file-urls"});
  const auto project = project_with(url);
  auto head = import(project, R"({"git":{"ref":"main"}})");
  ASSERT_EQ(head.status, 201u) << head.body;
  auto snapshot = json(head);
  EXPECT_EQ(snapshot["source"], "git");
  EXPECT_EQ(snapshot["files"], 3);
  EXPECT_EQ(snapshot["commit"].as_string().size(), 40u);
  auto tagged = import(project, R"({"git":{"ref":"v1"}})");
  ASSERT_EQ(tagged.status, 201u) << tagged.body;
  EXPECT_EQ(json(tagged)["files"], 2);
  EXPECT_NE(json(tagged)["commit"], snapshot["commit"]);

  EXPECT_EQ(import(project, R"({"git":{"ref":"--upload-pack=touch /tmp/x"}})").status, 400u);
  auto missing = import(project, R"({"git":{"ref":"no-such-branch"}})");
  EXPECT_EQ(missing.status, 400u) << missing.body;
  const auto no_repository = project_with("");
  EXPECT_EQ(import(no_repository, R"({"git":{}})").status, 400u);
}

TEST_F(ImportTest, GenerationWithoutFilesTakesTheImportedSnapshot) {
  const auto project = project_with("");
  const auto other_project = project_with("");
  auto none = call("POST", "/v1/tests/generate", VouchdProcess::kAdminKey,
                   R"({"projectId":")" + project + R"("})");
  EXPECT_EQ(none.status, 400u) << none.body;
  EXPECT_NE(none.body.find("\"files\""), std::string::npos) << none.body;

  auto imported = import(project,
                         make_tar({{"pkg/package.json", R"({"name":"pkg"})"},
                                   {"pkg/lib/abs.js", "exports.abs = (n) => (n < 0 ? -n : n);\n"},
                                   {"pkg/docs/notes.md", "# notes\n"},
                                   {"pkg/tools/other.js", "exports.other = () => 1;\n"}}),
                         "application/gzip");
  ASSERT_EQ(imported.status, 201u) << imported.body;
  const std::string snapshot(json(imported)["snapshotId"].as_string());

  auto generated = call("POST", "/v1/tests/generate", VouchdProcess::kAdminKey,
                        R"({"projectId":")" + project + R"(","paths":["lib/"]})");
  ASSERT_EQ(generated.status, 201u) << generated.body;
  auto test = json(generated);
  bool tests_abs = false, tests_other = false;
  for (const auto& file : test["files"].as_array()) {
    const std::string path(file.at("path").as_string());
    tests_abs = tests_abs || path.rfind("lib/", 0) == 0;
    tests_other = tests_other || path.rfind("tools/", 0) == 0;
  }
  EXPECT_TRUE(tests_abs) << generated.body;
  EXPECT_FALSE(tests_other) << generated.body;

  // A named snapshot must have been imported into the project.
  auto foreign =
      call("POST", "/v1/tests/generate", VouchdProcess::kAdminKey,
           R"({"projectId":")" + other_project + R"(","snapshotId":")" + snapshot + R"("})");
  EXPECT_EQ(foreign.status, 400u) << foreign.body;
  auto named = call("POST", "/v1/tests/generate", VouchdProcess::kAdminKey,
                    R"({"projectId":")" + project + R"(","snapshotId":")" + snapshot +
                        R"(","paths":["nowhere/"]})");
  EXPECT_EQ(named.status, 400u) << named.body;
}

}  // namespace
}  // namespace vouch::testing
