#pragma once

#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include "events/resource_json.hpp"
#include "events/result.hpp"
#include "http/message.hpp"
#include "http/problem.hpp"
#include "log/log.hpp"

namespace vouch::http {

// Whole numbers as JSON integers ("80", not "8E1"): one writer, in events/.
using events::json_number;

inline Response json_response(unsigned status, const boost::json::value& body) {
  Response response;
  response.status = status;
  response.body = boost::json::serialize(body);
  return response;
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
