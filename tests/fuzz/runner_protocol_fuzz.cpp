// The runner protocol: whatever a runner (that is, tested code) prints on
// stdout and stderr is read without crashing, and a run's report is always
// one of the known outcomes.
#include "actors/execution/runner_protocol.hpp"
#include "fuzz_input.hpp"

using namespace vouch;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto fields = fuzz::split_input(data, size, 3);
  process::ProcessExit exit;
  exit.stderr_tail = std::string(fields[1]);
  exit.code = fields[2].empty() ? 0 : static_cast<unsigned char>(fields[2][0]) % 3 - 1;
  exit.signal = fields[2].size() > 1 ? static_cast<unsigned char>(fields[2][1]) % 16 : 0;
  exit.killed = fields[2].size() > 2 && fields[2][2] == 'k';
  const std::optional<std::string> line =
      fields[0] == "EOF" ? std::nullopt : std::optional<std::string>(fields[0]);

  (void)actors::is_ready_line(fields[0].data() ? std::string(fields[0]) : std::string());
  (void)actors::sandbox_verdict(exit);
  auto generation = actors::read_generation(line, exit);
  if (!generation.ok()) VOUCH_FUZZ_CHECK(!generation.error().message.empty());
  // Every run ends with results or with an error that says why.
  const auto report = actors::read_run(line, exit);
  VOUCH_FUZZ_CHECK(report.results.has_value() || report.error.has_value());
  return 0;
}
