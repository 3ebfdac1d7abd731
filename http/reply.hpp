#pragma once

#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>
#include <cmath>
#include <cstdint>

#include "events/result.hpp"
#include "http/message.hpp"
#include "http/problem.hpp"
#include "log/log.hpp"

namespace vouch::http {

// A percentage or other number as JSON: integral values print as integers
// ("80", not Boost.JSON's shortest double form "8E1"). The range is checked
// before the cast (casting a double out of int64's range is undefined).
inline boost::json::value json_number(double value) {
  if (std::isfinite(value) && std::abs(value) < 1e15 && std::trunc(value) == value) {
    return static_cast<std::int64_t>(value);
  }
  return value;
}

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
