// The one parser of HOST:PORT addresses (--listen, --workers-listen, --connect).
#include <gtest/gtest.h>

#include "actors/cluster/network.hpp"

namespace vouch::actors {
namespace {

std::pair<std::string, std::uint16_t> parsed(std::string_view text) {
  auto address = parse_host_port(text);
  EXPECT_TRUE(address) << text << ": " << address.error().message;
  return address ? *address : std::pair<std::string, std::uint16_t>{};
}

std::string refusal(std::string_view text) {
  auto address = parse_host_port(text);
  EXPECT_FALSE(address) << text << " was taken as " << address->first << " " << address->second;
  return address ? std::string() : address.error().message;
}

TEST(HostPort, ParsesAHostAndADecimalPort) {
  EXPECT_EQ(parsed("127.0.0.1:8080"), (std::pair<std::string, std::uint16_t>{"127.0.0.1", 8080}));
  EXPECT_EQ(parsed("localhost:0"), (std::pair<std::string, std::uint16_t>{"localhost", 0}));
  EXPECT_EQ(parsed("0.0.0.0:65535"), (std::pair<std::string, std::uint16_t>{"0.0.0.0", 65535}));
  EXPECT_EQ(parsed("h:00080"), (std::pair<std::string, std::uint16_t>{"h", 80}));
}

TEST(HostPort, TakesAnIpv6HostInBrackets) {
  EXPECT_EQ(parsed("[::1]:9000"), (std::pair<std::string, std::uint16_t>{"::1", 9000}));
  EXPECT_NE(refusal("::1:9000").find("brackets"), std::string::npos);
  EXPECT_NE(refusal("[::1:9000").find("unclosed"), std::string::npos);
  refusal("[]:9000");
}

TEST(HostPort, RefusesAPortThatIsNotZeroTo65535InDigits) {
  for (const char* text : {"host:abc", "host:", "host:80a", "host:-1", "host:+80", "host: 80",
                           "host:65536", "host:99999999999999999999", "host:8080 ", "host:0x50"}) {
    EXPECT_NE(refusal(text).find("the port must be 0 to 65535"), std::string::npos) << text;
  }
}

TEST(HostPort, RefusesAMissingHostOrPort) {
  EXPECT_NE(refusal("8080").find("no port"), std::string::npos);
  EXPECT_NE(refusal("").find("no port"), std::string::npos);
  EXPECT_NE(refusal(":8080").find("no host"), std::string::npos);
  EXPECT_NE(refusal("a b:80").find("a bad host"), std::string::npos);
  EXPECT_NE(refusal("user@host:80").find("a bad host"), std::string::npos);
}

TEST(HostPort, NamesTheTextItRefuses) {
  EXPECT_EQ(refusal("host:abc"), "\"host:abc\" is not HOST:PORT (the port must be 0 to 65535)");
}

}  // namespace
}  // namespace vouch::actors
