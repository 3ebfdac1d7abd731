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
const { primeRoundsOf } = require('./prime-rounds');

// Eight times Node 20's default (V8 11.3: 67,584 bytes of bytecode run).
const UNPRIMED_INTERRUPT_BUDGET = 8 * 67584;

function chooseTiering(argv) {
  let rounds;
  try {
    rounds = primeRoundsOf(argv);
  } catch {
    return;  // main() reports the bad argument
  }
  if (rounds === 0) v8.setFlagsFromString(`--interrupt-budget=${UNPRIMED_INTERRUPT_BUDGET}`);
}

module.exports = { chooseTiering, UNPRIMED_INTERRUPT_BUDGET };
