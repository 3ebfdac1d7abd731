#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace vouch::events {

// The dependencies a package.json asks npm to install, read as npm reads
// them (normalize-package-data's rules): `dependencies` and
// `optionalDependencies` as an object of name -> spec, or in the legacy shapes
// npm still accepts, an array of "name@spec" strings or one string of them
// separated by spaces or commas (a bare name's spec is ""). Entries whose spec
// is not a string are left out, as npm leaves them out. A text that is not a
// JSON object has none. Names and specs are not checked here (see
// dependency_spec.hpp).
std::vector<std::pair<std::string, std::string>> normalized_dependencies(
    std::string_view package_json);

}  // namespace vouch::events
