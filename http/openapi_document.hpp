#pragma once

#include <string_view>

namespace vouch {

// The text of docs/openapi.json, compiled in at build time
// (cmake/embed_text.cmake); GET /v1/openapi.json answers it.
std::string_view openapi_document();

}  // namespace vouch
