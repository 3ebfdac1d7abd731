// The worker hub's failure paths on CAF's deterministic test scheduler: a
// worker that is lost, a worker that goes silent, a job that waits too long
// for a slot. The workers are actors the test drives (they hold each job
// until told to answer it), joined the way `vouchd worker` processes join;
// time moves only when the test advances the scheduler's clock.
#include "actors/cluster/worker_hub.hpp"

#include <gtest/gtest.h>

#include <caf/all.hpp>
#include <caf/scheduler/test_coordinator.hpp>
#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "actors/cluster/worker_messages.hpp"
#include "actors/execution/runner_settings.hpp"
#include "actors/execution/runner_stats.hpp"
#include "actors/type_ids.hpp"
#include "base/error.hpp"
#include "testing_actor_system.hpp"

namespace vouch::actors {
namespace {

using std::chrono::seconds;

// What a test worker was given, by task id, in order.
struct WorkerLog {
  std::vector<std::string> runs;
  std::vector<std::string> generations;
};

// What the hub answered, by task id.
struct Answers {
  std::map<std::string, RunDone> runs;
  std::map<std::string, GenerationDone> generations;
};

class WorkerHubTest : public ::testing::Test {
 protected:
  WorkerHubTest()
      : system_(testing::testing_config(config_)),
        scheduler_(dynamic_cast<caf::scheduler::test_coordinator&>(system_.scheduler())) {
    // Workers hold their jobs' promises until the test ends them.
    system_.await_actors_before_shutdown(false);
    settings_.generation_queue_wait = seconds(10);
    settings_.generation_budget = seconds(20);
    settings_.run_queue_wait = seconds(5);
  }
  ~WorkerHubTest() override {
    for (const auto& actor : spawned_) caf::anon_send_exit(actor, caf::exit_reason::kill);
    scheduler_.run();
  }

  // A hub without slots of its own, checking every second for workers
  // silent longer than 10 s.
  worker_hub_actor start_hub() {
    WorkerHubConfig config;
    config.settings = &settings_;
    config.runner_stats = &runner_stats_;
    config.stats = &stats_;
    config.heartbeat_check = seconds(1);
    config.heartbeat_timeout = seconds(10);
    auto hub = spawn_worker_hub(system_, std::move(config));
    spawned_.push_back(caf::actor_cast<caf::actor>(hub));
    scheduler_.run();
    return hub;
  }

  // A worker with the given slots that records each job it gets and answers
  // a run when sent a RunDone (the oldest run it holds first), naming itself
  // in the answer. It joins `hub` as a remote worker does.
  caf::actor join_worker(const worker_hub_actor& hub, const std::string& name,
                         std::uint32_t generators, std::uint32_t executors) {
    auto log = std::make_shared<WorkerLog>();
    logs_[name] = log;
    auto held = std::make_shared<std::vector<caf::response_promise>>();
    auto worker = system_.spawn([name, log, held](caf::event_based_actor* self) -> caf::behavior {
      return {
          [self, log, held](RunTask& task) {
            log->runs.push_back(task.run_id);
            held->push_back(self->make_response_promise());
            return held->back();
          },
          [self, log](GenerationTask& task) {
            log->generations.push_back(task.test_id);
            return self->make_response_promise();  // never answered
          },
          [name, held](RunDone& done) {
            if (held->empty()) return;
            done.worker = name;
            held->front().deliver(std::move(done));
            held->erase(held->begin());
          },
      };
    });
    spawned_.push_back(worker);
    heartbeat(hub, worker, name, generators, executors);
    return worker;
  }

  // The join a remote worker repeats to say it is still there.
  void heartbeat(const worker_hub_actor& hub, const caf::actor& worker, const std::string& name,
                 std::uint32_t generators, std::uint32_t executors) {
    caf::anon_send(hub, join_atom_v, caf::actor_cast<worker_actor>(worker),
                   WorkerOffer{name, generators, executors});
    scheduler_.run();
  }

  // Asks `hub` for a run from a client that waits without a limit of its own.
  void ask_run(const worker_hub_actor& hub, const std::string& run_id) {
    RunTask task;
    task.run_id = run_id;
    ask(hub, run_id, std::move(task), &Answers::runs);
  }

