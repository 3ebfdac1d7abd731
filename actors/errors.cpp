#include "actors/errors.hpp"

#include "actors/type_ids.hpp"

namespace vouch::actors {
namespace {

constexpr caf::atom_value kCategory = caf::atom("vouch");

}  // namespace

caf::error to_caf_error(base::Error error) {
  const auto code = static_cast<std::uint8_t>(static_cast<int>(error.code) + 1);
  return caf::error(code, kCategory, caf::make_message(std::move(error)));
}

base::Error from_caf_error(const caf::error& error) {
  if (error.category() == kCategory && error.context().match_elements<base::Error>()) {
    return error.context().get_as<base::Error>(0);
  }
  if (error == caf::sec::request_timeout) {
    return base::Error::unavailable("the request timed out inside the service");
  }
  return base::Error::unavailable("the service could not complete the request (" +
                                  caf::to_string(error) + ")");
}

}  // namespace vouch::actors
