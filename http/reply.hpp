#pragma once

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>
#include <functional>
#include <string>
#include <string_view>
#include <utility>

#include "base/ids.hpp"
#include "base/result.hpp"
#include "events/resource_json.hpp"
#include "http/message.hpp"
#include "http/problem.hpp"
#include "http/router.hpp"
#include "log/log.hpp"
#include "store/page.hpp"

namespace vouch::http {

// Whole numbers as JSON integers ("80", not "8E1"): one writer, in events/.
using events::json_number;

inline Response json_response(unsigned status, const boost::json::value& body) {
  Response response;
  response.status = status;
  response.body = boost::json::serialize(body);
  return response;
}

// 200 with one page of a collection: {"<name>": [to_json(item), …], "hasMore": …}.
template <class T, class ToJson>
Response page_response(std::string_view name, const store::Page<T>& page, ToJson to_json) {
  boost::json::array items;
  for (const auto& item : page.items) items.push_back(to_json(item));
  return json_response(200,
                       boost::json::object{{name, std::move(items)}, {"hasMore", page.has_more}});
}

inline Response empty_response(unsigned status) {
  Response response;
  response.status = status;
  response.content_type.clear();
  return response;
}

// The problem for `error`; an internal error's cause goes to the log only.
inline Response error_response(const base::Error& error, std::string_view request_id) {
  if (error.code == base::ErrorCode::kInternal) {
    log::error("http", error.message, {{"requestId", request_id}});
  }
  return to_response(problem_of(error), request_id);
}

// The callback answering a command: its problem, or `status` with
// `to_json(resource)`; a 204 has no body. With `collection`, the answer
// names the resource (a T with an `id`) in Location: `collection` + "/" + id.
template <class T, class ToJson>
std::function<void(base::Result<T>)> answer_with(Respond respond, std::string request_id,
                                                 unsigned status, ToJson to_json,
                                                 std::string collection = {}) {
  return
      [respond = std::move(respond), request_id = std::move(request_id), status,
       to_json = std::move(to_json), collection = std::move(collection)](base::Result<T> result) {
        if (!result) return respond(error_response(result.error(), request_id));
        if (status == 204) return respond(empty_response(204));
        Response response = json_response(status, to_json(*result));
        if constexpr (requires { result->id; }) {
          if (!collection.empty()) response.set_header("Location", collection + "/" + result->id);
        }
        respond(std::move(response));
      };
}

// The path parameter `name` when it has the form of an id with `prefix`.
// Otherwise answers 404 "no <noun> <value>" (an id of another form names
// nothing) and returns nullptr.
inline const std::string* path_id(const Context& context, const Respond& respond,
                                  std::string_view name, std::string_view prefix,
                                  std::string_view noun) {
  const auto& id = context.params.at(std::string(name));
  if (base::looks_like_id(id, prefix)) return &id;
  respond(error_response(base::Error::not_found("no " + std::string(noun) + " " + id),
                         context.request_id));
  return nullptr;
}

}  // namespace vouch::http