  void ask_generation(const worker_hub_actor& hub, const std::string& test_id) {
    GenerationTask task;
    task.test_id = test_id;
    ask(hub, test_id, std::move(task), &Answers::generations);
  }

  // Sends `task` (of the job `id`) to `hub` from a client that waits without a
  // limit of its own; the answer goes to `answered` of answers_.
  template <class Task, class Done>
  void ask(const worker_hub_actor& hub, const std::string& id, Task task,
           std::map<std::string, Done> Answers::*answered) {
    system_.spawn([hub, id, task = std::move(task), answers = answers_,
                   answered](caf::event_based_actor* self) mutable {
      self->request(hub, caf::infinite, std::move(task))
          .then(
              [id, answers, answered](Done& done) { ((*answers).*answered)[id] = std::move(done); },
              [id](caf::error& error) {
                ADD_FAILURE() << id << " ended with " << caf::to_string(error);
              });
    });
    scheduler_.run();
  }

  // Ends the worker as a crashed process or a closed connection does.
  void kill(const caf::actor& worker) {
    caf::anon_send_exit(worker, caf::exit_reason::kill);
    scheduler_.run();
  }

  // Has `worker` answer the oldest run it holds.
  void answer_run(const caf::actor& worker) {
    RunDone done;
    done.has_results = true;
    done.results.total = 1;
    done.results.passed = 1;
    caf::anon_send(worker, std::move(done));
    scheduler_.run();
  }

  // Moves the hub's clock and runs what became due.
  void advance(caf::timespan by) {
    scheduler_.advance_time(by);
    scheduler_.run();
  }

  // Advances the clock to one second short of `wait`, then to `wait`: the
  // answer to `id` in `answered` comes only at the end. Returns it.
  template <class Done>
  const Done& answered_after(seconds wait, const std::map<std::string, Done>& answered,
                             const std::string& id) {
    advance(wait - seconds(1));
    EXPECT_EQ(answered.count(id), 0u) << id << " answered early";
    advance(seconds(1));
    EXPECT_EQ(answered.count(id), 1u) << id << " not answered";
    return answered.at(id);
  }

  const WorkerLog& log_of(const std::string& name) { return *logs_.at(name); }

