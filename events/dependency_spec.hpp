#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace vouch::events {

// Dependencies of a run or a generation are data, never paths: a package
// name from the npm registry and a version, range or dist-tag of it.
//
// npm reads a dependency spec as a local folder or tarball (".", "..",
// "./x", "~/x", "x.tgz", "x.tar"), a URL, a git or GitHub reference
// ("user/repo", "git+ssh:…", "github:…") or an alias ("npm:other@1"), and only
// otherwise as a registry spec (npm-package-arg's types "version", "range",
// "tag"). The first kinds would read the server's files or fetch from
// anywhere; these rules accept a subset of the registry kinds only:
// - a semver range in node-semver's grammar (which covers exact versions),
//   e.g. "^1.2.0", "~2", "1.x", ">=1 <2 || 3.0.0 - 3.2", "*", "";
// - a dist-tag: a letter, then letters, digits, '.', '_' or '-' (npm's tags
//   are URL-safe names), not ending as a tarball name does.
// The runner's tests check that npm-package-arg gives every spec accepted
// here one of the registry types.

// Why `name` is not an npm package name (npm's rules for new packages:
// lowercase, URL-safe, at most 214 characters, optionally scoped), or nullopt.
std::optional<std::string> invalid_package_name(std::string_view name);

// Why `spec` is not a registry version, range or tag, or nullopt.
std::optional<std::string> invalid_dependency_spec(std::string_view spec);

}  // namespace vouch::events
