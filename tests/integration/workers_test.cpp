// Scale-out through the real processes: a vouchd with no slots of its own
// (--generators 0 --executors 0) and `vouchd worker` processes that join it
// over CAF's remote actors, with mutual TLS made by the test.
#include <signal.h>
#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

#include "runner_fixture.hpp"

namespace vouch::testing {
namespace {

// A CA, the server's and two workers' certificates signed by it, and a
// worker certificate signed by another CA, made with the openssl CLI.
struct WorkerPki {
  explicit WorkerPki(const std::filesystem::path& folder) : folder(folder) {
    const std::string key = "-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes ";
    std::string script = "cd '" + folder.string() + "'";
    for (const std::string ca : {"ca", "other-ca"}) {
      script += " && openssl req -x509 " + key + "-keyout " + ca + ".key -out " + ca +
                ".pem -days 2 -subj '/CN=" + ca + "'";
    }
    const std::pair<std::string, std::string> signed_by[] = {
        {"server", "ca"}, {"worker-a", "ca"}, {"worker-b", "ca"}, {"rogue", "other-ca"}};
    for (const auto& [name, ca] : signed_by) {
      script += " && openssl req " + key + "-keyout " + name + ".key -out " + name +
                ".csr -subj '/CN=" + name + "' && openssl x509 -req -in " + name + ".csr -CA " +
                ca + ".pem -CAkey " + ca + ".key -CAcreateserial -out " + name + ".pem -days 2";
    }
    ok = std::system(("(" + script + ") >/dev/null 2>&1").c_str()) == 0;
  }

  // --workers-ca/cert/key for `name`, trusting `ca`.
  std::vector<std::string> args(const std::string& name, const std::string& ca = "ca") const {
    return {"--workers-ca",   (folder / (ca + ".pem")).string(),
            "--workers-cert", (folder / (name + ".pem")).string(),
            "--workers-key",  (folder / (name + ".key")).string()};
  }

  std::filesystem::path folder;
  bool ok = false;
};

// Tested code that is quick while tests are generated for it and takes a
// few seconds once its generated tests run (their folder exists then), so
// that a run is still executing when the test kills its worker.
const RunnerTest::Files kSlowInRuns = {{"src/slow.js",
                                        "const fs = require('fs');\n"
                                        "if (fs.existsSync(__dirname + '/__tests__')) {\n"
                                        "  const end = Date.now() + 4000;\n"
                                        "  while (Date.now() < end) {}\n"
                                        "}\n"
                                        "exports.double = (n) => n * 2;\n"}};

class WorkersTest : public RunnerTest {
 protected:
  ~WorkersTest() override {
    while (!workers_.empty()) stop_worker(workers_.begin()->first, SIGKILL);
  }

  void start_server(const std::vector<std::string>& tls = {}) {
    std::vector<std::string> args{"--generators",     "0",          "--executors", "0",
                                  "--workers-listen", "127.0.0.1:0"};
    args.insert(args.end(), tls.begin(), tls.end());
    start(args);
    ASSERT_NE(server_->workers_port(), 0) << "vouchd did not print where workers join";
  }

  // Starts `vouchd worker` with one generator and one executor slot; its
  // stderr goes to <name>.log.
  void start_worker(const std::string& name, const std::vector<std::string>& tls = {}) {
    std::vector<std::string> args{
        VOUCHD_PATH,      "worker",
        "--connect",      "127.0.0.1:" + std::to_string(server_->workers_port()),
        "--generators",   "1",
        "--executors",    "1",
        "--warm-runners", "1",
        "--data",         (folder_.path() / name).string(),
        "--name",         name};
    args.insert(args.end(), tls.begin(), tls.end());
    auto child = start_child(std::move(args), "", "worker connecting to ", log_of(name));
    ASSERT_FALSE(child.line.empty()) << "vouchd worker did not start";
    workers_[name] = child.pid;
  }

  void stop_worker(const std::string& name, int signal) {
    auto found = workers_.find(name);
    if (found == workers_.end()) return;
    ::kill(found->second, signal);
    int status = 0;
    waitpid(found->second, &status, 0);
    workers_.erase(found);
  }

