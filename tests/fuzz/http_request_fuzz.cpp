// The HTTP request path up to the handlers: a raw request parsed by Beast
// with the server's limits, its target, query and Prefer header, and its body
// read the way the endpoints read theirs (every field of every endpoint),
// then the domain checks those fields go through.
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>

#include "events/dependency_spec.hpp"
#include "events/webhook.hpp"
#include "fuzz_input.hpp"
#include "http/json_body.hpp"
#include "http/prefer.hpp"
#include "http/query.hpp"

using namespace vouch;
namespace bhttp = boost::beast::http;

namespace {

// The fields the endpoints read, by the reader each uses.
constexpr const char* kStringFields[] = {"name",
                                         "repository",
                                         "config.framework",
                                         "projectId",
                                         "testId",
                                         "environment.nodeVersion",
                                         "url",
                                         "description",
                                         "scopes",
                                         "plan",
                                         "account",
                                         "files[0].path",
                                         "files[0].content",
                                         "files[1].path",
                                         "files[1].content"};
constexpr const char* kNumberFields[] = {"config.coverage.threshold", "expiresInDays"};
constexpr const char* kBooleanFields[] = {"active"};
constexpr const char* kStringListFields[] = {"events", "scopes"};

void read_body(std::string_view text) {
  auto body = http::JsonBody::parse(text);
  if (!body.ok()) {
    VOUCH_FUZZ_CHECK(body.error().code == base::ErrorCode::kInvalid);
    return;
  }
  for (const char* field : kStringFields) {
    const bool present = body->has(field);
    const auto value = body->string(field);
    if (!present) VOUCH_FUZZ_CHECK(!value.has_value());
  }
  for (const char* field : kNumberFields) (void)body->number(field);
  for (const char* field : kBooleanFields) (void)body->boolean(field);
  for (const char* field : kStringListFields) {
    if (const auto list = body->strings(field)) {
      for (const auto& pattern : *list) (void)events::is_valid_event_pattern(pattern);
    }
  }
  if (const auto files = body->array_size("files")) {
    for (std::size_t i = 0; i < std::min<std::size_t>(*files, 4); ++i) {
      (void)body->string("files[" + std::to_string(i) + "].path");
    }
  }
  if (const auto dependencies = body->string_map("environment.dependencies")) {
    for (const auto& [name, spec] : *dependencies) {
      (void)events::invalid_package_name(name);
      (void)events::invalid_dependency_spec(spec);
    }
  }
  if (const auto url = body->string("url")) (void)events::check_webhook_url(*url, true);
  body->require("name");
  if (!body->errors().empty()) VOUCH_FUZZ_CHECK(!body->error().message.empty());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // The raw bytes as a request on the wire, with the server's limits.
  bhttp::request_parser<bhttp::string_body> parser;
  parser.header_limit(16 * 1024);
  parser.body_limit(1024 * 1024);
  boost::beast::error_code ec;
  parser.eager(true);
  parser.put(boost::asio::buffer(data, size), ec);
  if (!ec && parser.is_header_done()) {
    const auto& message = parser.get();
    const std::string target(message.target());
    (void)http::path_of(target);
    (void)http::parse_page_query(target);
    for (const char* name : {"limit", "startingAfter", "type", "projectId", "after"}) {
      (void)http::query_param(target, name);
    }
    if (const auto wait = http::preferred_wait(message["Prefer"])) {
      VOUCH_FUZZ_CHECK(wait->count() >= 0);
    }
    if (parser.is_done()) read_body(message.body());
  }
  // The same bytes as a body on their own: the JSON readers see the most.
  read_body(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
