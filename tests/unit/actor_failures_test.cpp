// Actors whose peers hang or are gone, on CAF's deterministic test
// scheduler: messages run when the test says so and timeouts fire when the
// test triggers them, so no test sleeps or depends on a machine's speed.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <caf/all.hpp>
#include <caf/scheduler/test_coordinator.hpp>
#include <memory>
#include <optional>
#include <vector>

#include "actors/domain/keyed_actors.hpp"
#include "actors/domain/project_actor.hpp"
#include "actors/errors.hpp"
#include "actors/type_ids.hpp"
#include "store/database.hpp"
#include "store/event_log.hpp"
#include "temp_folder.hpp"
#include "testing_actor_system.hpp"

namespace vouch::actors {
namespace {

constexpr char kKeyedHostName[] = "keyed-host";

class ActorFailuresTest : public ::testing::Test {
 protected:
  ActorFailuresTest()
      : database_(std::move(store::Database::open(folder_.path() / "data").value())),
        log_(std::move(store::EventLog::open(*database_).value())),
        system_(testing::testing_config(config_)),
        scheduler_(dynamic_cast<caf::scheduler::test_coordinator&>(system_.scheduler())) {
    // Actors left waiting (on the silent store) end with the test.
    system_.await_actors_before_shutdown(false);
  }
  // Registries re-arm their idle timers forever: end them first.
  ~ActorFailuresTest() override {
    held_->clear();  // the promises point back at the project actors
    for (const auto& actor : spawned_) caf::anon_send_exit(actor, caf::exit_reason::kill);
    scheduler_.run();
  }

  // An event store that takes appends and never answers them.
  event_store_actor silent_store() {
    auto held = held_;
    auto store =
        system_.spawn([held](event_store_actor::pointer self) -> event_store_actor::behavior_type {
          return {
              [self, held](append_atom, store::AppendRequest&) -> caf::result<store::AppendResult> {
                held->push_back(self->make_response_promise<store::AppendResult>());
                return held->back();
              },
              [](appended_atom, std::uint64_t, store::AppendResult&) {},
              [](appended_atom, std::uint64_t, base::Error&) {},
          };
        });
    spawned_.push_back(caf::actor_cast<caf::actor>(store));
    return store;
  }

  project_actor project_with(event_store_actor store) {
    ProjectActorConfig config;
    config.project_id = "prj_1";
    config.log = log_.get();
    config.store = std::move(store);
    auto project = spawn_project_actor(system_, std::move(config));
    spawned_.push_back(caf::actor_cast<caf::actor>(project));
    return project;
  }

  // Sends CreateProject from a probe that waits without a limit of its own;
  // the answer (or error) lands in `answer`.
  void create(const project_actor& project) {
    auto answer = answer_;
    system_.spawn([project, answer](caf::event_based_actor* self) {
      self->request(project, caf::infinite,
                    events::CreateProject{"prj_1", "acme", "n", "", std::nullopt, std::nullopt, 1})
          .then([answer](events::Project&) { *answer = base::ok_status(); },
                [answer](caf::error& error) { *answer = from_caf_error(error); });
    });
  }

