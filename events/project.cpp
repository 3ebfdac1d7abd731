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
  if (!visible_to(state, command.account)) return no_such("project", command.id);
  std::vector<base::FieldError> errors;
  const ProjectChanges& asked = command.changes;
  if (asked.name) check_name(*asked.name, errors);
  if (asked.framework) check_framework(*asked.framework, errors);
  if (asked.threshold) check_threshold(*asked.threshold, errors);
  if (!errors.empty()) return base::Error::invalid("the update is not valid", std::move(errors));

  const Project& current = *state.project;
  return updated_events<ProjectEvent>(
      command, ProjectChanges{changed_value(asked.name, current.name),
                              changed_value(asked.framework, current.framework),
                              changed_value(asked.threshold, current.threshold)});
}

base::Result<std::vector<ProjectEvent>> decide(const ProjectState& state,
                                               const DeleteProject& command) {
  if (!visible_to(state, command.account)) return no_such("project", command.id);
  return std::vector<ProjectEvent>{ProjectDeleted{command.id, command.at}};
}

base::Result<std::vector<ProjectEvent>> decide(const ProjectState& state,
                                               const ImportProject& command) {
  if (!visible_to(state, command.account)) return no_such("project", command.id);
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
                   const ProjectChanges& changes = updated.changes;
                   if (changes.name) state.project->name = *changes.name;
                   if (changes.framework) state.project->framework = *changes.framework;
                   if (changes.threshold) state.project->threshold = *changes.threshold;
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
