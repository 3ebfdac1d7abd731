// What tested code can reach of the server, through the real vouchd: its
// descriptors (the listening socket, RocksDB's files, other runners' pipes),
// its environment, its processes, the dependency cache. Generation, runs and
// the runners started for runs with dependencies each run hostile code.
#include <fcntl.h>

#include <chrono>
#include <fstream>
#include <optional>
#include <set>
#include <thread>
#include <vector>

#include "runner_fixture.hpp"

namespace vouch::testing {
namespace {

// Lists the code's descriptors above stdio that are sockets or pipes, and
// serves HTTP on every socket among them for two seconds (a thief answering
// the server's clients in its place), then says what it found:
// "fds:3=pipe:[123],4=socket:[456]".
const std::string kListDescriptors = R"(
  const fs = require('fs');
  const net = require('net');
  const links = fs.readdirSync('/proc/self/fd').filter((fd) => Number(fd) > 2).map((fd) => {
    try { return fd + '=' + fs.readlinkSync('/proc/self/fd/' + fd); } catch (e) { return fd + '=?'; }
  });
  const sockets = links.filter((l) => l.includes('socket:')).map((l) => Number(l.split('=')[0]));
  await Promise.all(sockets.map((fd) => new Promise((resolve) => {
    const thief = net.createServer((c) => c.end('HTTP/1.1 200 OK\r\ncontent-length: 6\r\n\r\nstolen'));
    thief.on('error', resolve);
    thief.listen({ fd }, () => setTimeout(() => thief.close(resolve), 2000));
  })));
  return 'fds:' + links.filter((l) => /socket:|pipe:/.test(l)).join(',');
)";

// Tested code that behaves one way while `is-number` cannot be required
// (generation runs without dependencies) and attacks once a run installs it.
std::string triggered(const std::string& body) {
  return "exports.act = async () => {\n"
         "  try { require('is-number'); } catch (e) { return 'dormant'; }\n" +
         body + "\n};\n";
}
const std::string kWithTrigger = R"({"dependencies":{"is-number":"7.0.0"}})";

// "fds:3=pipe:[1],4=socket:[2]" in `text` → {"pipe:[1]", "socket:[2]"}.
std::set<std::string> reported_descriptors(const std::string& text) {
  std::set<std::string> found;
  const auto at = text.find("fds:");
  if (at == std::string::npos) return found;
  std::size_t start = at + 4;
  for (;;) {
    const auto equals = text.find('=', start);
    if (equals == std::string::npos) break;
    const auto end = text.find_first_of(",\"\\", equals);
    found.insert(text.substr(equals + 1, end - equals - 1));
    if (end == std::string::npos || text[end] != ',') break;
    start = end + 1;
  }
  return found;
}

// The sockets and pipes vouchd holds now.
std::set<std::string> server_descriptors(pid_t pid) {
  std::set<std::string> held;
  for (const auto& entry :
       std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/fd")) {
    std::error_code ec;
    const auto link = std::filesystem::read_symlink(entry.path(), ec).string();
    if (link.starts_with("socket:") || link.starts_with("pipe:")) held.insert(link);
  }
  return held;
}

class SandboxBoundaryTest : public RunnerTest {
 protected:
  void SetUp() override { start({"--run-wall-ms", "15000"}); }

  // The run's failure text (the generated test expected 'dormant').
  std::string attack(const std::string& project, const std::string& name, const std::string& body) {
    const auto test = generated(project, {{name + ".js", triggered(body)}});
    auto run = run_to_end(test, kWithTrigger);
    EXPECT_EQ(run["outcome"], "failure") << boost::json::serialize(run);
    return boost::json::serialize(run["failures"]);
  }

