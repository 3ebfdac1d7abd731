#pragma once

#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/error.hpp"
#include "base/result.hpp"

namespace simdjson::dom {
class parser;
class element;
}  // namespace simdjson::dom

namespace vouch::http {

// A request body parsed with simdjson, read field by field. Fields are named
// by dotted paths ("config.coverage.threshold"), array items by an index
// ("files[2].path"). A reader returns nullopt for
// an absent (or null) field; a present field of the wrong type also returns
// nullopt and records a field error, so one pass collects every mistake.
// Unknown fields are ignored.
class JsonBody {
 public:
  // kInvalid when the text is not JSON or not a JSON object.
  [[nodiscard]] static base::Result<JsonBody> parse(std::string_view text);
  // The same, with "is required" recorded for each field of `required` that
  // is absent: how a handler starts reading its body.
  [[nodiscard]] static base::Result<JsonBody> parse(
      std::string_view text, std::initializer_list<std::string_view> required);

  JsonBody(JsonBody&&) noexcept;
  JsonBody& operator=(JsonBody&&) noexcept;
  ~JsonBody();

  bool has(std::string_view path);
  std::optional<std::string> string(std::string_view path);
  std::optional<double> number(std::string_view path);
  std::optional<bool> boolean(std::string_view path);
  std::optional<std::vector<std::string>> strings(std::string_view path);
  // The number of items of an array field.
  std::optional<std::size_t> array_size(std::string_view path);
  // An object whose values are all strings, as (key, value) pairs in order.
  std::optional<std::vector<std::pair<std::string, std::string>>> string_map(std::string_view path);
  // Records "is required" when the field is absent.
  void require(std::string_view path);
  void reject(std::string_view path, std::string message);

  const std::vector<base::FieldError>& errors() const { return errors_; }
  // kInvalid carrying every recorded field error; REQUIRES: !errors().empty().
  base::Error error() const;

 private:
  JsonBody();
  // The element at `path`, or nullptr when absent or null; records an error
  // when a parent on the path is not an object.
  const simdjson::dom::element* find(std::string_view path);
  // The field at `path` as `get(element)` (a simdjson getter) reads it;
  // nullopt when absent, and with the error "<path>: <must_be>" recorded when
  // it has another type.
  template <class T, class Get>
  std::optional<T> typed(std::string_view path, std::string_view must_be, Get get);

  std::unique_ptr<simdjson::dom::parser> parser_;
  std::unique_ptr<simdjson::dom::element> root_;
  std::unique_ptr<simdjson::dom::element> scratch_;
  std::vector<base::FieldError> errors_;
};

}  // namespace vouch::http
