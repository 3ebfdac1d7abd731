#include "http/router.hpp"

namespace vouch::http {
namespace {

std::vector<std::string_view> segments(std::string_view path) {
  std::vector<std::string_view> out;
  std::size_t start = 1;  // paths begin with '/'
  while (start <= path.size()) {
    const std::size_t slash = path.find('/', start);
    out.push_back(path.substr(start, slash == std::string_view::npos ? slash : slash - start));
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  return out;
}

bool matches(std::string_view pattern, std::string_view path,
             std::unordered_map<std::string, std::string>& params) {
  const auto want = segments(pattern);
  const auto have = segments(path);
  const bool rest = !want.empty() && want.back().size() > 3 && want.back().front() == '{' &&
                    want.back().ends_with("*}");
  if (rest ? have.size() < want.size() : want.size() != have.size()) return false;
  std::unordered_map<std::string, std::string> found;
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (rest && i + 1 == want.size()) {
      // "{name*}": every remaining segment, none of them empty.
      const auto offset = static_cast<std::size_t>(have[i].data() - path.data());
      const auto tail = path.substr(offset);
      if (tail.empty() || tail.find("//") != std::string_view::npos || tail.back() == '/') {
        return false;
      }
      found.emplace(std::string(want[i].substr(1, want[i].size() - 3)), std::string(tail));
    } else if (want[i].size() > 2 && want[i].front() == '{' && want[i].back() == '}') {
      if (have[i].empty()) return false;
      found.emplace(std::string(want[i].substr(1, want[i].size() - 2)), std::string(have[i]));
    } else if (want[i] != have[i]) {
      return false;
    }
  }
  params = std::move(found);
  return true;
}

}  // namespace

void Router::add(Route route) { routes_.push_back(std::move(route)); }

std::optional<Router::Match> Router::match(std::string_view method, std::string_view path) const {
  if (path.empty() || path.front() != '/') return std::nullopt;
  std::optional<Match> result;
  for (const auto& route : routes_) {
    std::unordered_map<std::string, std::string> params;
    if (!matches(route.pattern, path, params)) continue;
    if (!result) result.emplace();
    if (route.method == method) {
      result->route = &route;
      result->params = std::move(params);
      return result;
    }
    result->allowed += (result->allowed.empty() ? "" : ", ") + route.method;
  }
  return result;
}

void add_resource_routes(Router& router, const std::string& collection,
                         const std::string& read_scope, const std::string& write_scope,
                         ResourceHandlers handlers) {
  const std::string item = collection + "/{id}";
  router.add({"POST", collection, write_scope, true, std::move(handlers.create)});
  router.add({"GET", collection, read_scope, false, std::move(handlers.list)});
  router.add({"GET", item, read_scope, false, std::move(handlers.read)});
  router.add({"PUT", item, write_scope, true, std::move(handlers.update)});
  router.add({"DELETE", item, write_scope, false, std::move(handlers.remove)});
}

}  // namespace vouch::http
