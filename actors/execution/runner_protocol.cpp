#include "actors/execution/runner_protocol.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include "events/json_access.hpp"
#include "process/sandbox/node_heap.hpp"

namespace vouch::actors {
namespace {

namespace ja = events::json_access;

std::optional<boost::json::object> parse_line(const std::string& line) {
  boost::system::error_code ec;
  auto value = boost::json::parse(line, ec);
  if (ec || !value.is_object()) return std::nullopt;
  return std::move(value.get_object());
}

// The last few lines of a process's stderr, for an error's detail.
std::string last_lines(std::string_view text, std::size_t count) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.remove_suffix(1);
  std::size_t start = text.size();
  for (std::size_t found = 0; start > 0 && found < count; --start) {
    if (text[start - 1] == '\n' && ++found == count) break;
  }
  return std::string(text.substr(start));
}

std::string exit_description(const process::ProcessExit& exit) {
  if (exit.signal != 0) return "killed by signal " + std::to_string(exit.signal);
  return "exit code " + std::to_string(exit.code);
}

// stderr without the launcher's own report line.
std::string stderr_without_report(const std::string& tail) {
  const auto at = tail.rfind("{\"sandbox\":");
  return at == std::string::npos ? tail : tail.substr(0, at);
}

events::Coverage coverage_of(const boost::json::object& results) {
  const auto* value = results.if_contains("coverage");
  if (!value) throw ja::CorruptRecord{"results without coverage"};
  const auto& coverage = ja::as_object(*value, "coverage");
  return {ja::number_at(coverage, "statements"), ja::number_at(coverage, "branches"),
          ja::number_at(coverage, "functions"), ja::number_at(coverage, "lines")};
}

void read_results(const boost::json::object& object, events::RunReport& report) {
  const auto* value = object.if_contains("results");
  if (!value || value->is_null()) return;
  const auto& results = ja::as_object(*value, "results");
  report.results = events::RunResults{ja::int_at(results, "total"), ja::int_at(results, "passed"),
                                      ja::int_at(results, "failed"), coverage_of(results)};
  if (const auto* tests = results.if_contains("tests"); tests && tests->is_array()) {
    for (const auto& test : tests->get_array()) {
      const auto& entry = ja::as_object(test, "test");
      if (ja::string_at(entry, "status") == "failed") {
        // "name: why" on one line, enough to tell failures apart.
        auto failure = ja::string_at(entry, "name");
        if (auto message = ja::optional_string_at(entry, "message"); message && !message->empty()) {
          std::string why;
          for (const char c : *message) {
            const char shown = (c == '\n' || c == '\r' || c == '\t') ? ' ' : c;
            if (shown == ' ' && (why.empty() || why.back() == ' ')) continue;
            why.push_back(shown);
          }
          if (why.size() > 400) why = why.substr(0, 400) + "...";
          failure += ": " + why;
        }
        report.failures.push_back(std::move(failure));
      }
    }
  }
}

}  // namespace

process::ProcessSpec sandboxed_runner(const RunnerSettings& settings, const SandboxLimits& limits,
                                      const std::filesystem::path& workdir,
                                      const std::filesystem::path& node, std::string_view script,
                                      const std::vector<std::string>& script_args,
                                      const std::vector<std::filesystem::path>& readable) {
  process::ProcessSpec spec;
  spec.program = settings.sandbox;
  spec.cwd = workdir;
  spec.args = {workdir.string(),
               "--isolation",
               settings.isolation,
               "--cpu-seconds",
               std::to_string(limits.cpu_seconds),
               "--memory-mb",
               std::to_string(limits.memory_mb),
               "--max-procs",
               std::to_string(limits.max_procs),
               "--max-file-mb",
               std::to_string(limits.max_file_mb),
               "--wall-ms",
               std::to_string(limits.wall_ms)};
  for (const auto& hidden : settings.hidden) {
    spec.args.insert(spec.args.end(), {"--hide", hidden.string()});
  }
  // What the command itself needs, visible even when a hidden folder or the
  // sandbox's private /tmp covers it (a checkout under /tmp, say): the
  // runner's scripts and node_modules, and the Node.js binary's folder.
  for (const auto& folder : {settings.runner_dir, node.parent_path()}) {
    spec.args.insert(spec.args.end(), {"--ro", folder.string()});
  }
  for (const auto& folder : readable) spec.args.insert(spec.args.end(), {"--ro", folder.string()});
  spec.args.insert(spec.args.end(),
                   {"--", node.string(), (settings.runner_dir / "bin" / script).string()});
  spec.args.insert(spec.args.end(), script_args.begin(), script_args.end());
  const char* path = std::getenv("PATH");
  spec.env = {std::string("PATH=") + (path ? path : "/usr/local/bin:/usr/bin:/bin")};
  return spec;
}