  std::filesystem::path log_of(const std::string& name) const {
    return folder_.path() / (name + ".log");
  }

  // Waits until `name` reaches `value` (joins, jobs in flight).
  void wait_for_metric(const std::string& name, long value,
                       std::chrono::seconds limit = std::chrono::seconds(60)) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (metric(name) < value && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ASSERT_GE(metric(name), value) << name;
  }

  // Waits until the worker's log holds `text`.
  bool wait_for_log(const std::string& name, const std::string& text,
                    std::chrono::seconds limit = std::chrono::seconds(30)) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < deadline) {
      std::ifstream in(log_of(name));
      std::stringstream content;
      content << in.rdbuf();
      if (content.str().find(text) != std::string::npos) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return false;
  }

  // A server without TLS, worker-a (joined first, so a lone run goes to it)
  // and worker-b; returns a generated test of kSlowInRuns.
  std::string two_workers_and_a_slow_test() {
    start_server();
    start_worker("worker-a");
    wait_for_metric("vouch_workers_remote", 1);
    auto test = generated(create_project(0), kSlowInRuns);
    start_worker("worker-b");
    wait_for_metric("vouch_workers_remote", 2);
    return test;
  }

  std::string start_run_of(const std::string& test) {
    auto response = start_run(test);
    EXPECT_EQ(response.status, 202u) << response.body;
    return std::string(json(response)["runId"].as_string());
  }

