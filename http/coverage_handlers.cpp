#include "http/coverage_handlers.hpp"

#include <boost/json/parse.hpp>

#include "base/clock.hpp"
#include "events/access.hpp"
#include "events/test_cases.hpp"
#include "http/junit_report.hpp"
#include "http/reply.hpp"

namespace vouch::http {
namespace {

constexpr std::string_view kHtmlFolder = "lcov-report/";
constexpr std::string_view kLcovFile = "lcov.info";
constexpr std::string_view kIstanbulFile = "coverage-final.json";

struct Reads {
  const store::CoverageReports& reports;
  const store::RunsView& runs;
};

// The caller's run's manifest, or the error answer.
base::Result<store::CoverageManifest> manifest_of(const Reads& reads, const Context& context) {
  const auto& id = context.params.at("id");
  auto run = reads.runs.get(context.caller.account, id);
  if (!run) return std::move(run).error();
  if (run->status != events::kRunCompleted) {
    return base::Error::not_found("run " + id + " is still running; its coverage report " +
                                  "exists once it has completed");
  }
  auto manifest = reads.reports.manifest(id);
  if (!manifest) return std::move(manifest).error();
  if (!*manifest) {
    const auto days = std::chrono::duration_cast<std::chrono::hours>(reads.reports.retention());
    return base::Error::not_found("run " + id +
                                  " has no coverage report: its tests did not run, or the "
                                  "report was removed after " +
                                  std::to_string(days.count() / 24) + " days");
  }
  return std::move(manifest)->value();
}

base::Result<std::string> report_file(const Reads& reads, const std::string& run_id,
                                      const std::string& path) {
  auto content = reads.reports.file(run_id, path);
  if (!content) return std::move(content).error();
  if (!*content) return base::Error::not_found("the coverage report has no " + path);
  return std::move(*content).value();
}

std::string media_type(std::string_view path) {
  const auto dot = path.rfind('.');
  const auto extension = dot == std::string_view::npos ? "" : path.substr(dot + 1);
  if (extension == "html") return "text/html; charset=utf-8";
  if (extension == "css") return "text/css; charset=utf-8";
  if (extension == "js") return "text/javascript; charset=utf-8";
  if (extension == "png") return "image/png";
  if (extension == "json") return "application/json";
  return "text/plain; charset=utf-8";
}

void read_summary(const Reads& reads, const Request&, const Context& context,
                  const Respond& respond) {
  auto manifest = manifest_of(reads, context);
  if (!manifest) return respond(error_response(manifest.error(), context.request_id));
  auto lcov = report_file(reads, manifest->run_id, std::string(kLcovFile));
  if (!lcov) return respond(error_response(lcov.error(), context.request_id));
  auto istanbul_text = report_file(reads, manifest->run_id, std::string(kIstanbulFile));
  if (!istanbul_text) return respond(error_response(istanbul_text.error(), context.request_id));
  // Written by the sandboxed run: parsed, so that only JSON goes out.
  boost::system::error_code ec;
  auto istanbul = boost::json::parse(*istanbul_text, ec);
  if (ec || !istanbul.is_object()) {
    return respond(
        error_response(base::Error::internal("the run's istanbul coverage is not a JSON object"),
                       context.request_id));
  }
  const std::string base = "/v1/tests/results/" + manifest->run_id + "/coverage";
  respond(
      json_response(200, boost::json::object{
                             {"runId", manifest->run_id},
                             {"created", base::format_timestamp(manifest->created)},
                             {"lcov", std::move(lcov).value()},
                             {"istanbul", std::move(istanbul)},
                             {"lcovUrl", base + "/lcov.info"},
                             {"htmlUrl", base + "/html/index.html"},
                             {"junitUrl", "/v1/tests/results/" + manifest->run_id + "/junit.xml"},
                         }));
}

void read_lcov(const Reads& reads, const Request&, const Context& context, const Respond& respond) {
  auto manifest = manifest_of(reads, context);
  if (!manifest) return respond(error_response(manifest.error(), context.request_id));
  auto lcov = report_file(reads, manifest->run_id, std::string(kLcovFile));
  if (!lcov) return respond(error_response(lcov.error(), context.request_id));
  Response response;
  response.content_type = "text/plain; charset=utf-8";
  response.body = std::move(lcov).value();
  respond(std::move(response));
}

// The JUnit report, built from the tests the run reported one by one, which
// its coverage report keeps (and so removes with it).
void read_junit(const Reads& reads, const Request&, const Context& context,
                const Respond& respond) {
  auto manifest = manifest_of(reads, context);
  if (!manifest) return respond(error_response(manifest.error(), context.request_id));
  auto text = reads.reports.file(manifest->run_id, std::string(events::kTestCasesFile));
  if (!text) return respond(error_response(text.error(), context.request_id));
  if (!*text) {
    return respond(error_response(
        base::Error::not_found("run " + manifest->run_id +
                               " has no JUnit report: it ran before vouchd kept its tests "
                               "one by one"),
        context.request_id));
  }
  auto cases = events::decode_test_cases(**text);
  if (!cases) return respond(error_response(cases.error(), context.request_id));
  auto run = reads.runs.get(context.caller.account, manifest->run_id);
  if (!run) return respond(error_response(run.error(), context.request_id));
  Response response;
  response.content_type = "application/xml; charset=utf-8";
  response.body = junit_xml(*run, *cases);
  respond(std::move(response));
}

void read_html(const Reads& reads, const Request&, const Context& context, const Respond& respond) {
  auto manifest = manifest_of(reads, context);
  if (!manifest) return respond(error_response(manifest.error(), context.request_id));
  const auto& path = context.params.at("path");
  auto page = report_file(reads, manifest->run_id, std::string(kHtmlFolder) + path);
  if (!page) return respond(error_response(page.error(), context.request_id));
  Response response;
  response.content_type = media_type(path);
  response.body = std::move(page).value();
  // The pages were written inside the run's sandbox: they run in a sandboxed
  // document of their own origin, and nothing is sniffed into another type.
  response.set_header("Content-Security-Policy",
                      "sandbox allow-scripts; default-src 'self' 'unsafe-inline'; "
                      "img-src 'self' data:");
  response.set_header("X-Content-Type-Options", "nosniff");
  respond(std::move(response));
}

}  // namespace

void add_coverage_routes(Router& router, const store::CoverageReports& reports,
                         const store::RunsView& runs) {
  const std::string scope(events::kScopeTestsRead);
  const Reads reads{reports, runs};
  router.add(
      {"GET", "/v1/tests/results/{id}/coverage", scope, false, bind_handler(read_summary, reads)});
  router.add({"GET", "/v1/tests/results/{id}/coverage/lcov.info", scope, false,
              bind_handler(read_lcov, reads)});
  router.add(
      {"GET", "/v1/tests/results/{id}/junit.xml", scope, false, bind_handler(read_junit, reads)});
  router.add({"GET", "/v1/tests/results/{id}/coverage/html/{path*}", scope, false,
              bind_handler(read_html, reads)});
}

}  // namespace vouch::http
