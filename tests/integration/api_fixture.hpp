#pragma once

#include <gtest/gtest.h>

#include <atomic>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "../unit/temp_folder.hpp"
#include "http_client.hpp"
#include "vouchd_process.hpp"

namespace vouch::testing {

// A real vouchd in a temporary data folder, and HTTP calls to it.
class VouchdTest : public ::testing::Test {
 protected:
  void start(std::vector<std::string> args = {}) {
    server_ = std::make_unique<VouchdProcess>(data(), std::move(args));
  }
  std::filesystem::path data() const { return folder_.path() / "data"; }

  HttpResponse call(std::string method, std::string target,
                    std::string key = VouchdProcess::kAdminKey, std::string body = "") {
    HttpRequest request;
    request.method = std::move(method);
    request.target = std::move(target);
    request.key = std::move(key);
    request.body = std::move(body);
    return send(server_->port(), request);
  }

  // The value of an unlabelled metric in GET /metrics; -1 when absent.
  long metric(const std::string& name) {
    const auto body = call("GET", "/metrics", "").body;
    const auto at = body.find("\n" + name + " ");
    return at == std::string::npos ? -1 : std::stol(body.substr(at + name.size() + 2));
  }

  static boost::json::object json(const HttpResponse& response) {
    boost::system::error_code ec;
    auto value = boost::json::parse(response.body, ec);
    EXPECT_FALSE(ec) << response.body;
    return value.is_object() ? value.get_object() : boost::json::object{};
  }

  TempFolder folder_;
  std::unique_ptr<VouchdProcess> server_;
};

// A fresh vouchd per test, with helpers that speak its API.
class ApiTest : public VouchdTest {
 protected:
  void SetUp() override { start(); }

  // Issues a key through the admin API and returns the secret.
  std::string issue_key(const std::string& account, const std::string& plan,
                        const std::string& scopes_json) {
    auto response = call("POST", "/v1/keys", VouchdProcess::kAdminKey,
                         R"({"account":")" + account + R"(","plan":")" + plan + R"(","scopes":)" +
                             scopes_json + "}");
    EXPECT_EQ(response.status, 201u) << response.body;
    return std::string(json(response)["key"].as_string());
  }

  std::string create_project(const std::string& key, const std::string& name = "shop") {
    auto response = call("POST", "/v1/projects", key, R"({"name":")" + name + R"("})");
    EXPECT_EQ(response.status, 201u) << response.body;
    return std::string(json(response)["id"].as_string());
  }
};

// The load the crash tests kill vouchd under: `clients` threads, each
// creating up to `per_client` projects "p-<client>-<i>" on `port` as the
// admin, keeping the ids of the creates answered 201. stop() (or the
// destructor) ends the load and joins the threads.
class ProjectCreators {
 public:
  ProjectCreators(std::uint16_t port, int clients, int per_client) {
    for (int c = 0; c < clients; ++c) {
      threads_.emplace_back([this, port, c, per_client] {
        for (int i = 0; i < per_client && !stop_; ++i) {
          HttpRequest request{
              "POST",
              "/v1/projects",
              VouchdProcess::kAdminKey,
              R"({"name":"p-)" + std::to_string(c) + "-" + std::to_string(i) + "\"}",
              "application/json",
              {}};
          auto response = send(port, request);
          if (response.status != 201) continue;  // no answer (killed) or refused
          auto id = std::string(boost::json::parse(response.body).as_object()["id"].as_string());
          std::lock_guard lock(mutex_);
          acknowledged_.push_back(std::move(id));
        }
      });
    }
  }
  ~ProjectCreators() { stop(); }
  ProjectCreators(const ProjectCreators&) = delete;
  ProjectCreators& operator=(const ProjectCreators&) = delete;

  void stop() {
    stop_ = true;
    for (auto& thread : threads_) {
      if (thread.joinable()) thread.join();
    }
  }

  // The ids acknowledged so far.
  std::vector<std::string> acknowledged() const {
    std::lock_guard lock(mutex_);
    return acknowledged_;
  }

 private:
  mutable std::mutex mutex_;
  std::vector<std::string> acknowledged_;
  std::atomic<bool> stop_{false};
  std::vector<std::thread> threads_;
};

}  // namespace vouch::testing