  void expect_nothing_of_the_server(const std::string& text) {
    const auto seen = reported_descriptors(text);
    ASSERT_NE(text.find("fds:"), std::string::npos) << text;
    for (const auto& link : seen) {
      EXPECT_FALSE(link.starts_with("socket:")) << "tested code holds a socket: " << text;
    }
    const auto held = server_descriptors(server_->pid());
    for (const auto& link : seen) {
      EXPECT_EQ(held.count(link), 0u) << "tested code holds vouchd's " << link << ": " << text;
    }
  }
};

TEST_F(SandboxBoundaryTest, RunsHoldNoDescriptorOfTheServerAndRequestsStillReachIt) {
  const auto project = create_project(0);
  const auto test = generated(project, {{"fds.js", triggered(kListDescriptors)}});
  // Runners for runs with dependencies are started for the run; the warm
  // ones (no dependencies) are checked by generation's case below and by the
  // runner's own tests.
  auto response = start_run(test, kWithTrigger);
  ASSERT_EQ(response.status, 202u) << response.body;
  const std::string run_id(json(response)["runId"].as_string());
  // While the code looks for sockets to serve on, every request reaches vouchd.
  for (int i = 0; i < 40; ++i) {
    auto health = call("GET", "/v1/projects/" + project);
    ASSERT_EQ(health.status, 200u) << health.body;
    EXPECT_EQ(health.body.find("stolen"), std::string::npos);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  auto run = wait_for_run(run_id);
  EXPECT_EQ(run["outcome"], "failure") << boost::json::serialize(run);
  expect_nothing_of_the_server(boost::json::serialize(run["failures"]));
}

TEST_F(SandboxBoundaryTest, GenerationHoldsNoDescriptorOfTheServer) {
  const auto project = create_project(0);
  // Listed while the generator loads the module; the generated tests then
  // assert the value the listing returned, which holds what it found.
  const std::string module =
      "let listing = 'pending';\n(async () => {" +
      kListDescriptors.substr(0, kListDescriptors.rfind("return")) +
      "  listing = 'fds:' + links.filter((l) => /socket:|pipe:/.test(l)).join(',');\n})();\n"
      "exports.listing = () => listing;\n";
  auto response = generate(project, {{"fds.js", module}});
  ASSERT_EQ(response.status, 201u) << response.body;
  EXPECT_EQ(response.body.find("socket:"), std::string::npos) << response.body;
  const auto held = server_descriptors(server_->pid());
  for (const auto& link : reported_descriptors(response.body)) {
    EXPECT_EQ(held.count(link), 0u) << "generation holds vouchd's " << link;
  }
}

TEST_F(SandboxBoundaryTest, RunsSeeNoSecretProcessOrOtherDependencySetOfTheServer) {
  const auto project = create_project(0);
  // Another dependency set in the cache, installed first.
  const auto other = generated(project, {{"other.js", "exports.f = () => 1;\n"}});
  run_to_end(other, R"({"dependencies":{"is-odd":"3.0.1"}})");

  const auto environment =
      attack(project, "env",
             "  return JSON.stringify(process.env) + require('fs').readdirSync("
             "'/proc').filter((p) => /^[0-9]+$/.test(p)).map((p) => {\n"
             "    try { return require('fs').readFileSync('/proc/' + p + "
             "'/environ', 'utf8') + require('fs').readFileSync('/proc/' + p + "
             "'/cmdline', 'utf8'); } catch (e) { return ''; }\n  }).join('|');");
  EXPECT_EQ(environment.find(VouchdProcess::kAdminKey), std::string::npos) << environment;
  EXPECT_EQ(environment.find("VOUCH_BOOTSTRAP_KEY"), std::string::npos) << environment;
  EXPECT_EQ(environment.find("vouchd"), std::string::npos) << environment;

  // The run's own dependency set is readable; the cache around it is not:
  // neither the other set, nor npm's cache, home and logs.
  const auto cache =
      attack(project, "cache",
             "  const { dirname } = require('path');\n"
             "  const list = (folder) => { try { return require('fs').readdirSync("
             "folder).join(';'); } catch (e) { return e.code; } };\n"
             "  const set = dirname(dirname(dirname(require.resolve('is-number'))));\n"
             "  return 'set:' + list(set) + ' root:' + list(dirname(set)) + ' key:' + "
             "require('path').basename(set);");
  const auto value = [&](const std::string& name) {
    const auto at = cache.find(name + ":");
    if (at == std::string::npos) return std::string("(missing)");
    const auto end = cache.find_first_of(" \\\"", at);
    return cache.substr(at + name.size() + 1, end - at - name.size() - 1);
  };
  EXPECT_EQ(value("set"), "node_modules") << cache;
  EXPECT_EQ(value("root"), value("key")) << cache;
}

TEST_F(SandboxBoundaryTest, DependencySpecsThatNameFilesOrPlacesAreRefused) {
  const auto project = create_project(0);
  const auto test = generated(project, {{"a.js", "exports.f = () => 1;\n"}});
  for (const std::string spec : {".", "..", "evil.tgz", "..tar", "./x", "~/x", "user/repo",
                                 "npm:left-pad@1", "https://example.com/x.tgz"}) {
    auto response = start_run(test, R"({"dependencies":{"left-pad":")" + spec + R"("}})");
    EXPECT_EQ(response.status, 400u) << spec << " → " << response.body;
    EXPECT_NE(response.body.find("environment.dependencies.left-pad"), std::string::npos)
        << response.body;
  }
}

// Every descriptor vouchd holds above stdio is close-on-exec (vouchd was
// started with nothing above stdio): none could cross into a child even
// without the launcher's own closing.
TEST_F(SandboxBoundaryTest, EveryDescriptorOfTheServerIsCloseOnExec) {
  const auto project = create_project(0);
  const auto test = generated(project, {{"a.js", "exports.f = (x) => x + 1;\n"}});
  run_to_end(test);
  const auto proc = "/proc/" + std::to_string(server_->pid());
  // The descriptor's flags from fdinfo; nullopt once it is closed.
  const auto flags_of = [&proc](int fd) -> std::optional<unsigned long> {
    std::ifstream info(proc + "/fdinfo/" + std::to_string(fd));
    std::string line;
    while (std::getline(info, line) && line.rfind("flags:", 0) != 0) {
    }
    if (line.empty()) return std::nullopt;
    return std::stoul(line.substr(6), nullptr, 8);
  };
  std::size_t checked = 0;
  std::vector<int> suspects;
  for (const auto& entry : std::filesystem::directory_iterator(proc + "/fd")) {
    const auto fd = std::stoi(entry.path().filename().string());
    if (fd <= 2) continue;
    const auto flags = flags_of(fd);
    if (!flags) continue;  // closed meanwhile
    if ((*flags & O_CLOEXEC) == 0) suspects.push_back(fd);
    ++checked;
  }
  // A socket caught between its accept and its marking (requests may come
  // meanwhile) is marked a moment later. Look again then.
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  for (const int fd : suspects) {
    const auto flags = flags_of(fd);
    std::error_code ec;
    EXPECT_TRUE(!flags || (*flags & O_CLOEXEC) != 0)
        << "descriptor " << fd << " ("
        << std::filesystem::read_symlink(proc + "/fd/" + std::to_string(fd), ec)
        << ") is inherited by children";
  }
  EXPECT_GT(checked, 5u);
}

// Code that kills the process running it, its parent or every process it
// may signal ends generation with a clear answer, and vouchd serves on.
TEST_F(SandboxBoundaryTest, GenerationWhoseCodeKillsItsParentEndsWithAClearAnswer) {
  const auto project = create_project(0);
  for (const std::string attack :
       {"process.kill(process.ppid, 'SIGKILL');", "process.kill(-1, 'SIGKILL');",
        "process.kill(0, 'SIGKILL');", "process.kill(process.pid, 'SIGSEGV');"}) {
    auto response = generate(project, {{"killer.js", attack + "\nexports.f = () => 1;\n"}});
    // Either generation as a whole is refused, saying why, or the module's
    // problem is named in the summary.
    if (response.status == 201u) {
      auto problems = json(response)["summary"].as_object()["problems"].as_array();
      ASSERT_FALSE(problems.empty()) << attack << " → " << response.body;
    } else {
      EXPECT_EQ(response.status, 400u) << attack << " → " << response.body;
      EXPECT_NE(response.body.find("killed by SIG"), std::string::npos)
          << attack << " → " << response.body;
    }
    EXPECT_EQ(call("GET", "/v1/projects/" + project).status, 200u);
  }
}

}  // namespace
}  // namespace vouch::testing
