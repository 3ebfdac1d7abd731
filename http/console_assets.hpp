#pragma once

#include <span>
#include <string_view>

namespace vouch::http {

// A file of the browser console (console/ and its pinned vendored libraries),
// compiled into vouchd at build time by cmake/embed_console.cmake.
struct ConsoleAsset {
  std::string_view path;  // below /console/, e.g. "app/main.js", "vendor/htm-preact.js"
  std::string_view body;
};

// Every asset, in no particular order; the storage is static.
std::span<const ConsoleAsset> console_assets();

}  // namespace vouch::http
