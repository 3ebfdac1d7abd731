#pragma once

#include "http/router.hpp"

namespace vouch::http {

// The browser console, public routes that serve only the compiled-in assets:
//   GET /console            redirects to /console/
//   GET /console/           index.html
//   GET /console/{path*}    an asset, or 404
// Every answer carries a strict Content-Security-Policy (scripts and styles from
// the console's own files only, no inline script, no eval, no framing) and
// X-Frame-Options: DENY. The console itself speaks only the public API.
void add_console_routes(Router& router);

}  // namespace vouch::http
