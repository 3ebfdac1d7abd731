// Public events: GET /v1/events and webhook deliveries show the same published form of an event
// (events/public_types.hpp), with no internal field.
#include <algorithm>

#include "webhook_fixture.hpp"

namespace vouch::testing {
namespace {

using PublicEvents = WebhookTest;

// Storage and secrets, never public: at any depth.
void expect_no_internal_field(const boost::json::value& value, const std::string& where) {
  if (value.is_array()) {
    for (const auto& item : value.get_array()) expect_no_internal_field(item, where);
    return;
  }
  if (!value.is_object()) return;
  for (const auto& [key, item] : value.get_object()) {
    for (const char* internal : {"account", "secret", "hash", "keyHash", "sources", "content"}) {
      EXPECT_NE(key, internal) << where;
    }
    expect_no_internal_field(item, where);
  }
}

TEST_F(PublicEvents, TheEventsApiAndWebhooksCarryIdenticalData) {
  start(local_flags());
  create_webhook(receiver_url("all"), R"(["*"])");
  const auto project = create_project("audited");
  ASSERT_EQ(
      request("PUT", "/v1/projects/" + project, R"({"config":{"coverage":{"threshold":72.5}}})")
          .status,
      200u);
  auto generated = request(
      "POST", "/v1/tests/generate",
      R"({"projectId":")" + project +
          R"(","files":[{"path":"abs.js","content":"exports.abs = (n) => (n < 0 ? -n : n);"}]})");
  ASSERT_EQ(generated.status, 201u) << generated.body;
  auto started =
      request("POST", "/v1/tests/run", R"({"testId":")" + str(json(generated)["testId"]) + R"("})");
  ASSERT_EQ(started.status, 202u) << started.body;
  HttpRequest wait;
  wait.target = "/v1/tests/results/" + str(json(started)["runId"]);
  wait.key = kAdmin;
  wait.headers["Prefer"] = "wait=25";
  ASSERT_EQ(str(json(send(server_->port(), wait))["status"]), "completed");

  // project.created, project.updated, test.started, test.completed, test.coverage.updated.
  auto listed = json(request("GET", "/v1/events?limit=100"));
  const auto& events = listed["events"].as_array();
  ASSERT_EQ(events.size(), 5u) << boost::json::serialize(listed);
  ASSERT_TRUE(wait_until([&] { return receiver_->requests("all").size() == events.size(); },
                         std::chrono::seconds(30)));
  for (const auto& delivery : receiver_->requests("all")) {
    const auto body = boost::json::parse(str(delivery.as_object().at("body")));
    const auto id = str(body.at("id"));
    const auto same = std::find_if(events.begin(), events.end(),
                                   [&](const auto& event) { return str(event.at("id")) == id; });
    ASSERT_NE(same, events.end()) << id;
    // The whole envelope, data included, is the same in both.
    EXPECT_EQ(body, *same) << boost::json::serialize(body);
    EXPECT_EQ(body.at("version"), 1);
    EXPECT_EQ(str(body.at("created")).size(), 24u);
    expect_no_internal_field(body, boost::json::serialize(body));
  }

  const auto& created = events[0].at("data").as_object();
  EXPECT_EQ(str(events[0].at("type")), "project.created");
  EXPECT_EQ(created.at("config").at("coverage").at("threshold"), 80);
  EXPECT_TRUE(created.at("config").at("coverage").at("threshold").is_int64());
  EXPECT_EQ(created.at("created").as_string().size(), 24u);
  EXPECT_EQ(events[1].at("data").at("config").at("coverage").at("threshold"), 72.5);
  const auto& completed = events[3].at("data").as_object();
  EXPECT_EQ(str(events[3].at("type")), "test.completed");
  EXPECT_TRUE(completed.at("results").at("coverage").at("lines").is_int64());
  EXPECT_EQ(str(completed.at("projectId")), project);

  // Filters: a type pattern and a project.
  auto tests = json(request("GET", "/v1/events?type=test.*&projectId=" + project));
  EXPECT_EQ(tests["events"].as_array().size(), 3u);
  for (const auto& event : tests["events"].as_array()) {
    EXPECT_TRUE(str(event.at("type")).starts_with("test.")) << boost::json::serialize(event);
  }
  const auto other = create_project("other");
  auto none = json(request("GET", "/v1/events?type=test.*&projectId=" + other));
  EXPECT_TRUE(none["events"].as_array().empty());
}

}  // namespace
}  // namespace vouch::testing
