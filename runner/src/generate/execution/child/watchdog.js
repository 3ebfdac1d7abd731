'use strict';
// Runs synchronous code with a time limit. vm's `timeout` interrupts everything that runs inside
// the script, including the functions it calls, so an endless loop in the code under test ends
// with an error instead of hanging the process. (Loops after an `await` escape it; the parent
// process kills the child for those.)

const vm = require('node:vm');

const SLOT = Symbol.for('vouch.watchdog.thunk');
const script = new vm.Script('globalThis[Symbol.for("vouch.watchdog.thunk")]()', { filename: 'vouch-watchdog.js' });

class TimeLimitError extends Error {}

function runWithTimeLimit(thunk, timeoutMs) {
  globalThis[SLOT] = thunk;
  try {
    return script.runInThisContext({ timeout: timeoutMs });
  } catch (error) {
    if (error && error.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT')
      throw new TimeLimitError(`took longer than ${timeoutMs} ms`);
    throw error;
  } finally {
    delete globalThis[SLOT];
  }
}

module.exports = { runWithTimeLimit, TimeLimitError };
