'use strict';
// The budget clock: budget time follows the CPU share a job can get, capped by a hard wall limit.

const test = require('node:test');
const assert = require('node:assert/strict');
const { BudgetClock, readRunnable, shareOf } = require('../../src/generate/budget-clock');

// A clock on a fake wall clock and a fake count of runnable tasks (the job has one of them).
function fakeClock({ cores = 2, runnable = 1 } = {}) {
  const machine = { wall: 1_000_000, runnable };
  const clock = new BudgetClock({
    wallNow: () => machine.wall,
    runnable: () => (machine.runnable ? { total: machine.runnable, own: 1 } : null),
    cores,
  });
  const pass = (ms) => {
    machine.wall += ms;
    clock.tick();
  };
  return { clock, machine, pass };
}

test('on an idle machine budget time is wall time', () => {
  const { clock, pass } = fakeClock({ runnable: 1 });
  const started = clock.start(20000, 40000);
  clock.stop();
  pass(5000);
  assert.equal(clock.now() - started, 5000);
});

test('with more runnable tasks than cores it advances at the fair share', () => {
  const { clock, machine, pass } = fakeClock({ cores: 2, runnable: 4 });
  const started = clock.start(20000, 40000);
  clock.stop();
  pass(1000);
  assert.equal(clock.now() - started, 500);
  machine.runnable = 2;
  pass(100); // the share read at this tick applies from now on
  pass(1000);
  assert.equal(clock.now() - started, 500 + 50 + 1000);
});

test('the budget left never exceeds the wall time left before the hard limit', () => {
  const { clock, pass } = fakeClock({ cores: 2, runnable: 8 });
  const started = clock.start(20000, 25000);
  clock.stop();
  pass(10000); // a quarter share: 2.5 s of budget time, but only 15 s of wall time left
  assert.equal(clock.now() - started, 20000 - 15000);
  assert.equal(clock.cutMs(), 5000 - 2500);
  pass(15000);
  assert.ok(clock.now() >= started + 20000, 'the budget has ended at the hard limit');
});

test('nothing is cut while the budget fits in the wall limit', () => {
  const { clock, pass } = fakeClock({ cores: 2, runnable: 3 });
  const started = clock.start(20000, 40000);
  clock.stop();
  pass(30000);
  assert.equal(clock.now() - started, 20000);
  assert.equal(clock.cutMs(), 0);
});

test('without /proc/stat it is the wall clock, and it reads procs_running where there is one', () => {
  const { clock, pass } = fakeClock({ runnable: null });
  const started = clock.start(1000, 2000);
  clock.stop();
  pass(700);
  assert.equal(clock.now() - started, 700);
  const runnable = readRunnable();
  assert.ok(runnable === null || (runnable.own >= 1 && runnable.total >= 1), `read ${JSON.stringify(runnable)}`);
});

test("the job's own tasks are not a load on it", () => {
  assert.equal(shareOf({ total: 4, own: 4 }, 2), 1);
  assert.equal(shareOf({ total: 2, own: 1 }, 2), 1);
  assert.equal(shareOf({ total: 4, own: 2 }, 2), 0.5);
  assert.equal(shareOf({ total: 3, own: 1 }, 2), 2 / 3);
  assert.equal(shareOf({ total: 6, own: 3 }, 2), 0.5);
});

test("the job's own threads count as its own, not as load: a busy worker thread beside the main one", async () => {
  if (readRunnable() === null) return; // no /proc here
  const { Worker } = require('node:worker_threads');
  const worker = new Worker('const end = Date.now() + 3000; while (Date.now() < end);', { eval: true });
  try {
    await new Promise((resolve) => worker.once('online', resolve));
    // The main thread reading /proc and the spinning worker are both runnable.
    const readings = Array.from({ length: 20 }, () => readRunnable().own);
    assert.ok(readings.filter((own) => own >= 2).length >= 15, `own at each reading: ${readings}`);
  } finally {
    await worker.terminate();
  }
});
