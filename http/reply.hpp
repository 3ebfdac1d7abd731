#pragma once

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include "events/resource_json.hpp"
#include "events/result.hpp"
#include "http/message.hpp"
#include "http/problem.hpp"
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
inline Response error_response(const events::Error& error, std::string_view request_id) {
  if (error.code == events::ErrorCode::kInternal) {
    log::error("http", error.message, {{"requestId", request_id}});
  }
  return to_response(problem_of(error), request_id);
}

}  // namespace vouch::http
