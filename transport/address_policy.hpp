#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.hpp"

// Which addresses webhook deliveries may connect to (SSRF protection). Only
// public unicast addresses are allowed, unless the operator allows a range
// with --webhook-allow-cidr. Checked on the address actually connected to,
// after DNS resolution.
namespace vouch::transport {

// An IPv4 or IPv6 address in network byte order. IPv4 uses bytes[0..3].
struct IpAddress {
  std::array<std::uint8_t, 16> bytes{};
  bool v4 = true;

  // "10.0.0.1", "::1"; nullopt for anything else.
  static std::optional<IpAddress> parse(std::string_view text);
  std::string to_string() const;
  // For ::ffff:a.b.c.d (IPv4-mapped) the IPv4 address; otherwise itself.
  IpAddress unmapped() const;
};

// "10.0.0.0/8", "::1/128", or a bare address (a /32 or /128).
struct Cidr {
  IpAddress base;
  unsigned prefix = 0;

  static std::optional<Cidr> parse(std::string_view text);
  // Every one of `texts` (the values of the command-line option `option`);
  // kInvalid naming the option and the first text that is not a range.
  static base::Result<std::vector<Cidr>> parse_all(const std::vector<std::string>& texts,
                                                   std::string_view option);
  bool contains(const IpAddress& address) const;
};

// Why `address` is not a public unicast address (loopback, private,
// link-local, CGNAT, multicast, documentation, …), or nullopt when it is.
std::optional<std::string> special_purpose_reason(const IpAddress& address);

class AddressPolicy {
 public:
  AddressPolicy() = default;
  explicit AddressPolicy(std::vector<Cidr> allowed) : allowed_(std::move(allowed)) {}

  // Why a delivery must not connect to `address`, or nullopt when it may.
  std::optional<std::string> refusal(const IpAddress& address) const;

 private:
  std::vector<Cidr> allowed_;
};

}  // namespace vouch::transport
