#pragma once

#include <tuple>

#include "events/json_fields.hpp"
#include "events/owned_resource.hpp"

// The stored fields of the shared lifecycle events (events/owned_resource.hpp).
namespace vouch::events::json_access {

// Updated<Changes>: "id", "at", and the changes' own fields beside them
// (`changes_fields`), only those present.
template <class Changes, class ChangesFields>
constexpr auto updated_fields(ChangesFields changes_fields) {
  return std::make_tuple(field("id", &Updated<Changes>::id), field("at", &Updated<Changes>::at),
                         inline_fields(&Updated<Changes>::changes, changes_fields));
}

// Deleted<Record>: "id" and "at".
template <class Record>
constexpr auto deleted_fields() {
  return std::make_tuple(field("id", &Deleted<Record>::id), field("at", &Deleted<Record>::at));
}

}  // namespace vouch::events::json_access
