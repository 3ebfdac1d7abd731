'use strict';
// The clock a generation job's time budget is counted on. On a busy machine a job gets less CPU
// per wall second, and a budget counted in wall time would end its search, shrinking and mutant
// runs with less done than on an idle machine: other tests kept, for the same files. This clock
// advances with the share of the machine the job can get instead: every SAMPLE_MS it reads how
// many tasks are runnable (`procs_running` in /proc/stat, the job's own included) and advances by
// the wall time passed times min(1, cores / runnable). Where /proc/stat cannot be read it is the
// wall clock.
//
// A hard wall limit caps the stretch: the budget left never exceeds the wall time left before
// it (the sandbox ends the generator at its wall limit, and whatever it found with it).

const fs = require('node:fs');
const os = require('node:os');

const SAMPLE_MS = 100;

// Runnable tasks on the machine now, or null when /proc/stat says nothing.
function readRunnable() {
  try {
    const match = /^procs_running (\d+)$/m.exec(fs.readFileSync('/proc/stat', 'latin1'));
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

class BudgetClock {
  constructor({ wallNow = Date.now, runnable = readRunnable, cores = os.availableParallelism() } = {}) {
    this.wallNow = wallNow;
    this.runnable = runnable;
    this.cores = cores;
    this.timer = null;
    this.begin(Infinity, Infinity);
  }

  // Starts counting a budget of `budgetMs` (budget time) that must end within `hardWallMs` of
  // wall time from now (no cap when it is not finite). Returns the start, in the clock's time.
  start(budgetMs, hardWallMs) {
    this.stop();
    this.begin(budgetMs, hardWallMs);
    this.timer = setInterval(() => this.tick(), SAMPLE_MS);
    this.timer.unref();
    return this.origin;
  }

  stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  // The budget time now: milliseconds since the epoch, like Date.now(), advancing at the share.
  now() {
    const wall = this.wallNow();
    const counted = this.counted + (wall - this.lastWall) * this.share;
    if (!Number.isFinite(this.hardEnd)) return counted;
    return Math.max(counted, this.budgetEnd - (this.hardEnd - wall));
  }

  // The share the clock advances at now (1: as the wall clock).
  rate() {
    return this.share;
  }

  begin(budgetMs, hardWallMs) {
    const wall = this.wallNow();
    this.origin = wall;
    this.counted = wall;
    this.lastWall = wall;
    this.share = this.sample();
    this.budgetEnd = wall + budgetMs;
    this.hardEnd = Number.isFinite(hardWallMs) ? wall + Math.max(budgetMs, hardWallMs) : Infinity;
  }

  tick() {
    const wall = this.wallNow();
    this.counted += (wall - this.lastWall) * this.share;
    this.lastWall = wall;
    this.share = this.sample();
  }

  sample() {
    const runnable = this.runnable();
    return runnable ? Math.min(1, this.cores / runnable) : 1;
  }
}

// The clock of this process's job (a generator process runs one job at a time).
const clock = new BudgetClock();

module.exports = { BudgetClock, clock, readRunnable };
