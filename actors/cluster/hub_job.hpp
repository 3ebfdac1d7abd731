#pragma once

#include <array>
#include <caf/actor_clock.hpp>
#include <caf/typed_response_promise.hpp>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <variant>

#include "actors/cluster/worker_messages.hpp"

// The jobs the worker hub (worker_hub.hpp) holds: one type per kind of work,
// each with its task and the promise of whoever asked for it. The hub
// branches on a job's kind only through std::visit, so a new kind added to
// JobWork is a compile error wherever the hub does not handle it.
namespace vouch::actors {

// A kind of work: its task, the promise of whoever asked for it, and the
// slots of a worker's offer that it takes.
template <class TaskType, class DoneType, std::uint32_t WorkerOffer::*kSlots>
struct Work {
  using Task = TaskType;
  using Done = DoneType;

  static std::size_t slots(const WorkerOffer& offer) { return offer.*kSlots; }

  Task task;
  caf::typed_response_promise<Done> promise;
};

// A test generation, taken by a worker's generator slots.
using GenerationWork = Work<GenerationTask, GenerationDone, &WorkerOffer::generators>;
// A run of a generated suite, taken by a worker's executor slots.
using RunWork = Work<RunTask, RunDone, &WorkerOffer::executors>;

using JobWork = std::variant<GenerationWork, RunWork>;

// A job's kind is its index in JobWork: the hub keeps one queue and one count
// of busy slots per kind.
using JobKind = std::size_t;
inline constexpr std::size_t kJobKinds = std::variant_size_v<JobWork>;

namespace detail {
template <class Work, class... Works>
constexpr JobKind kind_in(const std::variant<Works...>*) {
  static_assert((std::is_same_v<Work, Works> || ...), "not a kind of JobWork");
  JobKind kind = 0;
  static_cast<void>(((std::is_same_v<Work, Works> ? false : (++kind, true)) && ...));
  return kind;
}

template <class... Works>
std::array<std::size_t, sizeof...(Works)> slots_in(const WorkerOffer& offer,
                                                   const std::variant<Works...>*) {
  return {Works::slots(offer)...};
}
}  // namespace detail

template <class Work>
inline constexpr JobKind kind_of = detail::kind_in<Work>(static_cast<const JobWork*>(nullptr));

// What `offer` gives each kind of job, by JobKind.
inline std::array<std::size_t, kJobKinds> slots_by_kind(const WorkerOffer& offer) {
  return detail::slots_in(offer, static_cast<const JobWork*>(nullptr));
}

// A job from the moment the hub takes it until its promise is delivered.
struct HubJob {
  JobWork work;
  std::uint64_t worker = 0;                      // where it runs; 0 while it waits
  std::uint64_t attempt = 0;                     // answers of an earlier attempt are dropped
  int losses = 0;                                // workers lost while they held it
  caf::actor_clock::time_point waiting_since{};  // on the hub's actor clock

  JobKind kind() const { return work.index(); }
};

}  // namespace vouch::actors