  caf::actor_system_config config_;
  caf::actor_system system_;
  caf::scheduler::test_coordinator& scheduler_;
  RunnerSettings settings_;
  RunnerStats runner_stats_;
  WorkerStats stats_;
  std::vector<caf::actor> spawned_;
  std::map<std::string, std::shared_ptr<WorkerLog>> logs_;
  std::shared_ptr<Answers> answers_ = std::make_shared<Answers>();
};

// Lost workers.

TEST_F(WorkerHubTest, ARunOfALostWorkerGoesToAnotherWorkerAndEndsThere) {
  const auto hub = start_hub();
  const auto a = join_worker(hub, "a", 0, 1);
  const auto b = join_worker(hub, "b", 0, 1);
  ask_run(hub, "run_1");
  ASSERT_EQ(log_of("a").runs, std::vector<std::string>{"run_1"});  // joined first, so it wins ties
  EXPECT_EQ(stats_.runs_in_flight.load(), 1);

  kill(a);
  EXPECT_EQ(log_of("b").runs, std::vector<std::string>{"run_1"});
  EXPECT_EQ(answers_->runs.count("run_1"), 0u);
  EXPECT_EQ(stats_.workers_lost.load(), 1u);
  EXPECT_EQ(stats_.jobs_retried.load(), 1u);
  EXPECT_EQ(stats_.remote_workers.load(), 1);

  answer_run(b);
  ASSERT_EQ(answers_->runs.count("run_1"), 1u);
  const auto& done = answers_->runs.at("run_1");
  EXPECT_FALSE(done.has_error) << done.error.code << ": " << done.error.detail;
  EXPECT_TRUE(done.has_results);
  EXPECT_EQ(done.worker, "b");
  EXPECT_EQ(stats_.runs_in_flight.load(), 0);
  EXPECT_EQ(stats_.jobs_lost.load(), 0u);
}

TEST_F(WorkerHubTest, ARunLostWithItsSecondWorkerEndsAsWorkerLost) {
  const auto hub = start_hub();
  const auto a = join_worker(hub, "a", 0, 1);
  const auto b = join_worker(hub, "b", 0, 1);
  join_worker(hub, "c", 0, 1);
  ask_run(hub, "run_1");
  kill(a);
  ASSERT_EQ(log_of("b").runs, std::vector<std::string>{"run_1"});

  kill(b);  // c is free, but a run is tried on two workers at most
  EXPECT_TRUE(log_of("c").runs.empty());
  ASSERT_EQ(answers_->runs.count("run_1"), 1u);
  const auto& done = answers_->runs.at("run_1");
  ASSERT_TRUE(done.has_error);
  EXPECT_EQ(done.error.code, "worker_lost");
  EXPECT_NE(done.error.detail.find("the worker running it was lost"), std::string::npos)
      << done.error.detail;
  EXPECT_EQ(stats_.jobs_retried.load(), 1u);
  EXPECT_EQ(stats_.jobs_lost.load(), 1u);
  EXPECT_EQ(stats_.remote_workers.load(), 1);
  EXPECT_EQ(stats_.executor_slots.load(), 1);
}

TEST_F(WorkerHubTest, ARunLostWhenNoOtherWorkerHasExecutorsEndsAtOnce) {
  const auto hub = start_hub();
  const auto a = join_worker(hub, "a", 0, 1);
  join_worker(hub, "generator-only", 1, 0);
  ask_run(hub, "run_1");
  kill(a);
  ASSERT_EQ(answers_->runs.count("run_1"), 1u);
  EXPECT_EQ(answers_->runs.at("run_1").error.code, "worker_lost");
  EXPECT_EQ(stats_.jobs_retried.load(), 0u);
  EXPECT_EQ(stats_.jobs_lost.load(), 1u);
}

TEST_F(WorkerHubTest, AGenerationLostWithItsOnlyWorkerFailsAsUnavailable) {
  const auto hub = start_hub();
  const auto a = join_worker(hub, "a", 1, 0);
  ask_generation(hub, "tst_1");
  ASSERT_EQ(log_of("a").generations, std::vector<std::string>{"tst_1"});
  EXPECT_EQ(runner_stats_.generations_running.load(), 1);
  kill(a);
  ASSERT_EQ(answers_->generations.count("tst_1"), 1u);
  const auto& failure = answers_->generations.at("tst_1").failure;
  ASSERT_TRUE(failure.failed);
  EXPECT_EQ(to_error(failure).code, base::ErrorCode::kUnavailable);
  EXPECT_NE(failure.message.find("the worker generating it was lost"), std::string::npos)
      << failure.message;
  EXPECT_EQ(runner_stats_.generations_running.load(), 0);
}

// Heartbeats.

TEST_F(WorkerHubTest, AWorkerSilentPastTheHeartbeatTimeoutIsDroppedWithItsRun) {
  const auto hub = start_hub();
  const auto a = join_worker(hub, "a", 0, 1);
  ask_run(hub, "run_1");
  ASSERT_EQ(log_of("a").runs, std::vector<std::string>{"run_1"});

  advance(seconds(5));
  heartbeat(hub, a, "a", 0, 1);  // seen at 5 s
  advance(seconds(10));          // 15 s: silent for 10 s, not longer
  EXPECT_EQ(stats_.remote_workers.load(), 1);
  EXPECT_EQ(stats_.workers_lost.load(), 0u);
  EXPECT_EQ(answers_->runs.count("run_1"), 0u);

  advance(seconds(1));  // 16 s: silent for 11 s
  EXPECT_EQ(stats_.remote_workers.load(), 0);
  EXPECT_EQ(stats_.workers_lost.load(), 1u);
  ASSERT_EQ(answers_->runs.count("run_1"), 1u);
  EXPECT_EQ(answers_->runs.at("run_1").error.code, "worker_lost");
  EXPECT_NE(answers_->runs.at("run_1").error.detail.find("silent for 10000 ms"), std::string::npos)
      << answers_->runs.at("run_1").error.detail;
}

TEST_F(WorkerHubTest, ASilentWorkersRunGoesElsewhereAndItsLateAnswerIsDropped) {
  const auto hub = start_hub();
  const auto a = join_worker(hub, "a", 0, 1);
  const auto b = join_worker(hub, "b", 0, 1);
  ask_run(hub, "run_1");
  ASSERT_EQ(log_of("a").runs, std::vector<std::string>{"run_1"});

  // b keeps saying it is there; a, still connected, says nothing.
  for (int second = 1; second <= 11; ++second) {
    advance(seconds(1));
    heartbeat(hub, b, "b", 0, 1);
  }
  EXPECT_EQ(stats_.workers_lost.load(), 1u);
  EXPECT_EQ(stats_.remote_workers.load(), 1);
  ASSERT_EQ(log_of("b").runs, std::vector<std::string>{"run_1"});

  answer_run(a);  // the lost attempt's answer
  EXPECT_EQ(answers_->runs.count("run_1"), 0u);
  answer_run(b);
  ASSERT_EQ(answers_->runs.count("run_1"), 1u);
  EXPECT_EQ(answers_->runs.at("run_1").worker, "b");
}

// Queue expiry.

TEST_F(WorkerHubTest, ARunWaitingPastTheRunQueueWaitFailsWithNoRunner) {
  const auto hub = start_hub();
  ask_run(hub, "run_1");
  EXPECT_EQ(stats_.runs_waiting.load(), 1);

  const auto& done = answered_after(seconds(5), answers_->runs, "run_1");
  ASSERT_TRUE(done.has_error);
  EXPECT_EQ(done.error.code, "no_runner");
  EXPECT_EQ(done.error.detail, "no runner was free within 5 s");
  EXPECT_EQ(stats_.runs_waiting.load(), 0);
}

TEST_F(WorkerHubTest, AGenerationWaitingPastTheGenerationQueueWaitIsRefused) {
  const auto hub = start_hub();
  ask_generation(hub, "tst_1");
  EXPECT_EQ(runner_stats_.generations_waiting.load(), 1);

  const auto error = to_error(answered_after(seconds(10), answers_->generations, "tst_1").failure);
  EXPECT_EQ(error.code, base::ErrorCode::kUnavailable);
  EXPECT_EQ(error.message, "every test generator is busy; try again later");
  EXPECT_EQ(error.retry_after_seconds, 20u);  // the generator's time budget
  EXPECT_EQ(runner_stats_.generations_refused.load(), 1u);
  EXPECT_EQ(runner_stats_.generations_waiting.load(), 0);
}

TEST_F(WorkerHubTest, ARunSentAgainAfterALossWaitsAFullQueueWaitFromThen) {
  const auto hub = start_hub();
  const auto a = join_worker(hub, "a", 0, 1);
  const auto b = join_worker(hub, "b", 0, 1);
  ask_run(hub, "run_1");
  ask_run(hub, "run_2");
  ASSERT_EQ(log_of("a").runs, std::vector<std::string>{"run_1"});
  ASSERT_EQ(log_of("b").runs, std::vector<std::string>{"run_2"});

  advance(seconds(3));
  kill(a);  // run_1 waits again, for b
  EXPECT_EQ(stats_.jobs_retried.load(), 1u);
  EXPECT_EQ(stats_.runs_waiting.load(), 1);
  advance(seconds(2));  // 5 s: the first wait's timer is due, and ignored
  EXPECT_EQ(answers_->runs.count("run_1"), 0u);
  advance(seconds(2));
  EXPECT_EQ(answers_->runs.count("run_1"), 0u);
  advance(seconds(1));  // 8 s: 5 s since it waits again
  ASSERT_EQ(answers_->runs.count("run_1"), 1u);
  EXPECT_EQ(answers_->runs.at("run_1").error.code, "no_runner");
  EXPECT_EQ(answers_->runs.count("run_2"), 0u);  // still on b
}

TEST_F(WorkerHubTest, AWaitingRunGoesToAWorkerThatJoinsBeforeItsWaitEnds) {
  const auto hub = start_hub();
  ask_run(hub, "run_1");
  advance(seconds(4));
  const auto a = join_worker(hub, "a", 0, 1);
  ASSERT_EQ(log_of("a").runs, std::vector<std::string>{"run_1"});
  advance(seconds(1));  // the wait's timer finds the run sent
  EXPECT_EQ(answers_->runs.count("run_1"), 0u);
  answer_run(a);
  ASSERT_EQ(answers_->runs.count("run_1"), 1u);
  EXPECT_FALSE(answers_->runs.at("run_1").has_error);
}

}  // namespace
}  // namespace vouch::actors
