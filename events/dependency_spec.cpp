#include "events/dependency_spec.hpp"

#include <regex>

namespace vouch::events {
namespace {

constexpr std::size_t kMaxSpecLength = 256;
constexpr std::size_t kMaxNameLength = 214;

// node-semver's range grammar (https://github.com/npm/node-semver#range-grammar),
// with the leniencies it accepts: a "v" or "=" before a version, spaces after
// an operator, and "~>".
//   range-set ::= range ( '||' range )*      range ::= hyphen | simple ( ' ' simple )* | ''
//   hyphen    ::= partial ' - ' partial       simple ::= ( op | '~' | '~>' | '^' )? partial
//   partial   ::= xr ( '.' xr ( '.' xr qualifier? )? )?    xr ::= 'x' | 'X' | '*' | nr
const std::string kNumber = "(?:0|[1-9][0-9]{0,15})";
const std::string kXr = "(?:[xX*]|" + kNumber + ")";
const std::string kParts = "[0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*";
const std::string kPartial = "[vV=]?" + kXr + "(?:\\." + kXr + "(?:\\." + kXr + "(?:-" + kParts +
                             ")?(?:\\+" + kParts + ")?)?)?";
const std::string kSimple = "(?:(?:<=|>=|<|>|=|~>|~|\\^) *)?" + kPartial;
const std::string kRange =
    " *(?:" + kPartial + " +- +" + kPartial + "|(?:" + kSimple + "(?: +" + kSimple + ")*)?) *";

bool is_range(std::string_view spec) {
  static const std::regex kRangeSet("^" + kRange + "(?:\\|\\|" + kRange + ")*$");
  return std::regex_match(spec.begin(), spec.end(), kRangeSet);
}

bool is_tag(std::string_view spec) {
  static const std::regex kTag("^[A-Za-z][A-Za-z0-9._-]{0,63}$");
  static const std::regex kTarball(R"(\.(tgz|tar|tar\.gz)$)", std::regex::icase);
  return std::regex_match(spec.begin(), spec.end(), kTag) &&
         !std::regex_search(spec.begin(), spec.end(), kTarball);
}

}  // namespace

std::optional<std::string> invalid_package_name(std::string_view name) {
  static const std::regex kName(R"(^(@[a-z0-9][a-z0-9._~-]*/)?[a-z0-9][a-z0-9._~-]*$)");
  if (name.empty() || name.size() > kMaxNameLength ||
      !std::regex_match(name.begin(), name.end(), kName)) {
    return "is not a valid npm package name";
  }
  // Reserved by npm, and names that are paths in disguise.
  if (name == "node_modules" || name == "favicon.ico") return "is a name npm reserves";
  return std::nullopt;
}

std::optional<std::string> invalid_dependency_spec(std::string_view spec) {
  if (spec.size() <= kMaxSpecLength && (is_range(spec) || is_tag(spec))) return std::nullopt;
  return "must be a version, range or tag from the npm registry (\"^1.2.0\", \"~2\", "
         "\"1.x\", \"latest\"); local paths, tarballs, URLs, git references and aliases are not "
         "allowed";
}

}  // namespace vouch::events