std::string generation_job_line(const GenerationJob& job) {
  boost::json::object object{{"files", events::files_to_json(job.files)},
                             {"framework", job.framework},
                             {"threshold", job.threshold},
                             {"timeBudgetMs", job.budget.count()}};
  if (job.base_budget.count() > 0) object["baseBudgetMs"] = job.base_budget.count();
  if (job.node_path) object["nodePath"] = job.node_path->string();
  if (job.wall_limit.count() > 0) object["wallLimitMs"] = job.wall_limit.count();
  if (job.deadline.count() > 0) object["deadlineMs"] = job.deadline.count();
  if (job.run_memory_mb) {
    // What vouch-sandbox gives a run: the data limit, and Node.js's heap below it.
    object["runLimits"] =
        boost::json::object{{"memoryMb", *job.run_memory_mb},
                            {"nodeOptions", sandbox::node_options(*job.run_memory_mb)}};
  }
  return boost::json::serialize(object) + "\n";
}

std::optional<GenerationProgress> read_generation_progress(const std::string& line) {
  // Cheap test first: result lines can be megabytes.
  if (line.rfind("{\"progress\":", 0) != 0 || line.size() > 4096) return std::nullopt;
  auto object = parse_line(line);
  if (!object) return std::nullopt;
  const auto* value = object->if_contains("progress");
  if (!value || !value->is_object()) return std::nullopt;
  const auto& fields = value->get_object();
  const auto count = [&](std::string_view key) -> std::uint32_t {
    const auto* number = fields.if_contains(key);
    if (!number || !number->is_number()) return 0;
    boost::system::error_code ec;
    const auto n = number->to_number<double>(ec);
    return ec || n < 0 || n > 1e9 ? 0 : static_cast<std::uint32_t>(n);
  };
  GenerationProgress progress;
  const auto* phase = fields.if_contains("phase");
  if (!phase || !phase->is_string() || phase->get_string().size() > 32) return std::nullopt;
  progress.phase = std::string(phase->get_string());
  progress.files_done = count("filesDone");
  progress.files_total = count("filesTotal");
  progress.tests_kept = count("testsKept");
  return progress;
}

std::string with_problem(const std::string& summary, std::string_view path, std::string_view code,
                         std::string_view message) {
  auto object = boost::json::parse(summary).as_object();
  auto& problems = object["problems"];
  if (!problems.is_array()) problems = boost::json::array{};
  problems.as_array().push_back(
      boost::json::object{{"path", path}, {"code", code}, {"message", message}});
  return boost::json::serialize(object);
}

base::Result<GenerationOutput> read_generation(const std::optional<std::string>& line,
                                               const process::ProcessExit& exit) {
  if (line) {
    auto object = parse_line(*line);
    if (!object) return base::Error::internal("the generator's answer is not JSON: " + *line);
    if (const auto* error = object->if_contains("error"); error && error->is_string()) {
      return base::Error::internal("the generator failed (" + exit_description(exit) +
                                   "): " + std::string(error->get_string()));
    }
    try {
      const auto* files = object->if_contains("files");
      const auto* summary = object->if_contains("summary");
      if (!files || !summary || !summary->is_object()) {
        throw ja::CorruptRecord{"files or summary missing"};
      }
      GenerationOutput output{events::files_from_json(*files), boost::json::serialize(*summary),
                              std::nullopt};
      if (const auto* sources = object->if_contains("sources")) {
        if (!sources->is_array()) throw ja::CorruptRecord{"sources is not an array"};
        output.sources.emplace();
        for (const auto& path : sources->get_array()) {
          if (!path.is_string()) throw ja::CorruptRecord{"sources holds a non-string"};
          output.sources->emplace_back(path.get_string());
        }
      }
      return output;
    } catch (const ja::CorruptRecord& corrupt) {
      return base::Error::internal("the generator's answer is malformed: " + corrupt.what);
    }
  }
  const auto verdict = sandbox_verdict(exit);
  // The uploaded code runs in the generator's children, each under limits the generator enforces
  // and reports as a problem of its file: a limit that stops the generator itself is its own
  // overrun (a phase past its deadline, a package larger than it planned for), never the package's.
  if (verdict && verdict->code.ends_with("_limit")) {
    return base::Error::internal("the generator overran a limit of its sandbox: " +
                                 verdict->detail + "; no tests were generated");
  }
  // The generator never dies by a signal of its own: the uploaded code it
  // loaded signalled it (its parent, its process group or every process).
  if (verdict && verdict->code == "crashed") {
    return base::Error::invalid("generation ended: " + verdict->detail +
                                " (uploaded code that signals its parent or its process group "
                                "does this); no tests were generated");
  }
  if (!verdict && exit.signal != 0 && !exit.killed) {
    return base::Error::invalid("generation ended: the sandbox was " + exit_description(exit) +
                                ", which uploaded code that signals every process it may "
                                "does; no tests were generated");
  }
  return base::Error::internal("the generator ended without an answer (" + exit_description(exit) +
                               "): " + last_lines(stderr_without_report(exit.stderr_tail), 5));
}

