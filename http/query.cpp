#include "http/query.hpp"

#include <boost/url/parse.hpp>
#include <charconv>

namespace vouch::http {

std::optional<std::string> path_of(std::string_view target) {
  auto url = boost::urls::parse_origin_form(target);
  if (!url) return std::nullopt;
  return std::string(url->encoded_path());
}

std::optional<std::string> query_param(std::string_view target, std::string_view name) {
  auto url = boost::urls::parse_origin_form(target);
  if (!url) return std::nullopt;
  for (const auto& param : url->params()) {
    if (param.key == name) return std::string(param.value);
  }
  return std::nullopt;
}

base::Result<PageQuery> parse_page_query(std::string_view target) {
  auto url = boost::urls::parse_origin_form(target);
  if (!url) return base::Error::invalid("the request target is not a valid URL");
  PageQuery query;
  std::vector<base::FieldError> errors;
  for (const auto& param : url->params()) {
    if (param.key == "limit") {
      long value = 0;
      const auto& text = param.value;
      auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
      if (ec != std::errc() || end != text.data() + text.size() || value < 1 ||
          static_cast<std::size_t>(value) > kMaxPageLimit) {
        errors.push_back(
            {"limit", "must be an integer from 1 to " + std::to_string(kMaxPageLimit)});
      } else {
        query.limit = static_cast<std::size_t>(value);
      }
    } else if (param.key == "startingAfter") {
      if (param.value.empty()) {
        errors.push_back({"startingAfter", "must be an id"});
      } else {
        query.starting_after = param.value;
      }
    }
  }
  if (!errors.empty()) return base::Error::invalid("invalid query parameters", std::move(errors));
  return query;
}

}  // namespace vouch::http
