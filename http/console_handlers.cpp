#include "http/console_handlers.hpp"

#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>

#include "http/console_assets.hpp"
#include "http/problem.hpp"

namespace vouch::http {
namespace {

// No inline script or style, no eval, nothing from elsewhere; the coverage
// report's frame (srcdoc) inherits this policy.
constexpr std::string_view kPolicy =
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; frame-src 'self'; frame-ancestors 'none'; base-uri 'none'; "
    "form-action 'none'";

std::string media_type(std::string_view path) {
  if (path.ends_with(".html")) return "text/html; charset=utf-8";
  if (path.ends_with(".js")) return "text/javascript; charset=utf-8";
  if (path.ends_with(".css")) return "text/css; charset=utf-8";
  if (path.ends_with(".svg")) return "image/svg+xml";
  return "application/octet-stream";
}

Response with_console_headers(Response response) {
  response.set_header("Content-Security-Policy", std::string(kPolicy));
  response.set_header("X-Frame-Options", "DENY");
  response.set_header("X-Content-Type-Options", "nosniff");
  response.set_header("Referrer-Policy", "no-referrer");
  response.set_header("Cross-Origin-Opener-Policy", "same-origin");
  response.set_header("Cache-Control", "no-cache");
  return response;
}

using Assets = std::unordered_map<std::string_view, std::string_view>;

void serve(const Assets& assets, std::string_view path, const Context& context,
           const Respond& respond) {
  const auto found = assets.find(path);
  if (found == assets.end()) {
    return respond(with_console_headers(
        to_response({404, "not_found", "the console has no file " + std::string(path), {}},
                    context.request_id)));
  }
  Response response;
  response.content_type = media_type(path);
  response.body = std::string(found->second);
  respond(with_console_headers(std::move(response)));
}

}  // namespace

void add_console_routes(Router& router) {
  auto assets = std::make_shared<Assets>();
  for (const auto& asset : console_assets()) assets->emplace(asset.path, asset.body);
  router.add({"GET", "/console", "", false, [](const Request&, const Context&, Respond respond) {
                Response response;
                response.status = 308;
                response.content_type = "text/plain; charset=utf-8";
                response.body = "/console/\n";
                response.set_header("Location", "/console/");
                respond(with_console_headers(std::move(response)));
              }});
  router.add({"GET", "/console/", "", false,
              [assets](const Request&, const Context& context, Respond respond) {
                serve(*assets, "index.html", context, respond);
              }});
  router.add({"GET", "/console/{path*}", "", false,
              [assets](const Request&, const Context& context, Respond respond) {
                serve(*assets, context.params.at("path"), context, respond);
              }});
}

}  // namespace vouch::http
