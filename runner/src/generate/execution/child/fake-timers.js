'use strict';
// Jest's fake timers for the child process: `jest.useFakeTimers({ advanceTimers: true })` and the
// calls that move them, on the same library (@sinonjs/fake-timers) with the same APIs faked as
// Jest's own, so a scenario that schedules timers behaves here as in the emitted test. The clock
// also follows real time (20 ms steps, Jest's default for `advanceTimers: true`), so code that
// awaits a short timer still finishes; synchronous steps see no time pass between them. The
// child's own waiting (time limits, waiting for callbacks) uses the real timers captured in
// `realTimers` before anything is faked.

const { withGlobal } = require('@sinonjs/fake-timers');

const realTimers = { setTimeout, clearTimeout, setImmediate, now: Date.now.bind(Date) };

let clock = null;

function useFakeTimers() {
  if (clock) clock.uninstall();
  const timers = withGlobal(globalThis);
  clock = timers.install({
    now: Date.now(),
    toFake: Object.keys(timers.timers),
    loopLimit: 100000,
    shouldClearNativeTimers: true,
    shouldAdvanceTime: true,
  });
}

function useRealTimers() {
  if (clock) clock.uninstall();
  clock = null;
}

function activeClock() {
  if (!clock) throw new Error('fake timers are not in use');
  return clock;
}

// What the fake clock still holds that throws once run: a non-function handed to a faked
// `process.nextTick` (`if (cb) process.nextTick(cb)` with cb = 1). Node's own refuses it at once;
// the fake clock runs it later, in Jest while the next tests run, and fails them all.
function pendingTimerFaults() {
  if (!clock || !Array.isArray(clock.jobs)) return [];
  return clock.jobs.filter((job) => typeof job.func !== 'function').map(() => 'process.nextTick with a non-function');
}

const fakeTimerApi = {
  useFakeTimers,
  useRealTimers,
  advanceTimersByTime: (ms) => {
    activeClock().tick(ms);
  },
  runOnlyPendingTimers: () => {
    activeClock().runToLast();
  },
  runAllTimers: () => {
    activeClock().runAll();
  },
};

module.exports = { fakeTimerApi, realTimers, pendingTimerFaults };
