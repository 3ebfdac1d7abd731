#pragma once

#include <caf/all.hpp>

#include "actors/cluster/worker_messages.hpp"
#include "actors/delivery/webhook_messages.hpp"
#include "actors/execution/warm_runner.hpp"
#include "actors/messages.hpp"
#include "base/result.hpp"
#include "events/project.hpp"
#include "events/webhook.hpp"
#include "store/event_log.hpp"

// Every type and atom that travels in a CAF message, registered once.
//
// The messages of VOUCH_IN_PROCESS_MESSAGES stay inside one process, so they
// are allowed without inspect() overloads; the messages that cross nodes (to
// and from workers, actors/cluster/worker_messages.hpp) have inspect()
// overloads and are registered after them.
#define VOUCH_IN_PROCESS_MESSAGES(X)    \
  X(vouch::events::CreateProject)       \
  X(vouch::events::UpdateProject)       \
  X(vouch::events::DeleteProject)       \
  X(vouch::events::ImportProject)       \
  X(vouch::events::Project)             \
  X(vouch::store::AppendRequest)        \
  X(vouch::store::AppendResult)         \
  X(vouch::base::Error)                 \
  X(vouch::actors::IssueKey)            \
  X(vouch::actors::IssuedKey)           \
  X(vouch::actors::RevokeKey)           \
  X(vouch::actors::GenerateTests)       \
  X(vouch::actors::StartRun)            \
  X(vouch::actors::WarmRunner)          \
  X(vouch::actors::RunnerStart)         \
  X(vouch::actors::GenerationOutcome)   \
  X(vouch::actors::InstallOutcome)      \
  X(vouch::events::GeneratedTest)       \
  X(vouch::events::TestRun)             \
  X(vouch::events::RunReport)           \
  /* Webhooks. */                       \
  X(vouch::events::CreateWebhook)       \
  X(vouch::events::UpdateWebhook)       \
  X(vouch::events::DeleteWebhook)       \
  X(vouch::events::RotateWebhookSecret) \
  X(vouch::events::Webhook)             \
  X(vouch::actors::DeliverEvents)       \
  X(vouch::actors::RetryDelivery)       \
  X(vouch::actors::RedeliverWebhook)    \
  X(vouch::actors::RedeliveryQueued)    \
  X(vouch::actors::AttemptFinished)

#define VOUCH_ADD_TYPE_ID(type) CAF_ADD_TYPE_ID(vouch, (type))

VOUCH_IN_PROCESS_MESSAGES(CAF_ALLOW_UNSAFE_MESSAGE_TYPE)

CAF_BEGIN_TYPE_ID_BLOCK(vouch, caf::first_custom_type_id)

VOUCH_IN_PROCESS_MESSAGES(VOUCH_ADD_TYPE_ID)

CAF_ADD_ATOM(vouch, vouch::actors, append_atom, "append")
CAF_ADD_ATOM(vouch, vouch::actors, appended_atom, "appended")
CAF_ADD_ATOM(vouch, vouch::actors, idle_atom, "idle")
CAF_ADD_ATOM(vouch, vouch::actors, stop_atom, "stop")
CAF_ADD_ATOM(vouch, vouch::actors, generated_atom, "generated")
CAF_ADD_ATOM(vouch, vouch::actors, expired_atom, "expired")
CAF_ADD_ATOM(vouch, vouch::actors, acquire_atom, "acquire")
CAF_ADD_ATOM(vouch, vouch::actors, release_atom, "release")
CAF_ADD_ATOM(vouch, vouch::actors, ready_atom, "ready")
CAF_ADD_ATOM(vouch, vouch::actors, install_atom, "install")
CAF_ADD_ATOM(vouch, vouch::actors, installed_atom, "installed")
CAF_ADD_ATOM(vouch, vouch::actors, finish_atom, "finish")
CAF_ADD_ATOM(vouch, vouch::actors, report_atom, "report")
CAF_ADD_ATOM(vouch, vouch::actors, await_end_atom, "awaitend")
CAF_ADD_ATOM(vouch, vouch::actors, release_all_atom, "releaseall")
CAF_ADD_ATOM(vouch, vouch::actors, async_atom, "async")
CAF_ADD_ATOM(vouch, vouch::actors, progress_atom, "progress")

