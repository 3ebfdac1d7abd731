#include "events/test_cases.hpp"

#include <boost/json/array.hpp>
#include <boost/json/serialize.hpp>

#include "events/json_access.hpp"

namespace vouch::events {

namespace ja = json_access;

std::string encode_test_cases(const std::vector<TestCase>& cases) {
  boost::json::array array;
  array.reserve(cases.size());
  for (const auto& test : cases) {
    boost::json::object object{{"file", test.file},
                               {"suite", test.suite},
                               {"name", test.name},
                               {"status", test.status},
                               {"durationMs", test.duration_ms}};
    if (!test.message.empty()) object["message"] = test.message;
    if (!test.stack.empty()) object["stack"] = test.stack;
    array.push_back(std::move(object));
  }
  return boost::json::serialize(boost::json::object{{"tests", std::move(array)}});
}

base::Result<std::vector<TestCase>> decode_test_cases(std::string_view text) {
  return ja::read_stored<std::vector<TestCase>>(
      text, "test cases",
      [](const boost::json::object& object) -> base::Result<std::vector<TestCase>> {
        const auto* tests = object.if_contains("tests");
        if (!tests || !tests->is_array()) throw ja::CorruptRecord{"tests missing"};
        std::vector<TestCase> cases;
        for (const auto& value : tests->get_array()) {
          const auto& entry = ja::as_object(value, "test case");
          cases.push_back({ja::string_at(entry, "file"), ja::string_at(entry, "suite"),
                           ja::string_at(entry, "name"), ja::string_at(entry, "status"),
                           ja::int_at(entry, "durationMs"),
                           ja::optional_string_at(entry, "message").value_or(""),
                           ja::optional_string_at(entry, "stack").value_or("")});
        }
        return cases;
      });
}

}  // namespace vouch::events
