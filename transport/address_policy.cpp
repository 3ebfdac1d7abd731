#include "transport/address_policy.hpp"

#include <arpa/inet.h>

#include <charconv>

namespace vouch::transport {
namespace {

struct Range {
  const char* cidr;
  const char* what;
};

// IANA special-purpose registries (RFC 6890 and successors), IPv4 and IPv6.
constexpr Range kSpecialRanges[] = {
    {"0.0.0.0/8", "a \"this network\" address"},
    {"10.0.0.0/8", "a private address"},
    {"100.64.0.0/10", "a shared (CGNAT) address"},
    {"127.0.0.0/8", "a loopback address"},
    {"169.254.0.0/16", "a link-local address"},
    {"172.16.0.0/12", "a private address"},
    {"192.0.0.0/24", "an IETF protocol address"},
    {"192.0.2.0/24", "a documentation address"},
    {"192.88.99.0/24", "a 6to4 relay address"},
    {"192.168.0.0/16", "a private address"},
    {"198.18.0.0/15", "a benchmarking address"},
    {"198.51.100.0/24", "a documentation address"},
    {"203.0.113.0/24", "a documentation address"},
    {"224.0.0.0/4", "a multicast address"},
    {"240.0.0.0/4", "a reserved address"},
    {"::/128", "the unspecified address"},
    {"::1/128", "a loopback address"},
    {"64:ff9b::/96", "a NAT64 address"},
    {"64:ff9b:1::/48", "a NAT64 address"},
    {"100::/64", "a discard-only address"},
    {"2001::/23", "an IETF protocol address"},
    {"2001:db8::/32", "a documentation address"},
    {"2002::/16", "a 6to4 address"},
    {"fc00::/7", "a unique-local (private) address"},
    {"fe80::/10", "a link-local address"},
    {"fec0::/10", "a site-local address"},
    {"ff00::/8", "a multicast address"},
};

const std::vector<std::pair<Cidr, const char*>>& special_ranges() {
  static const auto kRanges = [] {
    std::vector<std::pair<Cidr, const char*>> out;
    for (const auto& range : kSpecialRanges) out.emplace_back(*Cidr::parse(range.cidr), range.what);
    return out;
  }();
  return kRanges;
}

}  // namespace

std::optional<IpAddress> IpAddress::parse(std::string_view text) {
  const std::string copy(text);
  IpAddress address;
  if (inet_pton(AF_INET, copy.c_str(), address.bytes.data()) == 1) {
    address.v4 = true;
    return address;
  }
  if (inet_pton(AF_INET6, copy.c_str(), address.bytes.data()) == 1) {
    address.v4 = false;
    return address;
  }
  return std::nullopt;
}

std::string IpAddress::to_string() const {
  char buffer[INET6_ADDRSTRLEN] = {};
  inet_ntop(v4 ? AF_INET : AF_INET6, bytes.data(), buffer, sizeof buffer);
  return buffer;
}

IpAddress IpAddress::unmapped() const {
  if (v4) return *this;
  for (int i = 0; i < 10; ++i) {
    if (bytes[i] != 0) return *this;
  }
  if (bytes[10] != 0xff || bytes[11] != 0xff) return *this;
  IpAddress out;
  out.v4 = true;
  for (int i = 0; i < 4; ++i) out.bytes[i] = bytes[12 + i];
  return out;
}

std::optional<Cidr> Cidr::parse(std::string_view text) {
  const auto slash = text.find('/');
  auto base = IpAddress::parse(text.substr(0, slash));
  if (!base) return std::nullopt;
  const unsigned width = base->v4 ? 32 : 128;
  unsigned prefix = width;
  if (slash != std::string_view::npos) {
    const auto digits = text.substr(slash + 1);
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), prefix);
    if (ec != std::errc() || end != digits.data() + digits.size() || prefix > width) {
      return std::nullopt;
    }
  }
  return Cidr{*base, prefix};
}

base::Result<std::vector<Cidr>> Cidr::parse_all(const std::vector<std::string>& texts,
                                                std::string_view option) {
  std::vector<Cidr> out;
  for (const auto& text : texts) {
    auto cidr = parse(text);
    if (!cidr) {
      return base::Error::invalid(std::string(option) + " " + text +
                                  " is not an address or ADDRESS/PREFIX");
    }
    out.push_back(*cidr);
  }
  return out;
}

bool Cidr::contains(const IpAddress& address) const {
  if (address.v4 != base.v4) return false;
  unsigned bits = prefix;
  for (std::size_t i = 0; bits > 0; ++i) {
    const unsigned take = bits >= 8 ? 8 : bits;
    const std::uint8_t mask = static_cast<std::uint8_t>(0xff << (8 - take));
    if ((address.bytes[i] & mask) != (base.bytes[i] & mask)) return false;
    bits -= take;
  }
  return true;
}

std::optional<std::string> special_purpose_reason(const IpAddress& address) {
  const IpAddress plain = address.unmapped();
  for (const auto& [range, what] : special_ranges()) {
    if (range.contains(plain)) return plain.to_string() + " is " + what;
  }
  return std::nullopt;
}

std::optional<std::string> AddressPolicy::refusal(const IpAddress& address) const {
  auto reason = special_purpose_reason(address);
  if (!reason) return std::nullopt;
  const IpAddress plain = address.unmapped();
  for (const auto& cidr : allowed_) {
    if (cidr.contains(plain) || cidr.contains(address)) return std::nullopt;
  }
  return *reason + "; deliveries to it are refused unless --webhook-allow-cidr allows it";
}

}  // namespace vouch::transport
