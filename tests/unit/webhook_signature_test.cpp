#include <gtest/gtest.h>

#include "events/webhook_signature.hpp"

namespace vouch::events {
namespace {

TEST(WebhookSignature, HmacMatchesRfc4231TestCase2) {
  EXPECT_EQ(hmac_sha256_hex("Jefe", "what do ya want for nothing?"),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
}

TEST(WebhookSignature, ServiceSignatureIsHexHmacOverTimestampDotBody) {
  // Computed independently with node:crypto.
  EXPECT_EQ(service_signature("whsec_abc", 1700000000, R"({"a":1})"),
            "3b843bacfb18cc5554542fdcc84d815b399c52758e508a6fcecf0a2af4efea2b");
}

TEST(WebhookSignature, StandardSignatureMatchesTheSpecificationsExample) {
  EXPECT_EQ(standard_signature("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
                               "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, R"({"test": 2432232314})"),
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
  for (const std::string& text : std::vector<std::string>{"", "a", "ab", "abc", "abcd", std::string("\0\xff\x10", 3)}) {
    EXPECT_EQ(base64_decode(base64_encode(text)), text);
  }
  EXPECT_EQ(base64_encode("ab"), "YWI=");
  EXPECT_FALSE(base64_decode("abc").has_value());
  EXPECT_FALSE(base64_decode("a*cd").has_value());
  EXPECT_FALSE(standard_signature("whsec_not base64!", "m", 1, "x").has_value());
}

}  // namespace
}  // namespace vouch::events