  std::map<std::string, pid_t> workers_;
};

TEST_F(WorkersTest, TlsWorkersGenerateAndRunAndARunOutlivesTheLossOfItsWorker) {
  WorkerPki pki(folder_.path());
  ASSERT_TRUE(pki.ok) << "openssl could not make the test certificates";
  start_server(pki.args("server"));
  EXPECT_EQ(call("GET", "/readyz", "").status, 503u);  // no slot anywhere yet
  start_worker("worker-a", pki.args("worker-a"));
  start_worker("worker-b", pki.args("worker-b"));
  wait_for_metric("vouch_workers_remote", 2);
  EXPECT_EQ(metric("vouch_worker_executor_slots"), 2);
  EXPECT_EQ(call("GET", "/readyz", "").status, 200u);

  const auto project = create_project(0);
  const auto test = generated(project, kSlowInRuns);
  // One run on each worker; worker-a dies while both execute.
  const auto first = start_run_of(test);
  const auto second = start_run_of(test);
  wait_for_metric("vouch_worker_runs_in_flight", 2);
  stop_worker("worker-a", SIGKILL);

  for (const auto& run : {first, second}) {
    auto ended = wait_for_run(run, std::chrono::seconds(60));
    ASSERT_EQ(ended["outcome"], "success") << boost::json::serialize(ended);
    EXPECT_EQ(ended["results"].at("passed"), ended["results"].at("total"));
  }
  EXPECT_EQ(metric("vouch_worker_jobs_retried_total"), 1);
  EXPECT_EQ(metric("vouch_workers_lost_total"), 1);
  EXPECT_EQ(metric("vouch_workers_remote"), 1);
  // The retried run's coverage report came back from worker-b.
  EXPECT_EQ(call("GET", "/v1/tests/results/" + first + "/coverage/lcov.info").status, 200u);
}

TEST_F(WorkersTest, ARunLostWithEveryWorkerEndsAsWorkerLost) {
  const auto test = two_workers_and_a_slow_test();

  const auto run = start_run_of(test);
  wait_for_metric("vouch_worker_runs_in_flight", 1);
  // The run goes to the other worker when its first is lost, and ends when
  // that one is lost too.
  stop_worker("worker-a", SIGKILL);
  stop_worker("worker-b", SIGKILL);
  auto ended = wait_for_run(run, std::chrono::seconds(30));
  EXPECT_EQ(ended["outcome"], "error") << boost::json::serialize(ended);
  EXPECT_EQ(ended["error"].at("code"), "worker_lost") << boost::json::serialize(ended);
  EXPECT_EQ(metric("vouch_workers_remote"), 0);
  EXPECT_EQ(call("GET", "/readyz", "").status, 503u);
}

// A worker that stops answering without closing its connection (a network
// gone quiet; here SIGSTOP) is lost after the heartbeat timeout, and its run
// completes on the other worker.
TEST_F(WorkersTest, ASilentWorkerIsLostAndItsRunGoesElsewhere) {
  const auto test = two_workers_and_a_slow_test();

  const auto run = start_run_of(test);  // to worker-a: both have a free slot, it joined first
  wait_for_metric("vouch_worker_runs_in_flight", 1);
  ::kill(workers_.at("worker-a"), SIGSTOP);
  auto ended = wait_for_run(run, std::chrono::seconds(60));
  EXPECT_EQ(ended["outcome"], "success") << boost::json::serialize(ended);
  EXPECT_EQ(metric("vouch_workers_lost_total"), 1);
  EXPECT_EQ(metric("vouch_worker_jobs_retried_total"), 1);
  ::kill(workers_.at("worker-a"), SIGCONT);
}

TEST_F(WorkersTest, AWorkerWithACertificateOfAnotherCaIsRefused) {
  WorkerPki pki(folder_.path());
  ASSERT_TRUE(pki.ok) << "openssl could not make the test certificates";
  start_server(pki.args("server"));
  start_worker("rogue", pki.args("rogue", "other-ca"));
  EXPECT_TRUE(wait_for_log("rogue", "cannot reach the server"));
  EXPECT_EQ(metric("vouch_workers_remote"), 0);
  // The same server takes a worker with a certificate of its CA.
  start_worker("worker-a", pki.args("worker-a"));
  wait_for_metric("vouch_workers_remote", 1);
  EXPECT_EQ(metric("vouch_workers_remote"), 1);
}

TEST(WorkersCommandLine, WithoutCertificatesWorkersMustBeOnLoopback) {
  TempFolder folder;
  const auto key_file = (folder.path() / "secrets.key").string();
  auto refused =
      run_vouchd({"serve", "--data", (folder.path() / "d").string(), "--listen", "127.0.0.1:0",
                  "--secrets-key-file", key_file, "--workers-listen", "0.0.0.0:0"});
  EXPECT_EQ(refused.status, 2);
  auto no_slots =
      run_vouchd({"serve", "--data", (folder.path() / "d").string(), "--listen", "127.0.0.1:0",
                  "--secrets-key-file", key_file, "--generators", "0", "--executors", "0"});
  EXPECT_EQ(no_slots.status, 2);
  auto half_tls =
      run_vouchd({"worker", "--connect", "127.0.0.1:1", "--workers-ca", "/nonexistent"});
  EXPECT_EQ(half_tls.status, 2);
}

// An asynchronous generation on a remote worker: the task carries the
// coordinator's handle across machines, and the worker's generator reports
// its phases through it until the generation ends.
TEST_F(WorkersTest, ARemoteWorkersGeneratorReportsTheProgressOfAnAsynchronousGeneration) {
  start_server();
  start_worker("worker-a");
  wait_for_metric("vouch_workers_remote", 1);
  HttpRequest request;
  request.method = "POST";
  request.target = "/v1/tests/generate";
  request.key = VouchdProcess::kAdminKey;
  request.body = R"({"projectId":")" + create_project(0) + R"(","files":)" +
                 files_json({{"src/sign.js", "exports.sign = (n) => (n < 0 ? -1 : 1);\n"}}) + "}";
  request.headers["Prefer"] = "respond-async";
  auto accepted = send(server_->port(), request);
  ASSERT_EQ(accepted.status, 202u) << accepted.body;
  const std::string id(json(accepted)["testId"].as_string());
  std::set<std::string> phases;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  boost::json::object test;
  for (;;) {
    test = json(call("GET", "/v1/tests/" + id));
    if (test["status"] != "generating") break;
    phases.insert(std::string(test["progress"].at("phase").as_string()));
    ASSERT_LT(std::chrono::steady_clock::now(), deadline) << "still generating";
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_EQ(test["status"], "pending") << boost::json::serialize(test);
  // Phases only the worker's generator knows came back to the server.
  EXPECT_TRUE(phases.count("starting") || phases.count("analysing") || phases.count("loading") ||
              phases.count("searching") || phases.count("verifying"))
      << phases.size() << " phases seen";
}

}  // namespace
}  // namespace vouch::testing