std::string run_job_line(const RunJob& job) {
  boost::json::object object{{"files", events::files_to_json(job.files)}};
  if (job.node_path) object["nodePath"] = job.node_path->string();
  if (job.wall_ms != 0) object["wallMs"] = job.wall_ms;
  return boost::json::serialize(object) + "\n";
}

bool is_ready_line(const std::string& line) {
  auto object = parse_line(line);
  if (!object) return false;
  const auto* ready = object->if_contains("ready");
  return ready && ready->is_bool() && ready->get_bool();
}

std::optional<events::RunError> sandbox_verdict(const process::ProcessExit& exit) {
  const auto at = exit.stderr_tail.rfind("{\"sandbox\":");
  if (at != std::string::npos) {
    auto end = exit.stderr_tail.find('\n', at);
    auto object =
        parse_line(exit.stderr_tail.substr(at, end == std::string::npos ? end : end - at));
    if (object) {
      const auto* report = object->if_contains("sandbox");
      if (report && report->is_object()) {
        const auto& fields = report->get_object();
        const auto text = [&](std::string_view key) -> std::string {
          const auto* value = fields.if_contains(key);
          if (!value) return {};
          if (value->is_string()) return std::string(value->get_string());
          return boost::json::serialize(*value);
        };
        const auto status = text("status");
        if (status == "exited" && text("code") == "0") return std::nullopt;
        if (status == "limit" || status == "error") {
          return events::RunError{text("code"), text("detail")};
        }
        if (status == "signaled") {
          return events::RunError{"crashed",
                                  "the tested code's process was killed by " + text("signal")};
        }
        return events::RunError{"unexpected_exit",
                                "the runner exited with code " + text("code") + ": " +
                                    last_lines(stderr_without_report(exit.stderr_tail), 5)};
      }
    }
  }
  if (exit.code == 0 && exit.signal == 0) return std::nullopt;
  return events::RunError{"sandbox_failed", "the sandbox ended without a report (" +
                                                exit_description(exit) +
                                                "): " + last_lines(exit.stderr_tail, 5)};
}

std::vector<events::TestCase> read_test_cases(const std::string& line) {
  std::vector<events::TestCase> cases;
  auto object = parse_line(line);
  if (!object) return cases;
  const auto* results = object->if_contains("results");
  if (!results || !results->is_object()) return cases;
  const auto* tests = results->get_object().if_contains("tests");
  if (!tests || !tests->is_array()) return cases;
  const auto text = [](const boost::json::object& entry, std::string_view key) {
    const auto* value = entry.if_contains(key);
    if (!value || !value->is_string()) return std::string();
    const auto& string = value->get_string();
    return std::string(string.data(), std::min(string.size(), events::kMaxCaseText));
  };
  for (const auto& value : tests->get_array()) {
    if (cases.size() == events::kMaxTestCases) break;
    if (!value.is_object()) continue;
    const auto& entry = value.get_object();
    events::TestCase test;
    test.name = text(entry, "name");
    if (test.name.empty()) continue;
    test.file = text(entry, "file");
    test.suite = text(entry, "suite");
    const auto status = text(entry, "status");
    test.status = status == events::kCaseFailed   ? events::kCaseFailed
                  : status == events::kCasePassed ? events::kCasePassed
                                                  : events::kCaseSkipped;
    if (const auto* duration = entry.if_contains("durationMs"); duration && duration->is_number()) {
      boost::system::error_code ec;
      const auto ms = duration->to_number<double>(ec);
      if (!ec && ms > 0 && ms < 1e12) test.duration_ms = static_cast<std::int64_t>(ms);
    }
    if (test.status == events::kCaseFailed) {
      test.message = text(entry, "message");
      test.stack = text(entry, "stack");
    }
    cases.push_back(std::move(test));
  }
  return cases;
}

events::RunReport read_run(const std::optional<std::string>& line,
                           const process::ProcessExit& exit) {
  events::RunReport report;
  if (line) {
    auto object = parse_line(*line);
    if (!object) {
      report.error = events::RunError{"run_failed", "the runner's answer is not JSON"};
      return report;
    }
    try {
      read_results(*object, report);
      const auto* ok = object->if_contains("ok");
      if (!ok || !ok->is_bool() || !ok->get_bool()) {
        const auto* error = object->if_contains("error");
        if (error && error->is_object()) {
          report.error = events::RunError{ja::string_at(error->get_object(), "code"),
                                          ja::string_at(error->get_object(), "detail")};
        } else {
          report.error = events::RunError{"run_failed", "the runner failed without a reason"};
        }
      } else if (!report.results) {
        // Found by fuzzing: "ok" without results would end the run as neither.
        report.error = events::RunError{"run_failed", "the runner's answer has no results"};
      }
    } catch (const ja::CorruptRecord& corrupt) {
      report.error =
          events::RunError{"run_failed", "the runner's answer is malformed: " + corrupt.what};
    }
    return report;
  }
  report.error = sandbox_verdict(exit).value_or(events::RunError{
      "unexpected_exit", "the runner ended without a result (" + exit_description(exit) + ")"});
  return report;
}

}  // namespace vouch::actors
