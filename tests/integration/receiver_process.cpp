#include "receiver_process.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <cstdio>
#include <thread>

#include "http_client.hpp"

namespace vouch::testing {

ReceiverProcess::ReceiverProcess(std::vector<std::string> extra_args) {
  int out[2];
  if (pipe(out) != 0) {
    ADD_FAILURE() << "pipe failed";
    return;
  }
  std::vector<std::string> args{"node", WEBHOOK_RECEIVER_JS};
  args.insert(args.end(), extra_args.begin(), extra_args.end());
  pid_ = fork();
  if (pid_ == 0) {
    dup2(out[1], STDOUT_FILENO);
    close(out[0]);
    close(out[1]);
    std::vector<char*> argv;
    for (auto& arg : args) argv.push_back(arg.data());
    argv.push_back(nullptr);
    execvp("node", argv.data());
    _exit(127);
  }
  close(out[1]);
  FILE* stream = fdopen(out[0], "r");
  char line[256];
  while (fgets(line, sizeof line, stream)) {
    const std::string text(line);
    if (text.rfind("listening on ", 0) == 0) {
      port_ = static_cast<std::uint16_t>(std::stoi(text.substr(13)));
      const auto control = text.find(" control ");
      if (control != std::string::npos) {
        control_port_ = static_cast<std::uint16_t>(std::stoi(text.substr(control + 9)));
      }
      break;
    }
  }
  std::thread([stream] {
    char rest[256];
    while (fgets(rest, sizeof rest, stream)) {
    }
    fclose(stream);
  }).detach();
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
  request.body = boost::json::serialize(boost::json::object{{"name", name}, {"secrets", list}});
  auto response = send(control_port_, request);
  boost::system::error_code ec;
  auto value = boost::json::parse(response.body, ec);
  if (ec || !value.is_array()) return {};
  return value.get_array();
}

}  // namespace vouch::testing