// Workers (actors/cluster/): these cross machines, with inspect() overloads.
CAF_ADD_TYPE_ID(vouch, (vouch::events::RunEnvironment))
CAF_ADD_TYPE_ID(vouch, (vouch::actors::GenerationTask))
CAF_ADD_TYPE_ID(vouch, (vouch::actors::GenerationDone))
CAF_ADD_TYPE_ID(vouch, (vouch::actors::RunTask))
CAF_ADD_TYPE_ID(vouch, (vouch::actors::RunDone))
CAF_ADD_TYPE_ID(vouch, (vouch::actors::WorkerOffer))
CAF_ADD_TYPE_ID(vouch, (vouch::actors::GenerationProgress))
CAF_ADD_ATOM(vouch, vouch::actors, join_atom, "join")
CAF_ADD_ATOM(vouch, vouch::actors, heartbeat_atom, "heartbeat")

namespace vouch::actors {
// Executes generations and runs on its machine (actors/execution/worker.hpp).
using worker_actor = caf::typed_actor<caf::replies_to<GenerationTask>::with<GenerationDone>,
                                      caf::replies_to<RunTask>::with<RunDone>>;
}  // namespace vouch::actors
CAF_ADD_TYPE_ID(vouch, (vouch::actors::worker_actor))

CAF_ADD_ATOM(vouch, vouch::actors, committed_atom, "committed")
CAF_ADD_ATOM(vouch, vouch::actors, pump_atom, "pump")
CAF_ADD_ATOM(vouch, vouch::actors, flush_atom, "flush")

CAF_END_TYPE_ID_BLOCK(vouch)

#undef VOUCH_ADD_TYPE_ID
#undef VOUCH_IN_PROCESS_MESSAGES

