#include "receiver_process.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include "http_client.hpp"
#include "vouchd_process.hpp"

namespace vouch::testing {

ReceiverProcess::ReceiverProcess(std::vector<std::string> extra_args) {
  std::vector<std::string> args{"node", WEBHOOK_RECEIVER_JS};
  // With VOUCH_EXCHANGE_LOG (inherited), the receiver logs each delivery under this test's name.
  if (const auto* info = ::testing::UnitTest::GetInstance()->current_test_info()) {
    args.insert(args.end(), {"--test", std::string(info->test_suite_name()) + "." + info->name()});
  }
  args.insert(args.end(), extra_args.begin(), extra_args.end());
  auto child = start_child(std::move(args), "", "listening on ");
  pid_ = child.pid;
  const auto& text = child.line;
  if (text.rfind("listening on ", 0) == 0) {
    port_ = static_cast<std::uint16_t>(std::stoi(text.substr(13)));
    const auto control = text.find(" control ");
    if (control != std::string::npos) {
      control_port_ = static_cast<std::uint16_t>(std::stoi(text.substr(control + 9)));
    }
  }
  if (port_ == 0 || control_port_ == 0) ADD_FAILURE() << "the receiver did not print its ports";
}

ReceiverProcess::~ReceiverProcess() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGKILL);
  int status = 0;
  waitpid(pid_, &status, 0);
}

boost::json::array ReceiverProcess::requests(const std::string& name) const {
  HttpRequest request;
  request.target = "/_requests?name=" + name;
  request.to_vouchd = false;
  auto response = send(control_port_, request);
  boost::system::error_code ec;
  auto value = boost::json::parse(response.body, ec);
  if (ec || !value.is_array()) return {};
  return value.get_array();
}

boost::json::array ReceiverProcess::verify(const std::string& name,
                                           const std::vector<std::string>& secrets) const {
  boost::json::array list;
  for (const auto& secret : secrets) list.emplace_back(secret);
  HttpRequest request;
  request.method = "POST";
  request.target = "/_verify";
  request.to_vouchd = false;
  request.body = boost::json::serialize(boost::json::object{{"name", name}, {"secrets", list}});
  auto response = send(control_port_, request);
  boost::system::error_code ec;
  auto value = boost::json::parse(response.body, ec);
  if (ec || !value.is_array()) return {};
  return value.get_array();
}

}  // namespace vouch::testing
