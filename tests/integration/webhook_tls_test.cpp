#include <gtest/gtest.h>

#include <cstdlib>

#include "webhook_fixture.hpp"

namespace vouch::testing {
namespace {

// A CA and a server certificate for DNS:localhost only, made with the openssl CLI.
struct TestPki {
  explicit TestPki(const std::filesystem::path& folder) : folder(folder) {
    const std::string dir = folder.string();
    const std::string script =
        "cd '" + dir +
        "' && "
        "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes "
        "-keyout ca.key -out ca.pem -days 2 -subj '/CN=Vouch Test CA' && "
        "openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes "
        "-keyout server.key -out server.csr -subj '/CN=localhost' && "
        "printf 'subjectAltName=DNS:localhost\\nbasicConstraints=CA:FALSE\\n' > ext.cnf && "
        "openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial "
        "-out server.pem -days 2 -extfile ext.cnf";
    ok = std::system(("(" + script + ") >/dev/null 2>&1").c_str()) == 0;
  }
  std::filesystem::path folder;
  bool ok = false;
};

class WebhookTls : public WebhookTest {
 protected:
  std::string https_url(const std::string& host, const std::string& name) const {
    return "https://" + host + ":" + std::to_string(receiver_->port()) + "/h/" + name;
  }
};

TEST_F(WebhookTls, CertificateAndHostNameAreVerifiedAgainstTheGivenCa) {
  TestPki pki(folder_.path());
  ASSERT_TRUE(pki.ok) << "openssl could not make the test certificates";
  start({"--webhook-allow-cidr", "127.0.0.0/8", "--webhook-allow-cidr", "::1/128",
         "--webhook-retry-scale", "0.001", "--webhook-ca", (pki.folder / "ca.pem").string()},
        {"--cert", (pki.folder / "server.pem").string(), "--key",
         (pki.folder / "server.key").string()});
  const auto good = create_webhook(https_url("localhost", "tls"), R"(["*"])");
  // The certificate names localhost, not 127.0.0.1: the host name check refuses it.
  const auto wrong_name = create_webhook(https_url("127.0.0.1", "tls-ip"), R"(["*"])");
  create_project("one");
  create_project("two");
  ASSERT_TRUE(wait_until([&] { return receiver_->requests("tls").size() == 2; }));
  auto checks = receiver_->verify("tls", {good.secret});
  ASSERT_EQ(checks.size(), 2u);
  for (const auto& check : checks) {
    const auto& result = check.as_object().at("checks").as_array()[0].as_object();
    EXPECT_TRUE(result.at("service").as_bool());
    EXPECT_TRUE(result.at("standard").as_bool());
  }
  ASSERT_TRUE(wait_until([&] { return deliveries(wrong_name.id).size() >= 2; }));
  auto entry = deliveries(wrong_name.id).back().as_object();
  EXPECT_EQ(entry.at("status").as_int64(), 0);
  EXPECT_NE(str(entry.at("error")).find("TLS handshake failed"), std::string::npos)
      << str(entry.at("error"));
  EXPECT_EQ(receiver_->requests("tls-ip").size(), 0u);
}

TEST_F(WebhookTls, AnUnknownCaIsRefused) {
  TestPki pki(folder_.path());
  ASSERT_TRUE(pki.ok);
  start({"--webhook-allow-cidr", "127.0.0.0/8", "--webhook-allow-cidr", "::1/128",
         "--webhook-retry-scale", "0.001"},
        {"--cert", (pki.folder / "server.pem").string(), "--key",
         (pki.folder / "server.key").string()});
  const auto hook = create_webhook(https_url("localhost", "untrusted"), R"(["*"])");
  create_project();
  ASSERT_TRUE(wait_until([&] { return !deliveries(hook.id).empty(); }));
  auto entry = deliveries(hook.id).back().as_object();
  EXPECT_EQ(entry.at("status").as_int64(), 0);
  EXPECT_NE(str(entry.at("error")).find("certificate verify failed"), std::string::npos)
      << str(entry.at("error"));
  EXPECT_FALSE(entry.at("nextAttempt").is_null());  // a connection error: retried
  EXPECT_EQ(receiver_->requests("untrusted").size(), 0u);
}

TEST(WebhookSettings, AnUnreadableCaFileStopsTheStart) {
  TempFolder folder;
  const auto key_file = (folder.path() / "secrets.key").string();
  auto result = run_vouchd({"--data", (folder.path() / "data").string(), "--listen", "127.0.0.1:0",
                            "--secrets-key-file", key_file, "--webhook-ca",
                            (folder.path() / "nope.pem").string()});
  EXPECT_NE(result.status, 0);
  auto bad_cidr =
      run_vouchd({"--data", (folder.path() / "data").string(), "--listen", "127.0.0.1:0",
                  "--secrets-key-file", key_file, "--webhook-allow-cidr", "10.0.0.0/99"});
  EXPECT_EQ(bad_cidr.status, 2);
}

}  // namespace
}  // namespace vouch::testing