  testing::TempFolder folder_;
  std::unique_ptr<store::Database> database_;
  std::unique_ptr<store::EventLog> log_;
  caf::actor_system_config config_;
  caf::actor_system system_;
  caf::scheduler::test_coordinator& scheduler_;
  std::vector<caf::actor> spawned_;
  std::shared_ptr<std::vector<caf::response_promise>> held_ =
      std::make_shared<std::vector<caf::response_promise>>();
  std::shared_ptr<std::optional<base::Status>> answer_ =
      std::make_shared<std::optional<base::Status>>();
};

TEST_F(ActorFailuresTest, AnAppendNeverAnsweredEndsWithUnavailableWhenItsTimeoutFires) {
  const auto project = project_with(silent_store());
  create(project);
  scheduler_.run();
  ASSERT_EQ(held_->size(), 1u);        // the append reached the store
  EXPECT_FALSE(answer_->has_value());  // and the command waits for it
  scheduler_.trigger_timeouts();
  scheduler_.run();
  ASSERT_TRUE(answer_->has_value());
  ASSERT_FALSE(answer_->value().ok());
  EXPECT_EQ(answer_->value().error().code, base::ErrorCode::kUnavailable);
  EXPECT_NE(answer_->value().error().message.find("timed out"), std::string::npos)
      << answer_->value().error().message;
}

TEST_F(ActorFailuresTest, AStoreThatIsGoneEndsTheCommandAtOnce) {
  auto store = silent_store();
  caf::anon_send_exit(store, caf::exit_reason::kill);
  scheduler_.run();
  const auto project = project_with(store);
  create(project);
  scheduler_.run();  // no timeout triggered: the dead peer answers by being dead
  ASSERT_TRUE(answer_->has_value());
  ASSERT_FALSE(answer_->value().ok());
  EXPECT_EQ(answer_->value().error().code, base::ErrorCode::kUnavailable);
}

TEST_F(ActorFailuresTest, AfterAFailedAppendTheProjectServesTheNextCommand) {
  const auto project = project_with(silent_store());
  create(project);
  scheduler_.run();
  scheduler_.trigger_timeouts();
  scheduler_.run();
  ASSERT_TRUE(answer_->has_value());
  // The project reloaded its stream (still empty) and takes the next command.
  answer_->reset();
  create(project);
  scheduler_.run();
  EXPECT_EQ(held_->size(), 2u);
}

// CAF 0.17 leaves an answered request's timeout in the clock until it fires;
// a project actor taking thousands of commands would hold one per command of
// the last 30 s and be woken by each (actors/timeouts.hpp, forget_timeout).
TEST_F(ActorFailuresTest, AnAnsweredAppendLeavesNoTimeoutInTheClock) {
  auto store = system_.spawn([](event_store_actor::pointer) -> event_store_actor::behavior_type {
    return {
        [](append_atom, store::AppendRequest&) {
          return store::AppendResult{1, {}};
        },
        [](appended_atom, std::uint64_t, store::AppendResult&) {},
        [](appended_atom, std::uint64_t, base::Error&) {},
    };
  });
  spawned_.push_back(caf::actor_cast<caf::actor>(store));
  const auto project = project_with(store);
  create(project);
  scheduler_.run();
  ASSERT_TRUE(answer_->has_value());
  ASSERT_TRUE(answer_->value().ok()) << answer_->value().error().message;
  EXPECT_FALSE(scheduler_.clock().has_pending_timeout());
}

// A registry's per-id actors: while an idle actor stops, messages for its id
// wait, then go to a fresh actor; never are two actors alive for one id.
TEST_F(ActorFailuresTest, ARegistryNeverHoldsTwoActorsForOneId) {
  struct Counts {
    int spawned = 0;
    int alive = 0;
    int most_alive = 0;
    std::vector<std::string> received;
  };
  auto counts = std::make_shared<Counts>();
  auto host = system_.spawn([counts](caf::event_based_actor* self) -> caf::behavior {
    auto keyed = std::make_shared<KeyedActors<caf::actor>>(
        [self, counts](const std::string&) {
          const int number = ++counts->spawned;
          counts->most_alive = std::max(counts->most_alive, ++counts->alive);
          auto worker = self->spawn([number, counts](caf::event_based_actor* me) -> caf::behavior {
            me->attach_functor([counts] { --counts->alive; });
            return {
                [number, counts](int value) {
                  counts->received.push_back(std::to_string(number) + ":" + std::to_string(value));
                },
                [me](stop_atom) { me->quit(); },
            };
          });
          self->monitor(worker);
          return worker;
        },
        [self] { return self->clock().now(); });
    self->set_down_handler([keyed](caf::down_msg& down) { keyed->gone(down.source); });
    return {
        [keyed](const std::string& id, int value) {
          keyed->with(id, [value](const caf::actor& actor) { caf::anon_send(actor, value); });
        },
        [keyed](idle_atom, const std::string& id) { keyed->stop(id); },
    };
  });
  spawned_.push_back(host);
  caf::anon_send(host, std::string("a"), 1);
  scheduler_.run();
  // The actor of "a" is idle and asked to stop; a message for "a" comes at once.
  caf::anon_send(host, idle_atom_v, std::string("a"));
  caf::anon_send(host, std::string("a"), 2);
  caf::anon_send(host, std::string("a"), 3);
  scheduler_.run();
  EXPECT_EQ(counts->received, (std::vector<std::string>{"1:1", "2:2", "2:3"}));
  EXPECT_EQ(counts->spawned, 2);
  EXPECT_EQ(counts->most_alive, 1);
}

// A registry host for the tests below: per-id actors that record what they
// get and count themselves, kept with keep_keyed_actors() under `max_live`.
struct KeyedCounts {
  int spawned = 0;
  int alive = 0;
  std::vector<std::string> received;  // "id:value"
  std::vector<std::string> stopped;   // ids, in the order they stopped
  std::atomic<std::size_t> live{0};   // the registry's gauge of its live actors
};

caf::actor keyed_host(caf::actor_system& system, std::shared_ptr<KeyedCounts> counts,
                      std::size_t max_live) {
  using State = RegistryState<caf::actor, kKeyedHostName>;
  return system.spawn([counts, max_live](caf::stateful_actor<State>* self) -> caf::behavior {
    keep_keyed_actors(
        self, self->state.actors,
        [self, counts](const std::string& id) {
          ++counts->spawned;
          ++counts->alive;
          return self->spawn([id, counts](caf::event_based_actor* me) -> caf::behavior {
            me->attach_functor([id, counts] {
              --counts->alive;
              counts->stopped.push_back(id);
            });
            return {
                [id, counts](int value) {
                  counts->received.push_back(id + ":" + std::to_string(value));
                },
                [me](stop_atom) { me->quit(); },
            };
          });
        },
        max_live, &counts->live);
    return {
        [self](const std::string& id, int value) {
          self->state.actors->with(
              id, [value](const caf::actor& actor) { caf::anon_send(actor, value); });
        },
        [self](idle_atom, caf::timespan idle_after) { self->state.actors->stop_idle(idle_after); },
    };
  });
}

TEST_F(ActorFailuresTest, ARegistryAtItsCapStopsTheLeastRecentlyUsedActor) {
  auto counts = std::make_shared<KeyedCounts>();
  auto host = keyed_host(system_, counts, 2);
  spawned_.push_back(host);
  caf::anon_send(host, std::string("a"), 1);
  caf::anon_send(host, std::string("b"), 1);
  caf::anon_send(host, std::string("a"), 2);  // "b" is now the least recently used
  caf::anon_send(host, std::string("c"), 1);
  scheduler_.run();
  EXPECT_EQ(counts->stopped, (std::vector<std::string>{"b"}));
  EXPECT_EQ(counts->alive, 2);
  EXPECT_EQ(counts->live.load(), 2u);
  // "b" comes back on a fresh actor, and "a" (least recently used now) makes room.
  caf::anon_send(host, std::string("b"), 2);
  scheduler_.run();
  EXPECT_EQ(counts->stopped, (std::vector<std::string>{"b", "a"}));
  EXPECT_EQ(counts->alive, 2);
  EXPECT_EQ(counts->spawned, 4);
  EXPECT_EQ(counts->live.load(), 2u);
  // Each actor gets its id's messages in order (actors run in any order between them).
  std::sort(counts->received.begin(), counts->received.end());
  EXPECT_EQ(counts->received, (std::vector<std::string>{"a:1", "a:2", "b:1", "b:2", "c:1"}));
}

TEST_F(ActorFailuresTest, ARegistryStopsTheActorsIdleLongerThanItsLimit) {
  auto counts = std::make_shared<KeyedCounts>();
  auto host = keyed_host(system_, counts, 0);
  spawned_.push_back(host);
  caf::anon_send(host, std::string("a"), 1);
  scheduler_.run();
  scheduler_.advance_time(std::chrono::seconds(40));
  caf::anon_send(host, std::string("b"), 1);
  scheduler_.run();
  scheduler_.advance_time(std::chrono::seconds(30));  // "a" unused for 70 s, "b" for 30 s
  EXPECT_EQ(counts->live.load(), 2u);
  caf::anon_send(host, idle_atom_v, caf::timespan{std::chrono::seconds(60)});
  scheduler_.run();
  EXPECT_EQ(counts->stopped, (std::vector<std::string>{"a"}));
  EXPECT_EQ(counts->alive, 1);
  EXPECT_EQ(counts->live.load(), 1u);
}

}  // namespace
}  // namespace vouch::actors