namespace vouch::actors {

// The typed interfaces between actors. Each actor knows nothing of HTTP.

// Wraps the EventLog's group commit: appends answer when durable.
using event_store_actor =
    caf::typed_actor<caf::replies_to<append_atom, store::AppendRequest>::with<store::AppendResult>,
                     // The writer thread's answer to an earlier append, by ticket.
                     caf::reacts_to<appended_atom, std::uint64_t, store::AppendResult>,
                     caf::reacts_to<appended_atom, std::uint64_t, base::Error>>;

// What a project takes: its commands, each answered with the project.
using project_interface =
    caf::typed_actor<caf::replies_to<events::CreateProject>::with<events::Project>,
                     caf::replies_to<events::UpdateProject>::with<events::Project>,
                     caf::replies_to<events::DeleteProject>::with<events::Project>,
                     caf::replies_to<events::ImportProject>::with<events::Project>>;

// One per project: serialises that project's commands. stop comes from the
// registry, after the last routed command.
using project_actor = project_interface::extend<caf::reacts_to<stop_atom>>;

// Routes project commands to project actors, spawning them on demand and
// stopping them when idle or when too many are alive (idle: its own timer,
// stop the idle ones).
using project_registry_actor = project_interface::extend<caf::reacts_to<idle_atom>>;

// Serialises account and API-key commands (rare: operator actions).
using account_actor = caf::typed_actor<caf::replies_to<IssueKey>::with<IssuedKey>,
                                       caf::replies_to<RevokeKey>::with<bool>>;

// Has tests generated on a worker slot and records them (TestGenerated).
// GenerateTests answers with the generated test; (async, GenerateTests)
// answers once TestGenerationAccepted is durable, with the test generating,
// and records its end later. (progress, test id) answers how far an
// asynchronous generation of this process got.
using generation_coordinator_actor =
    caf::typed_actor<caf::replies_to<GenerateTests>::with<events::GeneratedTest>,
                     caf::replies_to<async_atom, GenerateTests>::with<events::GeneratedTest>,
                     caf::replies_to<progress_atom, std::string>::with<GenerationProgress>,
                     caf::reacts_to<GenerationProgress>>;

// Gives generations and runs to the slots of the server's own worker and of
// remote workers (actors/cluster/worker_hub.hpp).
using worker_hub_actor =
    caf::typed_actor<caf::replies_to<GenerationTask>::with<GenerationDone>,
                     caf::replies_to<RunTask>::with<RunDone>,
                     caf::reacts_to<join_atom, worker_actor, WorkerOffer>,  // a worker is there
                     caf::reacts_to<expired_atom, std::uint64_t>,  // a job's wait for a slot ends
                     caf::reacts_to<heartbeat_atom>>;  // time to look for silent workers

// What a server publishes to workers: joins only.
using worker_gate_actor = caf::typed_actor<caf::reacts_to<join_atom, worker_actor, WorkerOffer>>;

// Keeps runner processes started and ready, and hands each to one run; a
// bounded number of runs execute at once.
using executor_pool_actor =
    // A runner for a Node.js major and a dependency set (its node_modules
    // folder, "" for none): warm ones for the default major without
    // dependencies, started on demand for the others.
    caf::typed_actor<
        caf::replies_to<acquire_atom, std::string, std::string, std::uint32_t>::with<WarmRunner>,
        caf::reacts_to<release_atom>,  // a run's runner has ended
        caf::reacts_to<ready_atom, std::uint64_t, RunnerStart>,
        caf::reacts_to<expired_atom, std::uint64_t>>;

// Installs a run's npm dependencies once per dependency map.
using dependency_cache_actor =
    caf::typed_actor<caf::replies_to<install_atom, events::RunEnvironment>::with<InstallOutcome>,
                     caf::reacts_to<installed_atom, std::string, InstallOutcome>>;

// Starts runs and records how they end, one end at a time, so that each
// test.coverage.updated compares with the coverage recorded just before.
// await_end answers once the run's end is recorded (at once for a run it is
// not driving); the timespan is how long the asker waits for the answer.
// release_all answers every such wait now (shutdown).
using run_coordinator_actor =
    caf::typed_actor<caf::replies_to<StartRun>::with<events::TestRun>,
                     caf::reacts_to<finish_atom, events::TestRun, events::RunReport>,
                     caf::replies_to<await_end_atom, std::string, caf::timespan>::with<bool>,
                     caf::reacts_to<release_all_atom>>;

// One per run: installs, waits for a runner, runs, reports.
using run_actor = caf::typed_actor<caf::reacts_to<report_atom, events::RunReport>>;
// --- Webhooks ---------------------------------------------------------------

// What a webhook takes: its commands and its deliveries. DeliverEvents
// answers once the first attempt of each delivery is recorded (or skipped).
using webhook_interface =
    caf::typed_actor<caf::replies_to<events::CreateWebhook>::with<events::Webhook>,
                     caf::replies_to<events::UpdateWebhook>::with<events::Webhook>,
                     caf::replies_to<events::DeleteWebhook>::with<events::Webhook>,
                     caf::replies_to<events::RotateWebhookSecret>::with<events::Webhook>,
                     caf::replies_to<DeliverEvents>::with<bool>,
                     caf::replies_to<RedeliverWebhook>::with<RedeliveryQueued>,
                     caf::reacts_to<RetryDelivery>>;

// One per webhook: serialises its commands and delivers its events (several
// attempts in flight at once, each recorded as an event).
using webhook_actor =
    webhook_interface::extend<caf::reacts_to<AttemptFinished>, caf::reacts_to<idle_atom>,
                              caf::reacts_to<stop_atom>>;

// Routes webhook commands and deliveries to the webhook actors, spawning them
// on demand and stopping them when idle.
using webhook_registry_actor = webhook_interface::extend<caf::reacts_to<idle_atom, std::string>>;

// Follows the log from its stored cursor and fans public events out.
using webhook_dispatcher_actor =
    caf::typed_actor<caf::reacts_to<committed_atom, std::uint64_t>,  // the log grew
                     caf::reacts_to<pump_atom>,                      // read on
                     caf::reacts_to<flush_atom>,                     // save the cursor
                     caf::reacts_to<DeliverEvents>>;  // hand a batch over again after a failure

}  // namespace vouch::actors
