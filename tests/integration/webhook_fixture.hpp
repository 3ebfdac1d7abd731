#pragma once

#include <gtest/gtest.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <thread>

#include "api_fixture.hpp"
#include "receiver_process.hpp"
#include "wait_until.hpp"

namespace vouch::testing {

inline constexpr const char* kAdmin = VouchdProcess::kAdminKey;

// A receiver on 127.0.0.1 and a vouchd allowed to reach it.
class WebhookTest : public VouchdTest {
 protected:
  // The flags most tests use: plain http to loopback, retries in milliseconds.
  static std::vector<std::string> local_flags(std::string scale = "0.001") {
    return {"--webhook-allow-http", "--webhook-allow-cidr", "127.0.0.0/8", "--webhook-retry-scale",
            std::move(scale)};
  }

  void start(std::vector<std::string> flags, std::vector<std::string> receiver_args = {}) {
    receiver_ = std::make_unique<ReceiverProcess>(std::move(receiver_args));
    VouchdTest::start(std::move(flags));
  }

  // The body first: most webhook calls send one with the admin key.
  HttpResponse request(std::string method, std::string target, std::string body = "",
                       std::string key = kAdmin) {
    return call(std::move(method), std::move(target), std::move(key), std::move(body));
  }

  std::string receiver_url(const std::string& name, const std::string& query = "") const {
    return "http://127.0.0.1:" + std::to_string(receiver_->port()) + "/h/" + name +
           (query.empty() ? "" : "?" + query);
  }

  struct Created {
    std::string id;
    std::string secret;
  };
  Created create_webhook(const std::string& url, const std::string& events_json,
                         const std::string& key = kAdmin) {
    auto response = request("POST", "/v1/webhooks",
                            R"({"url":")" + url + R"(","events":)" + events_json + "}", key);
    EXPECT_EQ(response.status, 201u) << response.body;
    auto body = json(response);
    if (response.status != 201) return {};
    return {std::string(body["id"].as_string()), std::string(body["secret"].as_string())};
  }

  std::string create_project(const std::string& name = "shop") {
    auto response = request("POST", "/v1/projects", R"({"name":")" + name + R"("})");
    EXPECT_EQ(response.status, 201u) << response.body;
    return response.status == 201 ? std::string(json(response)["id"].as_string()) : "";
  }

  // Every delivery log entry of a webhook, newest first, following the pages.
  boost::json::array deliveries(const std::string& webhook) {
    boost::json::array all;
    std::string cursor;
    for (;;) {
      auto response = request("GET", "/v1/webhooks/" + webhook + "/deliveries?limit=100" +
                                         (cursor.empty() ? "" : "&startingAfter=" + cursor));
      EXPECT_EQ(response.status, 200u) << response.body;
      if (response.status != 200) return all;
      auto body = json(response);
      for (auto& entry : body["deliveries"].as_array()) all.push_back(entry);
      if (!body["hasMore"].as_bool() || all.empty()) return all;
      cursor = std::string(all.back().as_object().at("id").as_string());
    }
  }

  std::unique_ptr<ReceiverProcess> receiver_;
};

inline std::string str(const boost::json::value& value) {
  return value.is_string() ? std::string(value.as_string()) : "";
}

}  // namespace vouch::testing
