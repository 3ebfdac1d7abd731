#include "events/project.hpp"

#include <algorithm>
#include <cmath>

#include "base/overloaded.hpp"

namespace vouch::events {
namespace {

void check_name(const std::string& name, std::vector<base::FieldError>& errors) {
  if (name.empty()) {
    errors.push_back({"name", "must not be empty"});
  } else if (name.size() > kMaxProjectNameLength) {
    errors.push_back(
        {"name", "must be at most " + std::to_string(kMaxProjectNameLength) + " characters"});
  }
}

void check_framework(const std::string& framework, std::vector<base::FieldError>& errors) {
  const auto& supported = supported_frameworks();
  if (std::find(supported.begin(), supported.end(), framework) == supported.end()) {
    std::string list;
    for (const auto& name : supported) list += (list.empty() ? "" : ", ") + name;
    errors.push_back(
        {"config.framework", "unsupported framework \"" + framework + "\"; supported: " + list});
  }
}

void check_threshold(double threshold, std::vector<base::FieldError>& errors) {
  if (!std::isfinite(threshold) || threshold < 0.0 || threshold > kMaxThreshold) {
    errors.push_back({"config.coverage.threshold",
                      "must be a number from 0 to " + std::to_string(kMaxThreshold)});
  }
}

// A project exists for `account` and is not deleted; other accounts' projects
// are reported as missing so that ids of others never leak.
bool visible_to(const ProjectState& state, const std::string& account) {
  return state.project && !state.deleted && state.project->account == account;
}

}  // namespace

const std::vector<std::string>& supported_frameworks() {
  static const std::vector<std::string> kFrameworks{std::string(kDefaultFramework)};
  return kFrameworks;
}

base::Result<std::vector<ProjectEvent>> decide(const ProjectState& state,
                                               const CreateProject& command) {
  if (state.project) return base::Error::conflict("project " + command.id + " already exists");
  std::vector<base::FieldError> errors;
  check_name(command.name, errors);
  if (command.repository.size() > kMaxRepositoryLength) {
    errors.push_back(
        {"repository", "must be at most " + std::to_string(kMaxRepositoryLength) + " characters"});
  }
  const std::string framework = command.framework.value_or(std::string(kDefaultFramework));
  check_framework(framework, errors);
  const double threshold = command.threshold.value_or(kDefaultThreshold);
  check_threshold(threshold, errors);
  if (!errors.empty()) return base::Error::invalid("the project is not valid", std::move(errors));

  Project project{command.id, command.account, command.name, command.repository,
                  framework,  threshold,       command.at,   command.at};
  return std::vector<ProjectEvent>{ProjectCreated{std::move(project)}};
}

base::Result<std::vector<ProjectEvent>> decide(const ProjectState& state,
                                               const UpdateProject& command) {
  if (!visible_to(state, command.account))
    return base::Error::not_found("no project " + command.id);
  std::vector<base::FieldError> errors;
  if (command.name) check_name(*command.name, errors);
  if (command.framework) check_framework(*command.framework, errors);
  if (command.threshold) check_threshold(*command.threshold, errors);
  if (!errors.empty()) return base::Error::invalid("the update is not valid", std::move(errors));

  // Only what actually changes is recorded; an update that changes nothing
  // produces no event (and no webhook).
  const Project& current = *state.project;
  ProjectUpdated event{command.id, std::nullopt, std::nullopt, std::nullopt, command.at};
  if (command.name && *command.name != current.name) event.name = command.name;
  if (command.framework && *command.framework != current.framework) {
    event.framework = command.framework;
  }
  if (command.threshold && *command.threshold != current.threshold) {
    event.threshold = command.threshold;
  }
  if (!event.name && !event.framework && !event.threshold) return std::vector<ProjectEvent>{};
  return std::vector<ProjectEvent>{std::move(event)};
}

base::Result<std::vector<ProjectEvent>> decide(const ProjectState& state,
                                               const DeleteProject& command) {
  if (!visible_to(state, command.account))
    return base::Error::not_found("no project " + command.id);
  return std::vector<ProjectEvent>{ProjectDeleted{command.id, command.at}};
}

base::Result<std::vector<ProjectEvent>> decide(const ProjectState& state,
                                               const ImportProject& command) {
  if (!visible_to(state, command.account))
    return base::Error::not_found("no project " + command.id);
  return std::vector<ProjectEvent>{ProjectImported{command.id, command.snapshot, command.at}};
}

ProjectState evolve(ProjectState state, const ProjectEvent& event) {
  std::visit(base::Overloaded{
                 [&](const ProjectCreated& created) {
                   state.project = created.project;
                   state.deleted = false;
                 },
                 [&](const ProjectUpdated& updated) {
                   if (!state.project) return;
                   if (updated.name) state.project->name = *updated.name;
                   if (updated.framework) state.project->framework = *updated.framework;
                   if (updated.threshold) state.project->threshold = *updated.threshold;
                   state.project->updated = updated.at;
                 },
                 [&](const ProjectDeleted& deleted) {
                   state.deleted = true;
                   if (state.project) state.project->updated = deleted.at;
                 },
                 // The project's record does not change: the snapshot is kept beside it.
                 [](const ProjectImported&) {},
             },
             event);
  return state;
}

}  // namespace vouch::events
