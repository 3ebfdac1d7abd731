#include "http/json_body.hpp"

#include <simdjson.h>

#include <algorithm>

namespace vouch::http {

JsonBody::JsonBody()
    : parser_(std::make_unique<simdjson::dom::parser>()),
      root_(std::make_unique<simdjson::dom::element>()),
      scratch_(std::make_unique<simdjson::dom::element>()) {}
JsonBody::JsonBody(JsonBody&&) noexcept = default;
JsonBody& JsonBody::operator=(JsonBody&&) noexcept = default;
JsonBody::~JsonBody() = default;

base::Result<JsonBody> JsonBody::parse(std::string_view text) {
  JsonBody body;
  simdjson::dom::element root;
  // simdjson needs padding after the text; parse() copies into its buffer.
  auto error = body.parser_->parse(text.data(), text.size()).get(root);
  if (error) {
    return base::Error::invalid(std::string("the body is not valid JSON: ") +
                                simdjson::error_message(error));
  }
  if (!root.is_object()) return base::Error::invalid("the body must be a JSON object");
  *body.root_ = root;
  return body;
}

base::Result<JsonBody> JsonBody::parse(std::string_view text,
                                       std::initializer_list<std::string_view> required) {
  auto body = parse(text);
  if (body) {
    for (const auto field : required) body->require(field);
  }
  return body;
}

const simdjson::dom::element* JsonBody::find(std::string_view path) {
  simdjson::dom::element current = *root_;
  std::size_t start = 0;
  for (;;) {
    const std::size_t dot = path.find('.', start);
    std::string_view key = path.substr(start, dot == std::string_view::npos ? dot : dot - start);
    // "files[2]": the key, then an index into the array it names.
    std::optional<std::size_t> index;
    if (const auto bracket = key.find('['); bracket != std::string_view::npos) {
      index = std::stoul(std::string(key.substr(bracket + 1)));
      key = key.substr(0, bracket);
    }
    if (!current.is_object()) {
      const std::string parent(path.substr(0, start - 1));
      const bool already = std::any_of(errors_.begin(), errors_.end(),
                                       [&](const auto& e) { return e.field == parent; });
      if (!already) errors_.push_back({parent, "must be an object"});
      return nullptr;
    }
    simdjson::dom::element child;
    if (current.get_object().at_key(key).get(child) != simdjson::SUCCESS || child.is_null()) {
      return nullptr;
    }
    if (index) {
      simdjson::dom::array array;
      if (child.get_array().get(array) != simdjson::SUCCESS ||
          array.at(*index).get(child) != simdjson::SUCCESS || child.is_null()) {
        return nullptr;
      }
    }
    current = child;
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  *scratch_ = current;
  return scratch_.get();
}

template <class T, class Get>
std::optional<T> JsonBody::typed(std::string_view path, std::string_view must_be, Get get) {
  const auto* element = find(path);
  if (!element) return std::nullopt;
  T value{};
  if (get(*element).get(value) != simdjson::SUCCESS) {
    errors_.push_back({std::string(path), std::string(must_be)});
    return std::nullopt;
  }
  return value;
}

bool JsonBody::has(std::string_view path) { return find(path) != nullptr; }

std::optional<std::string> JsonBody::string(std::string_view path) {
  auto value = typed<std::string_view>(path, "must be a string",
                                       [](const auto& element) { return element.get_string(); });
  if (!value) return std::nullopt;
  return std::string(*value);
}

std::optional<double> JsonBody::number(std::string_view path) {
  const auto* element = find(path);
  if (!element) return std::nullopt;
  if (!element->is_number()) {
    errors_.push_back({std::string(path), "must be a number"});
    return std::nullopt;
  }
  double value = 0;
  if (element->get_double().get(value) != simdjson::SUCCESS) {
    // Integers too large for a double come here; treat them as out of range.
    std::int64_t as_int = 0;
    std::uint64_t as_uint = 0;
    if (element->get_int64().get(as_int) == simdjson::SUCCESS) return static_cast<double>(as_int);
    if (element->get_uint64().get(as_uint) == simdjson::SUCCESS) {
      return static_cast<double>(as_uint);
    }
    errors_.push_back({std::string(path), "must be a number"});
    return std::nullopt;
  }
  return value;
}

std::optional<bool> JsonBody::boolean(std::string_view path) {
  return typed<bool>(path, "must be true or false",
                     [](const auto& element) { return element.get_bool(); });
}

std::optional<std::vector<std::string>> JsonBody::strings(std::string_view path) {
  auto array = typed<simdjson::dom::array>(path, "must be an array of strings",
                                           [](const auto& element) { return element.get_array(); });
  if (!array) return std::nullopt;
  std::vector<std::string> out;
  std::size_t index = 0;
  bool all_strings = true;
  for (auto item : *array) {
    std::string_view value;
    if (item.get_string().get(value) != simdjson::SUCCESS) {
      errors_.push_back(
          {std::string(path) + "[" + std::to_string(index) + "]", "must be a string"});
      all_strings = false;
    } else {
      out.emplace_back(value);
    }
    ++index;
  }
  if (!all_strings) return std::nullopt;
  return out;
}

std::optional<std::size_t> JsonBody::array_size(std::string_view path) {
  auto array = typed<simdjson::dom::array>(path, "must be an array",
                                           [](const auto& element) { return element.get_array(); });
  if (!array) return std::nullopt;
  return array->size();
}

std::optional<std::vector<std::pair<std::string, std::string>>> JsonBody::string_map(
    std::string_view path) {
  auto object =
      typed<simdjson::dom::object>(path, "must be an object of strings",
                                   [](const auto& element) { return element.get_object(); });
  if (!object) return std::nullopt;
  std::vector<std::pair<std::string, std::string>> out;
  bool all_strings = true;
  for (auto [key, value] : *object) {
    std::string_view text;
    if (value.get_string().get(text) != simdjson::SUCCESS) {
      errors_.push_back({std::string(path) + "." + std::string(key), "must be a string"});
      all_strings = false;
    } else {
      out.emplace_back(key, text);
    }
  }
  if (!all_strings) return std::nullopt;
  return out;
}

void JsonBody::require(std::string_view path) {
  const std::size_t before = errors_.size();
  if (!find(path) && errors_.size() == before)
    errors_.push_back({std::string(path), "is required"});
}

void JsonBody::reject(std::string_view path, std::string message) {
  errors_.push_back({std::string(path), std::move(message)});
}

base::Error JsonBody::error() const {
  return base::Error::invalid("the request has invalid fields", errors_);
}

}  // namespace vouch::http
