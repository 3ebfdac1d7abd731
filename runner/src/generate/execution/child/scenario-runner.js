'use strict';
// Runs one scenario: a short async program, written in the same source text as the emitted test,
// whose every step goes through `__vouch.step`. Each step's outcome is recorded: the value it
// returns, the error it throws, what its promise settles to, or what its iterator yields. After
// each step the arguments the scenario declared are described again, to see whether the call
// changed them and which mock functions it called. A call that returns nothing while a callback
// it was given has not been called yet is given a moment to call back (Node-style APIs).

const vm = require('node:vm');
const { runWithTimeLimit, TimeLimitError } = require('./watchdog');
const { describeValue } = require('./snapshot');
const { isMockFunction } = require('./mock-function');
const { realTimers } = require('./fake-timers');
const { pendingIo } = require('./pending-io');

const { setTimeout, clearTimeout, now } = realTimers;

const MAX_ITERATED_ITEMS = 10;

class ScenarioStopped extends Error {}

// A Proxy may throw on reading `then` (chai's assertions: "Invalid Chai property"): the call
// returned all the same, and the test that makes it does not read `then`.
function isThenable(value) {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return false;
  try {
    return typeof value.then === 'function';
  } catch {
    return false;
  }
}

function iteratorKind(value) {
  const tag = value !== null && typeof value === 'object' ? Object.prototype.toString.call(value) : '';
  if (tag === '[object Generator]') return 'sync';
  if (tag === '[object AsyncGenerator]') return 'async';
  return null;
}

function settleWithin(promise, timeoutMs) {
  let timer;
  const timeout = new Promise((resolve) => {
    timer = setTimeout(() => resolve({ timedOut: true }), timeoutMs);
  });
  const settled = Promise.resolve(promise).then(
    (value) => ({ value }),
    (error) => ({ error, rejected: true }),
  );
  return Promise.race([settled, timeout]).finally(() => clearTimeout(timer));
}

function mocksIn(value) {
  const found = [];
  if (isMockFunction(value)) found.push({ path: [], mock: value });
  else if (value !== null && typeof value === 'object') {
    for (const key of Object.keys(value)) if (isMockFunction(value[key])) found.push({ path: [key], mock: value[key] });
  }
  return found;
}

class ScenarioRun {
  constructor(limits) {
    this.limits = limits;
    this.outcomes = [];
    this.effects = [];
    this.tracked = [];
  }

  track(name, value) {
    this.tracked.push({ name, value, before: describeValue(value) });
  }

  // What the tracked values hold now, and the calls their mocks have had.
  currentEffects() {
    return this.tracked.map(({ name, value, before }) => ({
      name,
      before,
      after: describeValue(value),
      mocks: mocksIn(value).map(({ path, mock }) => ({ path, calls: describeValue(mock.mock.calls) })),
    }));
  }

  record(outcome, effects = this.currentEffects()) {
    this.outcomes.push(outcome);
    this.effects.push(effects);
  }

  fail(outcome) {
    this.record(outcome);
    throw new ScenarioStopped();
  }

  // Indexes of declared callbacks (mock functions) that were first called within callbackMs, or,
  // while file-system requests are still running, within asyncMs: on a busy machine a read
  // answers later than callbackMs, and its callback would go unrecorded.
  async waitForCallbacks() {
    const waiting = this.tracked
      .map((entry, i) => ({ ...entry, i }))
      .filter(({ value }) => isMockFunction(value) && !value.mock.calls.length);
    const start = now();
    const waitMore = () =>
      now() < start + this.limits.callbackMs || (pendingIo() && now() < start + this.limits.asyncMs);
    while (waiting.length && waitMore()) {
      await new Promise((resolve) => setTimeout(resolve, 1));
      const called = waiting.filter(({ value }) => value.mock.calls.length).map(({ i }) => i);
      if (called.length) return called;
    }
    return [];
  }

  // The step's value; a step that throws ends the scenario.
  callNow(thunk) {
    try {
      return runWithTimeLimit(thunk, this.limits.syncMs);
    } catch (error) {
      return this.fail(
        error instanceof TimeLimitError
          ? { kind: 'timeout' }
          : { kind: 'throw', value: describeValue(error), missingModule: error && error.code === 'MODULE_NOT_FOUND' },
      );
    }
  }

