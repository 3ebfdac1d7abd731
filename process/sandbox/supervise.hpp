#pragma once

#include <chrono>

#include "base/result.hpp"
#include "process/sandbox/command.hpp"
#include "process/sandbox/outcome.hpp"

namespace vouch::sandbox {

// Runs `command` in `cwd` and watches it to its end: relays stdin to it,
// relays and keeps the end of its stderr, enforces the wall-time limit. Its
// stdout is the launcher's own, so its result line reaches the server without
// a detour.
//
// The wall clock starts with the first byte (or the end) of stdin, not at
// launch: a warm runner waits, unbounded, in the server's pool until a job is
// written to it, and only the job's time counts. The command runs in a
// session and process group of its own, killed as a whole when the wall time
// is up, when the command itself has ended (whatever it left behind goes with
// it), and when the launcher gets SIGTERM, SIGINT or SIGHUP (it then exits
// with 128 + the signal, without a report).
//
// kQuiet: stdin at its end from the start (the wall clock starts at once),
// stdout to /dev/null, stderr kept in the tail only: the isolation probe.
enum class Streams { kRelayed, kQuiet };

// How it ended (via_bwrap is left to the caller), or why it could not start.
base::Result<Ended> supervise(const Command& command, const std::filesystem::path& cwd,
                              std::chrono::milliseconds wall, Streams streams = Streams::kRelayed);

}  // namespace vouch::sandbox
