#include "events/webhook_signature.hpp"

#include <gtest/gtest.h>

namespace vouch::events {
namespace {

TEST(WebhookSignature, HmacMatchesRfc4231TestCase2) {
  EXPECT_EQ(hmac_sha256_hex("Jefe", "what do ya want for nothing?"),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
}

// One context per thread is re-keyed for every signature: alternating keys,
// a short one and one longer than SHA-256's block, must each give RFC 4231's
// answer.
TEST(WebhookSignature, ReKeyingGivesEachKeysHmac) {
  const std::string short_key(20, '\x0b');
  const std::string long_key(131, '\xaa');
  for (int round = 0; round < 3; ++round) {
    EXPECT_EQ(hmac_sha256_hex(short_key, "Hi There"),
              "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
    EXPECT_EQ(hmac_sha256_hex(long_key, "Test Using Larger Than Block-Size Key - Hash Key First"),
              "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
    EXPECT_EQ(hmac_sha256_hex("Jefe", "what do ya want for nothing?"),
              "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  }
}

TEST(WebhookSignature, ServiceSignatureIsHexHmacOverTimestampDotBody) {
  // Computed independently with node:crypto.
  EXPECT_EQ(service_signature("whsec_abc", 1700000000, R"({"a":1})"),
            "3b843bacfb18cc5554542fdcc84d815b399c52758e508a6fcecf0a2af4efea2b");
}

TEST(WebhookSignature, StandardSignatureMatchesTheSpecificationsExample) {
  EXPECT_EQ(
      standard_signature("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "msg_p5jXN8AQM9LWM0D4loKWxJek",
                         1614265330, R"({"test": 2432232314})"),
      "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
}

TEST(WebhookSignature, AChangedBodyChangesBothSignatures) {
  EXPECT_NE(service_signature("whsec_abc", 1700000000, R"({"a":2})"),
            service_signature("whsec_abc", 1700000000, R"({"a":1})"));
  EXPECT_NE(standard_signature("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "m", 1, "x"),
            standard_signature("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "m", 1, "y"));
}

TEST(WebhookSignature, SecretsAreWhsecAndBase64Of24Bytes) {
  const auto secret = new_webhook_secret();
  ASSERT_EQ(secret.rfind("whsec_", 0), 0u);
  const auto key = base64_decode(secret.substr(6));
  ASSERT_TRUE(key.has_value());
  EXPECT_EQ(key->size(), 24u);
  EXPECT_NE(new_webhook_secret(), secret);
}

TEST(WebhookSignature, Base64RoundTripsAndRejectsGarbage) {
  for (const std::string& text :
       std::vector<std::string>{"", "a", "ab", "abc", "abcd", std::string("\0\xff\x10", 3)}) {
    EXPECT_EQ(base64_decode(base64_encode(text)), text);
  }
  EXPECT_EQ(base64_encode("ab"), "YWI=");
  EXPECT_FALSE(base64_decode("abc").has_value());
  EXPECT_FALSE(base64_decode("a*cd").has_value());
  EXPECT_FALSE(standard_signature("whsec_not base64!", "m", 1, "x").has_value());
}

}  // namespace
}  // namespace vouch::events
