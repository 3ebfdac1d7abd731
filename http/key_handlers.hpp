#pragma once

#include <boost/json/object.hpp>

#include "actors/service.hpp"
#include "http/router.hpp"

namespace vouch::http {

// POST /v1/keys and DELETE /v1/keys/{id}, for holders of the admin scope.
// REQUIRES: `service` outlives the router.
void add_key_routes(Router& router, actors::Service& service);

// The API's view of a freshly issued key; the only answer holding the secret.
boost::json::object to_json(const actors::IssuedKey& issued);

}  // namespace vouch::http
