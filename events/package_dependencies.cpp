#include "events/package_dependencies.hpp"

#include <algorithm>
#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>

namespace vouch::events {
namespace {

std::string trimmed(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t\r\n");
  return std::string(text.substr(first, last - first + 1));
}

// "name@^1.0.0", "name >=1", "@scope/name@2" or "name": split where the spec
// starts (the first '@', space, '>', '<' or '=' after the name's first
// character), a leading '@' of the spec dropped.
std::pair<std::string, std::string> split_entry(std::string_view entry) {
  const auto text = trimmed(entry);
  const auto at = text.find_first_of("@ \t><=", 1);
  if (at == std::string::npos) return {text, ""};
  auto spec = trimmed(std::string_view(text).substr(at));
  if (!spec.empty() && spec.front() == '@') spec.erase(0, 1);
  return {text.substr(0, at), trimmed(spec)};
}

void add(std::vector<std::pair<std::string, std::string>>& out, std::string name,
         std::string spec) {
  if (name.empty()) return;
  const auto same = [&](const auto& entry) { return entry.first == name; };
  if (std::any_of(out.begin(), out.end(), same)) return;  // the first mention wins
  out.emplace_back(std::move(name), std::move(spec));
}

void read_field(const boost::json::value& field,
                std::vector<std::pair<std::string, std::string>>& out) {
  if (const auto* object = field.if_object()) {
    for (const auto& [name, spec] : *object) {
      if (spec.is_string()) add(out, std::string(name), std::string(spec.get_string()));
    }
  } else if (const auto* array = field.if_array()) {
    for (const auto& item : *array) {
      if (!item.is_string()) continue;
      auto [name, spec] = split_entry(item.get_string());
      add(out, std::move(name), std::move(spec));
    }
  } else if (const auto* text = field.if_string()) {
    std::string_view rest(*text);
    while (!rest.empty()) {
      const auto start = rest.find_first_not_of(" \t\r\n,");
      if (start == std::string_view::npos) break;
      rest.remove_prefix(start);
      const auto end = std::min(rest.find_first_of(" \t\r\n,"), rest.size());
      auto [name, spec] = split_entry(rest.substr(0, end));
      add(out, std::move(name), std::move(spec));
      rest.remove_prefix(end);
    }
  }
}

}  // namespace

std::vector<std::pair<std::string, std::string>> normalized_dependencies(
    std::string_view package_json) {
  std::vector<std::pair<std::string, std::string>> out;
  boost::system::error_code ec;
  const auto value = boost::json::parse(package_json, ec);
  if (ec || !value.is_object()) return out;
  for (const auto* key : {"dependencies", "optionalDependencies"}) {
    if (const auto* field = value.as_object().if_contains(key)) read_field(*field, out);
  }
  return out;
}

}  // namespace vouch::events
