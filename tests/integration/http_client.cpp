#include "http_client.hpp"

#include <algorithm>
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

namespace vouch::testing {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace bhttp = beast::http;

HttpResponse send(std::uint16_t port, const HttpRequest& request) {
  asio::io_context io;
  beast::tcp_stream stream(io);
  beast::error_code ec;
  stream.expires_after(std::chrono::seconds(30));
  stream.connect(asio::ip::tcp::endpoint(asio::ip::make_address("127.0.0.1"), port), ec);
  if (ec) return {};

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
  bhttp::write(stream, message, ec);
  if (ec) return {};

  beast::flat_buffer buffer;
  bhttp::response_parser<bhttp::string_body> parser;
  parser.body_limit(64 * 1024 * 1024);
  bhttp::read(stream, buffer, parser, ec);
  if (ec) return {};
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
  return response;
}

}  // namespace vouch::testing
