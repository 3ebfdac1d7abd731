#include "actors/delivery/address_policy.hpp"

#include <gtest/gtest.h>

namespace vouch::actors {
namespace {

IpAddress ip(const char* text) {
  auto parsed = IpAddress::parse(text);
  EXPECT_TRUE(parsed.has_value()) << text;
  return parsed.value_or(IpAddress{});
}

std::string reason(const char* text) { return special_purpose_reason(ip(text)).value_or(""); }

TEST(AddressPolicy, ReservedIpv4RangesAreNamed) {
  EXPECT_NE(reason("127.0.0.1").find("loopback"), std::string::npos);
  EXPECT_NE(reason("10.1.2.3").find("private"), std::string::npos);
  EXPECT_NE(reason("172.16.0.1").find("private"), std::string::npos);
  EXPECT_NE(reason("172.31.255.255").find("private"), std::string::npos);
  EXPECT_NE(reason("192.168.1.1").find("private"), std::string::npos);
  EXPECT_NE(reason("169.254.169.254").find("link-local"), std::string::npos);
  EXPECT_NE(reason("100.64.0.1").find("CGNAT"), std::string::npos);
  EXPECT_NE(reason("224.0.0.1").find("multicast"), std::string::npos);
  EXPECT_NE(reason("0.0.0.0").find("this network"), std::string::npos);
  EXPECT_NE(reason("255.255.255.255").find("reserved"), std::string::npos);
  EXPECT_NE(reason("198.18.0.1").find("benchmarking"), std::string::npos);
  EXPECT_NE(reason("192.0.2.10").find("documentation"), std::string::npos);
}

TEST(AddressPolicy, PublicAddressesAreAllowed) {
  for (const char* text : {"8.8.8.8", "1.1.1.1", "172.32.0.1", "100.128.0.1", "93.184.216.34",
                           "2606:4700:4700::1111", "2a00:1450:4001:80b::200e"}) {
    EXPECT_FALSE(special_purpose_reason(ip(text)).has_value()) << text;
  }
}

TEST(AddressPolicy, ReservedIpv6RangesAreNamedIncludingMappedIpv4) {
  EXPECT_NE(reason("::1").find("loopback"), std::string::npos);
  EXPECT_NE(reason("::").find("unspecified"), std::string::npos);
  EXPECT_NE(reason("fe80::1").find("link-local"), std::string::npos);
  EXPECT_NE(reason("fd00::1").find("unique-local"), std::string::npos);
  EXPECT_NE(reason("ff02::1").find("multicast"), std::string::npos);
  EXPECT_NE(reason("2001:db8::1").find("documentation"), std::string::npos);
  EXPECT_NE(reason("::ffff:127.0.0.1").find("loopback"), std::string::npos);
  EXPECT_NE(reason("::ffff:10.0.0.1").find("private"), std::string::npos);
  EXPECT_FALSE(special_purpose_reason(ip("::ffff:8.8.8.8")).has_value());
}

TEST(AddressPolicy, AllowListOpensOnlyItsRanges) {
  const AddressPolicy strict;
  EXPECT_TRUE(strict.refusal(ip("127.0.0.1")).has_value());
  EXPECT_NE(strict.refusal(ip("127.0.0.1"))->find("--webhook-allow-cidr"), std::string::npos);
  EXPECT_FALSE(strict.refusal(ip("8.8.8.8")).has_value());

  const AddressPolicy local({*Cidr::parse("127.0.0.0/8"), *Cidr::parse("fd00::/8")});
  EXPECT_FALSE(local.refusal(ip("127.0.0.1")).has_value());
  EXPECT_FALSE(local.refusal(ip("127.9.9.9")).has_value());
  EXPECT_FALSE(local.refusal(ip("::ffff:127.0.0.1")).has_value());
  EXPECT_FALSE(local.refusal(ip("fd12::1")).has_value());
  EXPECT_TRUE(local.refusal(ip("10.0.0.1")).has_value());
  EXPECT_TRUE(local.refusal(ip("::1")).has_value());
}

TEST(Cidr, ParsesAndContains) {
  EXPECT_FALSE(Cidr::parse("10.0.0.0/33").has_value());
  EXPECT_FALSE(Cidr::parse("nonsense").has_value());
  EXPECT_FALSE(Cidr::parse("10.0.0.0/x").has_value());
  const auto single = Cidr::parse("192.168.1.7");
  ASSERT_TRUE(single.has_value());
  EXPECT_EQ(single->prefix, 32u);
  EXPECT_TRUE(single->contains(ip("192.168.1.7")));
  EXPECT_FALSE(single->contains(ip("192.168.1.8")));
  const auto odd = Cidr::parse("10.0.0.0/9");
  EXPECT_TRUE(odd->contains(ip("10.127.255.255")));
  EXPECT_FALSE(odd->contains(ip("10.128.0.0")));
  EXPECT_FALSE(Cidr::parse("::/0")->contains(ip("1.2.3.4")));  // families never mix
}

}  // namespace
}  // namespace vouch::actors