  // A call left in flight (`const pending = limit(job)`): its promise is held, not awaited, for a
  // later settle step (settleOrder). A call that gives no promise is recorded as it returned.
  launch(index, thunk) {
    const value = this.callNow(thunk);
    this.record(isThenable(value) ? { kind: 'launch' } : { kind: 'return', value: describeValue(value) });
    return value;
  }

  // A step run while calls are in flight: at once, with no wait after it, as the test runs it.
  stepNow(index, thunk) {
    const value = this.callNow(thunk);
    this.record({ kind: 'return', value: describeValue(value) });
    return value;
  }

  // The step's value in a box, `{ value }`: an async function's result is read for `then`, which
  // a Proxy may throw on (chai's assertions), and the program's `const x = …` never reads it.
  async step(index, thunk) {
    const value = this.callNow(thunk);
    if (isThenable(value)) {
      const settled = await settleWithin(value, this.limits.asyncMs);
      if (settled.timedOut) this.fail({ kind: 'timeout' });
      if (settled.rejected) this.fail({ kind: 'reject', value: describeValue(settled.error) });
      this.record({ kind: 'resolve', value: describeValue(settled.value) });
      return { value: settled.value };
    }
    const iterating = iteratorKind(value);
    if (iterating) return { value: await this.iterate(value, iterating) };
    // The test waits for a callback only when one was called: where none was, it checks the state
    // as the call left it, before the wait (a mock that fails with EBUSY, retried on a timer,
    // would have been called again during the wait, and not yet in the test).
    const returned = this.currentEffects();
    const calledBack = value === undefined ? await this.waitForCallbacks() : [];
    if (calledBack.length) this.record({ kind: 'return', value: describeValue(value), calledBack });
    else this.record({ kind: 'return', value: describeValue(value) }, returned);
    return { value };
  }

  async iterate(iterator, kind) {
    const items = [];
    let done = false;
    try {
      while (!done && items.length < MAX_ITERATED_ITEMS) {
        let next = runWithTimeLimit(() => iterator.next(), this.limits.syncMs);
        if (kind === 'async') {
          const settled = await settleWithin(next, this.limits.asyncMs);
          if (settled.timedOut) this.fail({ kind: 'timeout' });
          if (settled.rejected) throw settled.error;
          next = settled.value;
        }
        done = Boolean(next.done);
        if (!done) items.push(next.value);
      }
    } catch (error) {
      if (error instanceof ScenarioStopped) throw error;
      if (error instanceof TimeLimitError) this.fail({ kind: 'timeout' });
      // An async iterator fails by rejecting; a sync one by throwing.
      this.fail({ kind: kind === 'async' ? 'reject' : 'throw', value: describeValue(error), iterated: kind });
    }
    this.record({ kind: 'yield', iterated: kind, value: describeValue(items), done });
    return undefined;
  }
}

// program: source of `(async function (__vouch, ...bindings) { ... })`. `elsewhere`: the second
// run names the program another file, its code two lines further down, so that a text the code
// derives from where it was called (depd's default message, `<anonymous@file:7:29>`) differs
// between the runs, as it differs in the test file, and is asserted by what both runs share.
async function runScenario(program, bindingValues, limits, { elsewhere = false } = {}) {
  const run = new ScenarioRun(limits);
  const api = {
    step: (index, thunk) => run.step(index, thunk),
    launch: (index, thunk) => run.launch(index, thunk),
    stepNow: (index, thunk) => run.stepNow(index, thunk),
    track: (name, value) => run.track(name, value),
  };
  const fn = elsewhere
    ? vm.runInThisContext(`\n\n${program}`, { filename: 'vouch-scenario-elsewhere.js' })
    : vm.runInThisContext(program, { filename: 'vouch-scenario.js' });
  try {
    await fn(api, ...bindingValues);
  } catch (error) {
    if (!(error instanceof ScenarioStopped)) throw error;
  }
  return { outcomes: run.outcomes, effects: run.effects };
}

module.exports = { runScenario };
