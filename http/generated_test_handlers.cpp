#include "http/generated_test_handlers.hpp"

#include <algorithm>
#include <boost/json/array.hpp>
#include <regex>
#include <set>

#include "base/clock.hpp"
#include "base/ids.hpp"
#include "events/access.hpp"
#include "events/dependency_spec.hpp"
#include "events/source_file.hpp"
#include "http/environment_fields.hpp"
#include "http/generated_test_json.hpp"
#include "http/import_handlers.hpp"
#include "http/json_body.hpp"
#include "http/prefer.hpp"
#include "http/query.hpp"
#include "http/reply.hpp"

namespace vouch::http {
namespace {

struct Reads {
  const store::ProjectsView& projects;
  const store::TestsView& tests;
  const store::RunsView& runs;
};

std::string indexed(std::string_view field, std::size_t index, std::string_view member = {}) {
  std::string path(field);
  path += "[" + std::to_string(index) + "]";
  if (!member.empty()) path += "." + std::string(member);
  return path;
}

// files: a non-empty array of {path, content}, paths safe and distinct, at
// least one JavaScript or TypeScript source.
std::vector<events::SourceFile> read_files(JsonBody& body) {
  std::vector<events::SourceFile> files;
  const auto count = body.array_size("files");
  if (!count) return files;
  if (*count == 0) {
    body.reject("files", "must hold at least one file");
    return files;
  }
  if (*count > events::kMaxUploadFiles) {
    body.reject("files", "must hold at most " + std::to_string(events::kMaxUploadFiles) + " files");
    return files;
  }
  std::set<std::string> seen;
  bool any_javascript = false;
  for (std::size_t i = 0; i < *count; ++i) {
    const auto path_field = indexed("files", i, "path");
    const auto content_field = indexed("files", i, "content");
    body.require(path_field);
    body.require(content_field);
    auto path = body.string(path_field);
    auto content = body.string(content_field);
    if (!path || !content) continue;
    if (auto problem = events::invalid_upload_path(*path)) {
      body.reject(path_field, *problem);
      continue;
    }
    if (!seen.insert(*path).second) {
      body.reject(path_field, "names the same file as an earlier entry: " + *path);
      continue;
    }
    any_javascript = any_javascript || events::is_javascript_path(*path);
    files.push_back({std::move(*path), std::move(*content)});
  }
  if (!files.empty() && !any_javascript && body.errors().empty()) {
    body.reject("files",
                "holds no JavaScript or TypeScript source (.js, .cjs, .mjs, .jsx, .ts, .tsx, .mts "
                "or .cts)");
  }
  return files;
}

void generate(actors::Service& service, const Reads& reads, const Request& request,
              const Context& context, Respond respond) {
  auto body = JsonBody::parse(request.body, {"projectId"});
  if (!body) return respond(error_response(body.error(), context.request_id));
  auto project_id = body->string("projectId");
  // Without files, generation takes them from the project's imported snapshot.
  const bool uploaded = body->has("files");
  auto snapshot_id = body->string("snapshotId");
  auto prefixes = body->strings("paths").value_or(std::vector<std::string>{});
  if (uploaded && (snapshot_id || !prefixes.empty())) {
    body->reject(snapshot_id ? "snapshotId" : "paths", "applies to a snapshot, not to files");
  }
  auto files = uploaded ? read_files(*body) : std::vector<events::SourceFile>{};
  auto framework = body->string("config.framework");
  auto threshold = body->number("config.coverage.threshold");
  if (framework) {
    const auto& supported = events::supported_frameworks();
    if (std::find(supported.begin(), supported.end(), *framework) == supported.end()) {
      std::string names;
      for (const auto& name : supported) names += (names.empty() ? "" : ", ") + name;
      body->reject("config.framework", "must be one of: " + names);
    }
  }
  if (threshold && (*threshold < 0 || *threshold > events::kMaxThreshold)) {
    body->reject("config.coverage.threshold",
                 "must be from 0 to " + std::to_string(events::kMaxThreshold));
  }
  const auto& runner = service.runner();
  auto environment = read_environment(*body, runner);
  if (!body->errors().empty()) return respond(error_response(body->error(), context.request_id));

  auto project = reads.projects.get(context.caller.account, *project_id);
  if (!project) return respond(error_response(project.error(), context.request_id));
  if (!uploaded) {
    auto imported = snapshot_sources(service, reads.projects, *project_id, snapshot_id, prefixes);
    if (!imported) return respond(error_response(imported.error(), context.request_id));
    files = std::move(imported).value();
  }
  if (!environment.dependencies) environment.dependencies = package_json_dependencies(files);
  actors::GenerateTests command;
  command.test_id = base::new_id(base::kTestIdPrefix);
  command.account = context.caller.account;
  command.project_id = *project_id;
  command.framework = framework.value_or(project->framework);
  command.threshold = threshold.value_or(project->threshold);
  command.files = std::move(files);
  command.environment.node_version = environment.node_major.value_or(runner.default_node_major);
  if (environment.dependencies) command.environment.dependencies = *environment.dependencies;
  command.at = base::now_millis();
  if (prefers_respond_async(request.prefer)) {
    // RFC 7240: 202 with the test as it starts; GET Location shows its
    // progress, then its files or the error.
    return service.generate_tests_async(
        std::move(command), [respond = std::move(respond), request_id = context.request_id](
                                base::Result<events::GeneratedTest> accepted) {
          if (!accepted) return respond(error_response(accepted.error(), request_id));
          Response response = json_response(202, to_json(*accepted));
          response.set_header("Location", "/v1/tests/" + accepted->id);
          response.set_header("Preference-Applied", "respond-async");
          respond(std::move(response));
        });
  }
  service.generate_tests(
      std::move(command),
      answer_with<events::GeneratedTest>(
          std::move(respond), context.request_id, 201,
          [](const events::GeneratedTest& test) { return to_json(test); }, "/v1/tests"));
}

void read_test(actors::Service& service, const Reads& reads, const Request&, const Context& context,
               Respond respond) {
  const auto& id = context.params.at("id");
  auto test = reads.tests.get(context.caller.account, id);
  if (!test) return respond(error_response(test.error(), context.request_id));
  if (test->status != events::kTestGenerating) return respond(json_response(200, to_json(*test)));
  // Its progress is in the generation coordinator's memory only.
  service.generation_progress(
      id, [reads, account = context.caller.account, id, test = std::move(*test),
           respond = std::move(respond)](base::Result<actors::GenerationProgress> progress) {
        // The generation may have ended meanwhile: the record then has its end.
        auto now = reads.tests.get(account, id);
        const auto& current = now ? *now : test;
        respond(json_response(200, to_json(current, progress ? &*progress : nullptr)));
      });
}

void list_tests(const Reads& reads, const Request& request, const Context& context,
                Respond respond) {
  auto query = parse_page_query(request.target);
  if (!query) return respond(error_response(query.error(), context.request_id));
  auto project_id = query_param(request.target, "projectId");
  if (!project_id || project_id->empty()) {
    return respond(error_response(
        base::Error::invalid("projectId is required", {{"projectId", "is required"}}),
        context.request_id));
  }
  auto project = reads.projects.get(context.caller.account, *project_id);
  if (!project) return respond(error_response(project.error(), context.request_id));
  auto page =
      reads.tests.list(context.caller.account, *project_id, query->starting_after, query->limit);
  if (!page) return respond(error_response(page.error(), context.request_id));
  respond(page_response("tests", *page, [](const auto& item) { return to_json(item); }));
}

// A run takes the environment its test was generated in, field by field,
// where the body names none of its own.
void start_run(actors::Service& service, const Reads& reads, const Request& request,
               const Context& context, Respond respond) {
  auto body = JsonBody::parse(request.body, {"testId"});
  if (!body) return respond(error_response(body.error(), context.request_id));
  auto test_id = body->string("testId");
  const auto& runner = service.runner();
  auto fields = read_environment(*body, runner);
  if (!body->errors().empty()) return respond(error_response(body->error(), context.request_id));

  auto test = reads.tests.get(context.caller.account, *test_id);
  if (!test) return respond(error_response(test.error(), context.request_id));
  // An asynchronous generation that has not ended, or ended without tests.
  if (test->status == events::kTestGenerating || test->error) {
    return respond(error_response(
        base::Error::conflict("test " + *test_id +
                              (test->error ? " has no tests: its generation failed ("
                                           : " is still being generated (") +
                              (test->error ? test->error->code : "see its progress") + ")"),
        context.request_id));
  }
  const auto& generated_in = test->environment;
  events::RunEnvironment environment;
  // The test's Node.js major, unless it is no longer installed.
  environment.node_version = runner.node_versions.count(generated_in.node_version)
                                 ? generated_in.node_version
                                 : runner.default_node_major;
  if (fields.node_major) environment.node_version = std::move(*fields.node_major);
  environment.dependencies =
      fields.dependencies ? std::move(*fields.dependencies) : generated_in.dependencies;
  actors::StartRun command{base::new_id(base::kRunIdPrefix), std::move(*test),
                           std::move(environment), base::now_millis()};
  service.start_run(std::move(command), answer_with<events::TestRun>(
                                            std::move(respond), context.request_id, 202,
                                            [](const events::TestRun& run) { return to_json(run); },
                                            "/v1/tests/results"));
}

// A reader may long-poll a running run with `Prefer: wait=N` (RFC 7240): the
// answer then comes when the run ends or after N seconds (at most
// kMaxRunWait), whichever is first, with `Preference-Applied`.
constexpr std::chrono::seconds kMaxRunWait{25};

// The run as the caller may see it: 200 with the run, or the error. Sets
// `running` when the run has not ended.
Response run_response(const Reads& reads, const std::string& account, const std::string& id,
                      std::string_view request_id, bool* running = nullptr) {
  auto run = reads.runs.get(account, id);
  if (!run) return error_response(run.error(), request_id);
  if (running) *running = run->status != events::kRunCompleted;
  return json_response(200, to_json(*run));
}

void read_run(actors::Service& service, const Reads& reads, const Request& request,
              const Context& context, Respond respond) {
  const auto& id = context.params.at("id");
  bool running = false;
  auto response = run_response(reads, context.caller.account, id, context.request_id, &running);
  const auto wait = preferred_wait(request.prefer);
  if (!running || !wait || wait->count() == 0) return respond(std::move(response));
  const auto granted = std::min(*wait, kMaxRunWait);
  service.await_run_end(
      id, granted,
      [reads, account = context.caller.account, id, granted, request_id = context.request_id,
       respond = std::move(respond)](base::Result<bool>) {
        auto response = run_response(reads, account, id, request_id);
        response.set_header("Preference-Applied", "wait=" + std::to_string(granted.count()));
        respond(std::move(response));
      });
}

}  // namespace

void add_test_routes(Router& router, actors::Service& service, const store::ProjectsView& projects,
                     const store::TestsView& tests, const store::RunsView& runs) {
  const std::string read_scope(events::kScopeTestsRead);
  const std::string write_scope(events::kScopeTestsWrite);
  const Reads reads{projects, tests, runs};
  router.add({"POST", "/v1/tests/generate", write_scope, true,
              bind_handler(generate, std::ref(service), reads)});
  router.add({"POST", "/v1/tests/run", write_scope, true,
              bind_handler(start_run, std::ref(service), reads)});
  router.add({"GET", "/v1/tests", read_scope, false, bind_handler(list_tests, reads)});
  router.add({"GET", "/v1/tests/{id}", read_scope, false,
              bind_handler(read_test, std::ref(service), reads)});
  router.add({"GET", "/v1/tests/results/{id}", read_scope, false,
              bind_handler(read_run, std::ref(service), reads)});
}

}  // namespace vouch::http
