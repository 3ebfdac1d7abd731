#include "transport/address_policy.hpp"

#include <gtest/gtest.h>

#include <utility>

namespace vouch::transport {
namespace {

IpAddress ip(const char* text) {
  auto parsed = IpAddress::parse(text);
  EXPECT_TRUE(parsed.has_value()) << text;
  return parsed.value_or(IpAddress{});
}

TEST(AddressPolicy, ReservedRangesAreNamedIncludingMappedIpv4) {
  const std::pair<const char*, const char*> cases[] = {
      {"127.0.0.1", "loopback"},
      {"10.1.2.3", "private"},
      {"172.16.0.1", "private"},
      {"172.31.255.255", "private"},
      {"192.168.1.1", "private"},
      {"169.254.169.254", "link-local"},
      {"100.64.0.1", "CGNAT"},
      {"224.0.0.1", "multicast"},
      {"0.0.0.0", "this network"},
      {"255.255.255.255", "reserved"},
      {"198.18.0.1", "benchmarking"},
      {"192.0.2.10", "documentation"},
      {"::1", "loopback"},
      {"::", "unspecified"},
      {"fe80::1", "link-local"},
      {"fd00::1", "unique-local"},
      {"ff02::1", "multicast"},
      {"2001:db8::1", "documentation"},
      {"::ffff:127.0.0.1", "loopback"},
      {"::ffff:10.0.0.1", "private"},
  };
  for (const auto& [address, range] : cases) {
    const auto reason = special_purpose_reason(ip(address)).value_or("");
    EXPECT_NE(reason.find(range), std::string::npos) << address << ": " << reason;
  }
}

TEST(AddressPolicy, PublicAddressesAreAllowed) {
  for (const char* text : {"8.8.8.8", "1.1.1.1", "172.32.0.1", "100.128.0.1", "93.184.216.34",
                           "2606:4700:4700::1111", "2a00:1450:4001:80b::200e", "::ffff:8.8.8.8"}) {
    EXPECT_FALSE(special_purpose_reason(ip(text)).has_value()) << text;
  }
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
}  // namespace vouch::transport
