#include "http_client.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>
#include <cstdlib>
#include <mutex>
#include <set>

namespace vouch::testing {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace bhttp = beast::http;

namespace {

std::string current_test_name() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  if (!info) return "(outside a test)";
  return std::string(info->test_suite_name()) + "." + info->name();
}

std::mutex limits_off_mutex;
std::set<std::uint16_t> limits_off;  // ports of vouchd started with --no-rate-limits

bool rate_limits_off(std::uint16_t port) {
  std::lock_guard lock(limits_off_mutex);
  return limits_off.contains(port);
}

// One line per exchange, appended whole (O_APPEND, one write), so that test
// threads and the test binaries that ctest runs never interleave lines.
void log_exchange(std::uint16_t port, const HttpRequest& request, const HttpResponse& response) {
  static const char* const path = std::getenv("VOUCH_EXCHANGE_LOG");
  if (!path || !*path || !request.to_vouchd || response.status == 0) return;
  boost::json::object headers;
  for (const auto& [name, value] : response.headers) headers[name] = value;
  boost::json::object record{{"source", "api"},           {"test", current_test_name()},
                             {"method", request.method},  {"target", request.target},
                             {"status", response.status}, {"headers", std::move(headers)},
                             {"body", response.body}};
  if (rate_limits_off(port)) record["rateLimits"] = false;
  const std::string line = boost::json::serialize(record) + "\n";
  static std::mutex mutex;
  std::lock_guard lock(mutex);
  const int fd = ::open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) {
    ADD_FAILURE() << "cannot open VOUCH_EXCHANGE_LOG " << path;
    return;
  }
  const auto written = ::write(fd, line.data(), line.size());
  ::close(fd);
  if (written != static_cast<ssize_t>(line.size())) ADD_FAILURE() << "short write to " << path;
}

}  // namespace

void set_rate_limits_off(std::uint16_t port, bool off) {
  std::lock_guard lock(limits_off_mutex);
  if (off) {
    limits_off.insert(port);
  } else {
    limits_off.erase(port);
  }
}

HttpResponse send(std::uint16_t port, const HttpRequest& request) {
  // Asynchronous operations, because only they honour the stream's
  // deadline: a server that never answers fails the call, not the suite.
  asio::io_context io;
  beast::tcp_stream stream(io);
  beast::error_code ec;
  auto finish = [&io, &ec] {
    io.run();
    io.restart();
    return !ec;
  };
  stream.expires_after(kCallDeadline);
  stream.async_connect(asio::ip::tcp::endpoint(asio::ip::make_address("127.0.0.1"), port),
                       [&ec](beast::error_code error) { ec = error; });
  if (!finish()) return {};

  bhttp::request<bhttp::string_body> message(bhttp::string_to_verb(request.method), request.target,
                                             11);
  message.set(bhttp::field::host, "127.0.0.1");
  if (!request.key.empty()) message.set(bhttp::field::authorization, "Bearer " + request.key);
  for (const auto& [name, value] : request.headers) message.set(name, value);
  if (!request.body.empty() || request.method == "POST" || request.method == "PUT") {
    if (!request.content_type.empty())
      message.set(bhttp::field::content_type, request.content_type);
    message.body() = request.body;
    message.prepare_payload();
  }
  bhttp::async_write(stream, message, [&ec](beast::error_code error, std::size_t) { ec = error; });
  if (!finish()) return {};

  beast::flat_buffer buffer;
  bhttp::response_parser<bhttp::string_body> parser;
  parser.body_limit(64 * 1024 * 1024);
  bhttp::async_read(stream, buffer, parser,
                    [&ec](beast::error_code error, std::size_t) { ec = error; });
  if (!finish()) return {};
  const auto& answer = parser.get();
  HttpResponse response;
  response.status = answer.result_int();
  response.body = answer.body();
  for (const auto& field : answer) {
    std::string name(field.name_string());
    std::transform(name.begin(), name.end(), name.begin(), ::tolower);
    response.headers[name] = std::string(field.value());
  }
  stream.socket().shutdown(asio::ip::tcp::socket::shutdown_both, ec);
  log_exchange(port, request, response);
  return response;
}

}  // namespace vouch::testing
