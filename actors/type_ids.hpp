#pragma once

#include <caf/all.hpp>

#include "actors/messages.hpp"
#include "events/project.hpp"
#include "events/result.hpp"
#include "store/event_log.hpp"

// Every type and atom that travels in a CAF message, registered once.
//
// These messages stay inside one process, so they are allowed without
// inspect() overloads; a message that has to cross nodes (remote executors)
// gets a serializable type of its own.
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vouch::events::CreateProject)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vouch::events::UpdateProject)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vouch::events::DeleteProject)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vouch::events::Project)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vouch::store::AppendRequest)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vouch::store::AppendResult)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vouch::events::Error)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vouch::actors::IssueKey)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vouch::actors::IssuedKey)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vouch::actors::RevokeKey)

CAF_BEGIN_TYPE_ID_BLOCK(vouch, caf::first_custom_type_id)

CAF_ADD_TYPE_ID(vouch, (vouch::events::CreateProject))
CAF_ADD_TYPE_ID(vouch, (vouch::events::UpdateProject))
CAF_ADD_TYPE_ID(vouch, (vouch::events::DeleteProject))
CAF_ADD_TYPE_ID(vouch, (vouch::events::Project))
CAF_ADD_TYPE_ID(vouch, (vouch::store::AppendRequest))
CAF_ADD_TYPE_ID(vouch, (vouch::store::AppendResult))
CAF_ADD_TYPE_ID(vouch, (vouch::events::Error))
CAF_ADD_TYPE_ID(vouch, (vouch::actors::IssueKey))
CAF_ADD_TYPE_ID(vouch, (vouch::actors::IssuedKey))
CAF_ADD_TYPE_ID(vouch, (vouch::actors::RevokeKey))

CAF_ADD_ATOM(vouch, vouch::actors, append_atom, "append")
CAF_ADD_ATOM(vouch, vouch::actors, appended_atom, "appended")
CAF_ADD_ATOM(vouch, vouch::actors, idle_atom, "idle")
CAF_ADD_ATOM(vouch, vouch::actors, stop_atom, "stop")

CAF_END_TYPE_ID_BLOCK(vouch)

namespace vouch::actors {

// The typed interfaces between actors. Each actor knows nothing of HTTP.

// Wraps the EventLog's group commit: appends answer when durable.
using event_store_actor =
    caf::typed_actor<caf::replies_to<append_atom, store::AppendRequest>::with<store::AppendResult>,
                     // The writer thread's answer to an earlier append, by ticket.
                     caf::reacts_to<appended_atom, std::uint64_t, store::AppendResult>,
                     caf::reacts_to<appended_atom, std::uint64_t, events::Error>>;

// One per project: serialises that project's commands.
using project_actor =
    caf::typed_actor<caf::replies_to<events::CreateProject>::with<events::Project>,
                     caf::replies_to<events::UpdateProject>::with<events::Project>,
                     caf::replies_to<events::DeleteProject>::with<events::Project>,
                     caf::reacts_to<idle_atom>,   // its own idle timer
                     caf::reacts_to<stop_atom>>;  // from the registry, after the last routed
                                                  // command

// Routes project commands to project actors, spawning them on demand and
// stopping them when idle.
using project_registry_actor =
    caf::typed_actor<caf::replies_to<events::CreateProject>::with<events::Project>,
                     caf::replies_to<events::UpdateProject>::with<events::Project>,
                     caf::replies_to<events::DeleteProject>::with<events::Project>,
                     caf::reacts_to<idle_atom, std::string>>;  // a project actor asks to stop

// Serialises account and API-key commands (rare: operator actions).
using account_actor = caf::typed_actor<caf::replies_to<IssueKey>::with<IssuedKey>,
                                       caf::replies_to<RevokeKey>::with<bool>>;

}  // namespace vouch::actors
