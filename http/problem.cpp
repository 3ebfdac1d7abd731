#include "http/problem.hpp"

#include <boost/json/array.hpp>
#include <boost/json/serialize.hpp>

namespace vouch::http {
namespace {

std::string_view title_of(unsigned status) {
  switch (status) {
    case 400:
      return "Bad Request";
    case 401:
      return "Unauthorized";
    case 403:
      return "Forbidden";
    case 404:
      return "Not Found";
    case 405:
      return "Method Not Allowed";
    case 409:
      return "Conflict";
    case 413:
      return "Content Too Large";
    case 415:
      return "Unsupported Media Type";
    case 422:
      return "Unprocessable Content";
    case 429:
      return "Too Many Requests";
    case 431:
      return "Request Header Fields Too Large";
    case 503:
      return "Service Unavailable";
    case 507:
      return "Insufficient Storage";
    default:
      return "Internal Server Error";
  }
}

}  // namespace

Response to_response(const Problem& problem, std::string_view request_id) {
  boost::json::object body{{"type", "https://vouch.dev/problems/" + problem.code},
                           {"title", title_of(problem.status)},
                           {"status", problem.status},
                           {"detail", problem.detail},
                           {"code", problem.code},
                           {"requestId", request_id}};
  if (!problem.errors.empty()) {
    boost::json::array errors;
    for (const auto& error : problem.errors) {
      errors.push_back(boost::json::object{{"field", error.field}, {"message", error.message}});
    }
    body["errors"] = std::move(errors);
  }
  Response response;
  response.status = problem.status;
  response.content_type = "application/problem+json";
  if (problem.retry_after_seconds != 0) {
    response.set_header("Retry-After", std::to_string(problem.retry_after_seconds));
  }
  response.body = boost::json::serialize(body);
  return response;
}

Problem problem_of(const base::Error& error) {
  switch (error.code) {
    case base::ErrorCode::kInvalid:
      return {400, "invalid_request", error.message, error.fields};
    case base::ErrorCode::kNotFound:
      return {404, "not_found", error.message, {}};
    case base::ErrorCode::kConflict:
      return {409, "conflict", error.message, {}};
    case base::ErrorCode::kUnavailable:
      return {503, "unavailable", error.message, {}, error.retry_after_seconds};
    case base::ErrorCode::kTooLarge:
      return {413, "payload_too_large", error.message, {}};
    case base::ErrorCode::kInsufficientStorage:
      return {507, "insufficient_storage", error.message, {}, error.retry_after_seconds};
    case base::ErrorCode::kInternal:
      break;
  }
  // Internal details stay in the server's log, not in the answer.
  return {500, "internal_error", "the service failed; nothing was changed", {}};
}

}  // namespace vouch::http
