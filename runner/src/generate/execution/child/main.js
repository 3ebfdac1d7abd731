'use strict';
// Entry point of the child process that executes the code under test (forked by executor.js).
// It receives instrumented files once, then answers `load` and `run` requests over IPC, one at a
// time. Anything the code under test does that would end or disturb the process (process.exit,
// uncaught errors from timers) is caught and reported as a flag on the scenario it happened in.

const { ModuleLoader } = require('./module-loader');
const { runWithTimeLimit, TimeLimitError } = require('./watchdog');
const { runScenario } = require('./scenario-runner');
const { readExportsShape } = require('./shape');
const { graphRegexes } = require('./graph-regexes');
const { CoverageProbe } = require('./coverage-probe');
const { jestStandIn } = require('./mock-function');
const { withClockShift } = require('./clock');
const { enterOtherEnvironment } = require('../other-environment');
const { recordEvents } = require('../event-recorder');
const { settleOrder } = require('../settle-order');
const { realTimers, pendingTimerFaults } = require('./fake-timers');
const { enterFreshFolder } = require('./fresh-folder');
const { installFolderGuard, protect } = require('./folder-guard');
const { installStdioGuard } = require('./stdio-guard');
const { pendingIo } = require('./pending-io');
const { keepEnvironment } = require('./process-env');

let loader = null;
let probe = null;
let limits = null;
let elsewhere = null;
let disturbances = [];

class ExitAttempt extends Error {}

process.exit = (code) => {
  disturbances.push(`process.exit(${code === undefined ? '' : code})`);
  throw new ExitAttempt('process.exit was called');
};
process.on('uncaughtException', (error) => disturbances.push(`uncaught ${error && error.message}`));
installFolderGuard((refused) => disturbances.push(refused));
installStdioGuard((refused) => disturbances.push(refused));
process.on('unhandledRejection', (error) => disturbances.push(`unhandled rejection ${error && error.message}`));
// Scenario source calls `jest.fn(...)`, `recordEvents(...)` and `settleOrder(...)`, exactly as
// the emitted test will.
globalThis.jest = jestStandIn;
globalThis.recordEvents = recordEvents;
globalThis.settleOrder = settleOrder;

function bindingValues(moduleExports, bindings) {
  return bindings.map((binding) => {
    if (binding.from === 'module') return moduleExports;
    if (binding.from === 'default')
      return moduleExports && moduleExports.__esModule ? moduleExports.default : moduleExports;
    return moduleExports[binding.key];
  });
}

function describeLoadError(error) {
  if (error instanceof TimeLimitError) return { code: 'timeout', message: `loading the module ${error.message}` };
  if (error instanceof ExitAttempt)
    return { code: 'load_error', message: `loading the module calls ${disturbances[disturbances.length - 1]}` };
  if (error && error.code === 'MODULE_NOT_FOUND' && error.request) {
    return {
      code: 'missing_module',
      module: error.request,
      message: `requires '${error.request}', which is not installed or not among the submitted files`,
    };
  }
  const message = error instanceof Error ? `${error.name}: ${error.message}` : `threw ${String(error)}`;
  return { code: 'load_error', message: `loading the module failed: ${message}` };
}

// File-system requests complete on libuv's thread pool, later than the next turn of the loop: a
// callback the scenario passed (`db.set(key, value, 'abc')`, called once a write is done) can throw
// then, after the test would have ended, and fail the whole run. Waited for up to IO_SETTLE_MS.
const IO_SETTLE_MS = 200;

async function settleIo() {
  const deadline = realTimers.now() + IO_SETTLE_MS;
  await new Promise((resolve) => realTimers.setImmediate(resolve));
  while (pendingIo() && realTimers.now() < deadline) await new Promise((resolve) => realTimers.setTimeout(resolve, 1));
}

// Loads the module afresh and runs one scenario in it.
function runScenarioOnce(message) {
  return withClockShift(message.clockShiftMs, async () => {
    disturbances = [];
    probe.reset();
    const leaveFolder = enterFreshFolder();
    const restoreEnvironment = keepEnvironment();
    let result;
    try {
      const moduleExports = runWithTimeLimit(
        () => loader.loadFresh(message.entry, message.override || null, message.preload || []),
        limits.loadMs,
      );
      // As the test file does: `jest.useFakeTimers()` after loading the module.
      if (message.fakeTimers) jestStandIn.useFakeTimers();
      result = await runScenario(message.program, bindingValues(moduleExports, message.bindings), limits, {
        elsewhere: Boolean(message.clockShiftMs),
      });
    } catch (error) {
      leaveFolder();
      restoreEnvironment();
      return { ok: false, error: String((error && error.stack) || error), keys: probe.hits() };
    } finally {
      disturbances.push(...pendingTimerFaults());
      // Timers still pending on a fake clock never fire, as at the end of a Jest test.
      jestStandIn.useRealTimers();
    }
    // Let timers the scenario started fire now, and its file-system requests complete, so that
    // their errors count against this scenario.
    await settleIo();
    leaveFolder();
    restoreEnvironment();
    return { ok: true, ...result, keys: probe.hits(), disturbances };
  });
}

const handlers = {
  init(message) {
    const files = new Map(message.files.map((file) => [file.path, file]));
    loader = new ModuleLoader(files, { nodePath: message.nodePath });
    probe = new CoverageProbe(message.coveragePaths);
    limits = message.limits;
    elsewhere = message.elsewhere || null;
    // The package's files and the generator's folders, and this process's own working folder.
    protect([...(message.protectedFolders || []), process.cwd()]);
    return {};
  },

  load(message) {
    disturbances = [];
    const restoreEnvironment = keepEnvironment();
    try {
      const moduleExports = runWithTimeLimit(
        () => loader.loadFresh(message.entry, null, message.preload || []),
        limits.loadMs,
      );
      const regexes = graphRegexes(loader.lastRegistry, (file) => loader.isInstalled(file));
      return { ok: true, ...readExportsShape(moduleExports), regexes };
    } catch (error) {
      return { ok: false, error: describeLoadError(error) };
    } finally {
      restoreEnvironment();
    }
  },

  // The second run of a scenario (a shifted clock) also runs as another user on another machine.
  async run(message) {
    const leave = message.clockShiftMs && elsewhere ? enterOtherEnvironment(elsewhere) : null;
    try {
      return await runScenarioOnce(message);
    } finally {
      if (leave) leave();
    }
  },
};

process.on('message', async (message) => {
  const reply = await handlers[message.type](message);
  process.send({ id: message.id, ...reply });
});
