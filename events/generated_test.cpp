#include "events/generated_test.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include "events/json_access.hpp"

namespace vouch::events {
namespace {

namespace ja = json_access;

// The fields the event and the record share.
boost::json::object core_to_json(const GeneratedTest& test) {
  return {{"testId", test.id},
          {"projectId", test.project_id},
          {"framework", test.framework},
          {"threshold", test.threshold},
          {"files", files_to_json(test.files)},
          {"sources", files_to_json(test.sources)},
          {"summary", boost::json::parse(test.summary)},
          {"environment", environment_to_json(test.environment)},
          {"created", test.created}};
}

GeneratedTest core_from_json(const boost::json::object& object) {
  GeneratedTest test;
  test.id = ja::string_at(object, "testId");
  test.project_id = ja::string_at(object, "projectId");
  test.framework = ja::string_at(object, "framework");
  test.threshold = ja::number_at(object, "threshold");
  const auto* files = object.if_contains("files");
  const auto* sources = object.if_contains("sources");
  const auto* summary = object.if_contains("summary");
  if (!files || !sources || !summary || !summary->is_object()) {
    throw ja::CorruptRecord{"files, sources or summary missing"};
  }
  test.files = files_from_json(*files);
  test.sources = files_from_json(*sources);
  test.summary = boost::json::serialize(*summary);
  if (const auto* environment = object.if_contains("environment")) {
    test.environment = environment_from_json(*environment);
  }
  test.created = ja::int_at(object, "created");
  test.updated = test.created;
  return test;
}

}  // namespace

EncodedEvent encode(const TestGenerated& event) {
  return ja::encoded(kTestGeneratedV1, core_to_json(event.test));
}

EncodedEvent encode(const TestGenerationAccepted& event) {
  return ja::encoded(kTestGenerationAcceptedV1, core_to_json(event.test));
}

EncodedEvent encode(const TestGenerationFailed& event) {
  return ja::encoded(kTestGenerationFailedV1,
                     {{"testId", event.test_id},
                      {"error", {{"code", event.error.code}, {"detail", event.error.detail}}},
                      {"at", event.at}});
}

base::Result<TestGenerationAccepted> decode_test_generation_accepted(std::string_view data,
                                                                     const std::string& account) {
  try {
    return ja::read_stored<TestGenerationAccepted>(
        data, std::string(kTestGenerationAcceptedV1) + " event",
        [&](const boost::json::object& object) {
          auto test = core_from_json(object);
          test.account = account;
          test.status = kTestGenerating;
          return TestGenerationAccepted{std::move(test)};
        });
  } catch (const std::exception& error) {
    return base::Error::internal(std::string("corrupt TestGenerationAccepted.v1 event: ") +
                                 error.what());
  }
}

base::Result<TestGenerationFailed> decode_test_generation_failed(std::string_view data) {
  return ja::read_stored<TestGenerationFailed>(
      data, std::string(kTestGenerationFailedV1) + " event",
      [&](const boost::json::object& object) {
        const auto* error = object.if_contains("error");
        if (!error) throw ja::CorruptRecord{"error missing"};
        const auto& fields = ja::as_object(*error, "error");
        return TestGenerationFailed{
            ja::string_at(object, "testId"),
            {ja::string_at(fields, "code"), ja::string_at(fields, "detail")},
            ja::int_at(object, "at")};
      });
}

base::Result<TestGenerated> decode_test_generated(std::string_view data,
                                                  const std::string& account) {
  try {
    return ja::read_stored<TestGenerated>(data, std::string(kTestGeneratedV1) + " event",
                                          [&](const boost::json::object& object) {
                                            auto test = core_from_json(object);
                                            test.account = account;
                                            return TestGenerated{std::move(test)};
                                          });
  } catch (const std::exception& error) {
    return base::Error::internal(std::string("corrupt TestGenerated.v1 event: ") + error.what());
  }
}

std::string encode_generated_test(const GeneratedTest& test) {
  auto object = core_to_json(test);
  object["account"] = test.account;
  object["status"] = test.status;
  object["lastRunId"] = test.last_run_id;
  object["updated"] = test.updated;
  if (test.error) {
    object["error"] = {{"code", test.error->code}, {"detail", test.error->detail}};
  }
  return boost::json::serialize(object);
}

base::Result<GeneratedTest> decode_generated_test(std::string_view text) {
  return ja::read_stored<GeneratedTest>(
      text, "test record", [&](const boost::json::object& object) -> base::Result<GeneratedTest> {
        auto test = core_from_json(object);
        test.account = ja::string_at(object, "account");
        test.status = ja::string_at(object, "status");
        test.last_run_id = ja::string_at(object, "lastRunId");
        test.updated = ja::int_at(object, "updated");
        if (const auto* error = object.if_contains("error")) {
          const auto& fields = ja::as_object(*error, "error");
          test.error =
              GenerationError{ja::string_at(fields, "code"), ja::string_at(fields, "detail")};
        }
        return test;
      });
}

}  // namespace vouch::events
