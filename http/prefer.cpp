#include "http/prefer.hpp"

#include <boost/algorithm/string/predicate.hpp>
#include <boost/algorithm/string/trim.hpp>
#include <charconv>
#include <cstdint>

namespace vouch::http {

bool prefers_respond_async(std::string_view prefer) {
  while (!prefer.empty()) {
    const auto comma = prefer.find(',');
    auto preference = prefer.substr(0, comma);
    prefer = comma == std::string_view::npos ? std::string_view() : prefer.substr(comma + 1);
    preference = preference.substr(0, preference.find(';'));
    if (boost::algorithm::iequals(boost::algorithm::trim_copy(preference), "respond-async")) {
      return true;
    }
  }
  return false;
}

std::optional<std::chrono::seconds> preferred_wait(std::string_view prefer) {
  while (!prefer.empty()) {
    const auto comma = prefer.find(',');
    auto preference = prefer.substr(0, comma);
    prefer = comma == std::string_view::npos ? std::string_view() : prefer.substr(comma + 1);
    preference = preference.substr(0, preference.find(';'));  // parameters do not apply here
    const auto equals = preference.find('=');
    if (equals == std::string_view::npos) continue;
    if (!boost::algorithm::iequals(boost::algorithm::trim_copy(preference.substr(0, equals)),
                                   "wait")) {
      continue;
    }
    auto value = boost::algorithm::trim_copy(preference.substr(equals + 1));
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
      value = value.substr(1, value.size() - 2);
    }
    std::uint32_t seconds = 0;
    const auto* end = value.data() + value.size();
    const auto [at, error] = std::from_chars(value.data(), end, seconds);
    if (error != std::errc() || at != end) return std::nullopt;
    return std::chrono::seconds(seconds);
  }
  return std::nullopt;
}

}  // namespace vouch::http
