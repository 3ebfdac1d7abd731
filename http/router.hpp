#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "http/message.hpp"
#include "store/access_view.hpp"

namespace vouch::http {

// What a handler gets besides the request: who calls, the path's parameters,
// and the request's id for logs and problems.
struct Context {
  store::KeyGrant caller;
  std::unordered_map<std::string, std::string> params;  // "{id}" segments by name
  std::string request_id;
};

using Handler = std::function<void(const Request&, const Context&, Respond)>;

// The handler that calls `handle(held..., request, context, respond)`. The
// held values are copied into it: pass std::ref() for what the handler uses
// by reference (the service, read models), which must outlive the router.
template <class Handle, class... Held>
Handler bind_handler(Handle handle, Held... held) {
  return [handle, held...](const Request& request, const Context& context, Respond respond) {
    handle(held..., request, context, std::move(respond));
  };
}

struct Route {
  std::string method;
  std::string pattern;    // e.g. "/v1/projects/{id}"
  std::string scope;      // required scope; empty for public routes
  bool has_body = false;  // requires Content-Type: application/json
  Handler handler;
  bool accepts_gzip = false;  // with has_body: application/gzip is accepted too
};

// Maps method and path to a route. Segments in braces match any one segment;
// a last segment "{name*}" matches the rest of the path (one or more segments).
class Router {
 public:
  void add(Route route);

  struct Match {
    const Route* route = nullptr;  // null: no route for this method
    std::unordered_map<std::string, std::string> params;
    std::string allowed;  // methods of the path when the method does not match ("GET, POST")
  };
  // nullopt when no route has this path at all (404).
  std::optional<Match> match(std::string_view method, std::string_view path) const;

 private:
  std::vector<Route> routes_;
};

// The handlers of a collection of resources: create and list on the
// collection's path, read, update and delete on "<collection>/{id}".
struct ResourceHandlers {
  Handler create;  // POST, with a JSON body
  Handler list;
  Handler read;
  Handler update;  // PUT, with a JSON body
  Handler remove;
};

// Adds the five routes of `handlers` under `collection` ("/v1/projects"):
// list and read need `read_scope`, the others `write_scope`.
void add_resource_routes(Router& router, const std::string& collection,
                         const std::string& read_scope, const std::string& write_scope,
                         ResourceHandlers handlers);

}  // namespace vouch::http
