'use strict';

// How eagerly V8 optimises the runner's code, chosen before Jest is loaded.
//
// V8 counts what each function runs and hands the busy ones to its optimising
// compiler (TurboFan), on background threads. A runner that was not primed
// (--prime-rounds 0: it was started with runs waiting, on their path) lives
// for one job: the Jest, Babel and istanbul code it runs once per process
// gets optimised at a cost it never earns back. Measured on the `ms` suite
// (51 tests, transforms cached), an unprimed runner used 0.71 s of CPU with
// the default budget and 0.62 s with eight times that budget, and its job
// took 444 ms instead of 415 ms. Code that really is hot (a test looping a
// million times) still reaches TurboFan: fib(30) and a 5·10⁷ loop ran as
// fast as with the default.
//
// A primed runner keeps V8's default: its warm-up rounds exist to get Jest
// optimised before the job (with the larger budget its job took 199 ms
// instead of 186 ms).

const v8 = require('node:v8');

// Node 20's default (V8 11.3: 67,584 bytes of bytecode run), and eight times it.
const DEFAULT_INTERRUPT_BUDGET = 67584;
const UNPRIMED_INTERRUPT_BUDGET = 8 * DEFAULT_INTERRUPT_BUDGET;

// `options`: run.js's (src/run/run-options.js).
function chooseTiering(options) {
  if (options.primeRounds === 0) setInterruptBudget(UNPRIMED_INTERRUPT_BUDGET);
}

// Calls fn() under the unprimed runners' flags, in a primed runner. V8 keeps a
// hash of its flags in every code cache it writes and rejects a cache written
// under other flags, and the interrupt budget counts: this is how a primed
// runner writes a cache that unprimed ones accept (src/run/module-code-cache.js).
// The budget does not change the code compiled, only when it is optimised.
function withUnprimedTiering(fn) {
  setInterruptBudget(UNPRIMED_INTERRUPT_BUDGET);
  try {
    return fn();
  } finally {
    setInterruptBudget(DEFAULT_INTERRUPT_BUDGET);
  }
}

function setInterruptBudget(bytes) {
  v8.setFlagsFromString(`--interrupt-budget=${bytes}`);
}

module.exports = { chooseTiering, withUnprimedTiering, UNPRIMED_INTERRUPT_BUDGET };
