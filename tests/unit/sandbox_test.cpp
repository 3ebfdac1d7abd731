// The sandbox launcher's pure parts: its command line, the sandbox command it
// builds, and how it names the way a command ended. The sandbox itself (what
// it lets through, the limits meeting real processes) is exercised end to end
// by runner/test/run/sandbox.test.js and hostile.test.js, which run the built
// vouch-sandbox.

#include <gtest/gtest.h>

#include <algorithm>
#include <boost/json/serialize.hpp>
#include <boost/json/string.hpp>
#include <csignal>
#include <filesystem>
#include <string>

#include "process/sandbox/command.hpp"
#include "process/sandbox/options.hpp"
#include "process/sandbox/outcome.hpp"

namespace vouch::sandbox {
namespace {

const Limits kLimits{3, 384, 64, 1, 2000};

Outcome describe(Ended ended) { return describe_outcome(ended, kLimits); }

// The report and exit code of a limit the launcher recognised.
void expect_limit(const Outcome& outcome, const std::string& code, const std::string& detail,
                  int exit_code) {
  EXPECT_EQ(outcome.report,
            R"({"status":"limit","code":")" + code + R"(","detail":")" + detail + R"("})");
  EXPECT_EQ(outcome.exit_code, exit_code);
}

Ended exited(int code, bool via_bwrap = true) {
  Ended ended;
  ended.code = code;
  ended.via_bwrap = via_bwrap;
  return ended;
}

TEST(SandboxOutcome, ANormalExitPassesItsCodeOn) {
  auto outcome = describe(exited(1));
  EXPECT_EQ(outcome.report, R"json({"status":"exited","code":1})json");
  EXPECT_EQ(outcome.exit_code, 1);
}

TEST(SandboxOutcome, BwrapReportsADeathBySignalAs128PlusN) {
  expect_limit(describe(exited(128 + SIGXCPU)), "cpu_time_limit", "cpu time limit exceeded (3 s)",
               kCpuTimeLimitExit);
  auto segfault = describe(exited(139));
  EXPECT_EQ(segfault.report, R"json({"status":"signaled","signal":"SIGSEGV"})json");
  EXPECT_EQ(segfault.exit_code, 139);
}

TEST(SandboxOutcome, WithoutBwrapTheSignalItselfIsSeenAnd128PlusNIsAPlainExitCode) {
  Ended killed;
  killed.signal = SIGXFSZ;
  expect_limit(describe(killed), "file_size_limit", "file size limit exceeded (1 MB)",
               kFileSizeLimitExit);
  EXPECT_EQ(describe(exited(152, false)).report, R"json({"status":"exited","code":152})json");
}

TEST(SandboxOutcome, TheWallTimerWinsOverTheSignalItSent) {
  auto ended = exited(137);
  ended.wall_expired = true;
  expect_limit(describe(ended), "wall_time_limit", "wall time limit exceeded (2000 ms)",
               kWallTimeLimitExit);
}

TEST(SandboxOutcome, AnAbortIsAMemoryLimitOnlyWhenNodeSaidItRanOutOfMemory) {
  auto oom = exited(134);
  oom.stderr_tail =
      "FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory";
  EXPECT_EQ(describe(oom).exit_code, kMemoryLimitExit);
  auto abort = exited(134);
  abort.stderr_tail = "assertion failed";
  EXPECT_EQ(describe(abort).report, R"json({"status":"signaled","signal":"SIGABRT"})json");
}

TEST(SandboxOutcome, TheLaunchersOwnFailureHasItsCode) {
  auto outcome = sandbox_failed("could not start prlimit: No such file or directory");
  EXPECT_EQ(
      outcome.report,
      R"json({"status":"error","code":"sandbox_failed","detail":"could not start prlimit: No such file or directory"})json");
  EXPECT_EQ(outcome.exit_code, kSandboxFailedExit);
}

// The launcher writes its report without a JSON library; its strings come out
// as Boost.JSON, which the server reads them with, writes them.
TEST(SandboxOutcome, ReportStringsAreQuotedAsBoostJsonQuotesThem) {
  std::string every_ascii;
  for (int c = 0; c < 0x80; ++c) every_ascii += static_cast<char>(c);
  for (const std::string text :
       {std::string{}, every_ascii, std::string("écrit \"là\"\n"), std::string("C:\\tmp\t/x")}) {
    EXPECT_EQ(json_quoted(text), boost::json::serialize(boost::json::string(text))) << text;
  }
  auto outcome = sandbox_failed("bad \"path\"\n\x01");
  EXPECT_EQ(
      outcome.report,
      R"json({"status":"error","code":"sandbox_failed","detail":"bad \"path\"\n\u0001"})json");
}

// The last of a repeated limit counts, as the tests that override one rely on.
TEST(SandboxOptions, ReadsLimitsPathsAndTheCommandInEitherSpelling) {
  const auto workdir = std::filesystem::temp_directory_path().string();
  auto options =
      parse_options({workdir, "--cpu-seconds", "7", "--wall-ms", "5", "--wall-ms=900", "--hide",
                     "/srv/data/", "--ro", "/srv/data/deps/x/../y", "--isolation", "none", "--",
                     "node", "run.js", "--prime-rounds", "0"});
  ASSERT_TRUE(options) << options.error().message;
  EXPECT_FALSE(options->probe);
  EXPECT_EQ(options->limits.cpu_seconds, 7u);
  EXPECT_EQ(options->limits.wall_ms, 900u);
  EXPECT_EQ(options->limits.memory_mb, Limits{}.memory_mb);
  EXPECT_EQ(options->hide, std::vector<std::filesystem::path>{"/srv/data"});
  EXPECT_EQ(options->read_only, std::vector<std::filesystem::path>{"/srv/data/deps/y"});
  EXPECT_EQ(options->isolation, Isolation::kNone);
  EXPECT_EQ(options->uid, default_uid());
  const std::vector<std::string> command{"node", "run.js", "--prime-rounds", "0"};
  EXPECT_EQ(options->command, command);
  EXPECT_TRUE(parse_options({"--probe"})->probe);
}

TEST(SandboxOptions, BadCommandLinesSayWhatIsWrong) {
  const auto workdir = std::filesystem::temp_directory_path().string();
  auto error_of = [](std::vector<std::string> argv) {
    auto options = parse_options(argv);
    return options ? std::string("accepted") : options.error().message;
  };
  EXPECT_EQ(error_of({workdir}), "missing -- COMMAND");
  EXPECT_EQ(error_of({workdir, "--"}), "missing -- COMMAND");
  EXPECT_EQ(error_of({"--", "true"}), "expected exactly one WORKDIR");
  EXPECT_EQ(error_of({workdir, "--cpu-seconds", "0", "--", "true"}),
            "--cpu-seconds must be a positive integer");
  EXPECT_EQ(error_of({workdir, "--memory-mb", "12x", "--", "true"}),
            "--memory-mb must be a positive integer");
  EXPECT_EQ(error_of({workdir, "--hide", "relative", "--", "true"}),
            "not an absolute path: relative");
  EXPECT_EQ(error_of({workdir, "--isolation", "chroot", "--", "true"}),
            "unknown isolation: chroot");
  EXPECT_EQ(error_of({workdir, "--bogus", "--", "true"}), "Unknown option '--bogus'");
  EXPECT_EQ(error_of({"/no/such/folder", "--", "true"}),
            "WORKDIR is not a folder: /no/such/folder");
}

bool contains_run(const std::vector<std::string>& argv, const std::vector<std::string>& run) {
  return std::search(argv.begin(), argv.end(), run.begin(), run.end()) != argv.end();
}

TEST(SandboxCommandLine, BubblewrapAsRootLimitsHidesAndDropsToTheSandboxUid) {
  Options spec;
  spec.workdir = "/srv/data/work/run-1";
  spec.command = {"/usr/bin/node", "run.js"};
  spec.limits = kLimits;
  spec.hide = {"/srv/data"};
  spec.read_only = {"/srv/data/deps/abc/node_modules"};
  spec.uid = 1879048200;
  auto command = sandbox_command(spec, Isolation::kBubblewrap, /*is_root=*/true);
  const auto& argv = command.argv;
  ASSERT_FALSE(argv.empty());
  EXPECT_EQ(argv.front(), "prlimit");
  EXPECT_TRUE(
      contains_run(argv, {"--cpu=3:4", "--data=402653184:402653184", "--fsize=1048576:1048576",
                          "--core=0:0", "--nproc=64:64", "--", "bwrap"}));
  EXPECT_TRUE(contains_run(argv, {"--tmpfs", "/srv/data"}));
  // The dependency set's parents inside the hidden folder are created passable.
  EXPECT_TRUE(contains_run(argv, {"--perms", "0755", "--dir", "/srv/data/deps", "--perms", "0755",
                                  "--dir", "/srv/data/deps/abc"}));
  EXPECT_TRUE(contains_run(
      argv, {"--ro-bind", "/srv/data/deps/abc/node_modules", "/srv/data/deps/abc/node_modules"}));
  EXPECT_TRUE(contains_run(argv, {"--remount-ro", "/srv/data"}));
  EXPECT_TRUE(contains_run(
      argv, {"--bind", "/srv/data/work/run-1", kSandboxWorkdir, "--chdir", kSandboxWorkdir, "--",
             "setpriv", "--reuid=1879048200", "--regid=1879048200", "--clear-groups",
             "--no-new-privs", "--", "/usr/bin/node", "run.js"}));
  EXPECT_EQ(argv.back(), "run.js");
  ASSERT_EQ(command.env.size(), 5u);
  EXPECT_TRUE(command.env[0].starts_with("PATH="));
  EXPECT_EQ(command.env[1], std::string("HOME=") + kSandboxWorkdir);
  // V8's heap below the memory limit of 384 MB (node_heap.hpp): three quarters of it.
  EXPECT_EQ(command.env[4], "NODE_OPTIONS=--max-old-space-size=288");
}

TEST(SandboxCommandLine, WithoutRootNoProcessLimitNoSetprivAndAUserNamespace) {
  Options spec;
  spec.workdir = "/home/me/run";
  spec.command = {"true"};
  spec.limits = kLimits;
  auto command = sandbox_command(spec, Isolation::kUnshare, /*is_root=*/false);
  const std::vector<std::string> expected{"prlimit",
                                          "--cpu=3:4",
                                          "--data=402653184:402653184",
                                          "--fsize=1048576:1048576",
                                          "--core=0:0",
                                          "--",
                                          "unshare",
                                          "--net",
                                          "--",
                                          "true"};
  EXPECT_EQ(command.argv, expected);
  EXPECT_EQ(command.env[1], "HOME=/home/me/run");
  EXPECT_TRUE(contains_run(sandbox_command(spec, Isolation::kBubblewrap, false).argv,
                           {"--unshare-user", "--disable-userns"}));
}

}  // namespace
}  // namespace vouch::sandbox
