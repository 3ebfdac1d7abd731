'use strict';
// The clock a generation job's time budget is counted on. On a busy machine a job gets less CPU
// per wall second, and a budget counted in wall time would end its search, shrinking and mutant
// runs with less done than on an idle machine: other tests kept, for the same files. This clock
// advances with the share of the CPU the job gets compared with an idle machine instead. Every
// SAMPLE_MS it reads how many tasks are runnable on the machine (`procs_running` in /proc/stat)
// and how many of them are the job's own (threads of this process and its descendants in state R); with
// `own` of the job's tasks beside `others` on `cores` cores, the job gets
// cores * own / (own + others) cores where it would get min(cores, own) alone. Where /proc cannot
// be read it is the wall clock.
//
// A hard wall limit caps the stretch: the budget left never exceeds the wall time left before
// it (the sandbox ends the generator at its wall limit, and whatever it found with it).

const fs = require('node:fs');
const os = require('node:os');

const SAMPLE_MS = 500;

// The state letter of a /proc/…/stat line: `pid (comm) state ppid …`, where comm may hold spaces
// and parentheses (it ends at the last ')').
function statFields(stat) {
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ', 2);
}

// How many threads of process `pid` are runnable. procs_running counts threads, and a job's node
// processes run V8's garbage collection and compiler threads and libuv's pool beside their main
// thread (a node process allocating had 0.4 of them runnable at an average reading): counting
// only main threads took them for other jobs' load, and an idle machine for a busy one.
function runnableThreads(pid) {
  let count = 0;
  let threads;
  try {
    threads = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return 0; // gone meanwhile
  }
  for (const thread of threads) {
    try {
      if (statFields(fs.readFileSync(`/proc/${pid}/task/${thread}/stat`, 'latin1'))[0] === 'R') count++;
    } catch {
      // ended meanwhile
    }
  }
  return count;
}

// { total, own }: runnable tasks (threads) on the machine and those of this process's tree; null
// when /proc says nothing.
function readRunnable() {
  try {
    const match = /^procs_running (\d+)$/m.exec(fs.readFileSync('/proc/stat', 'latin1'));
    if (!match) return null;
    const children = new Map();
    for (const entry of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      let stat;
      try {
        stat = fs.readFileSync(`/proc/${entry}/stat`, 'latin1');
      } catch {
        continue; // gone meanwhile
      }
      const ppid = statFields(stat)[1];
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(entry);
    }
    let own = 0;
    const queue = [String(process.pid)];
    while (queue.length) {
      const pid = queue.pop();
      own += runnableThreads(pid);
      queue.push(...(children.get(pid) || []));
    }
    return { total: Number(match[1]), own: Math.max(1, own) };
  } catch {
    return null;
  }
}

// The job's CPU compared with what it would get alone on `cores` cores.
function shareOf({ total, own }, cores) {
  const others = Math.max(0, total - own);
  if (own + others <= cores) return 1;
  return Math.min(1, (cores * own) / (own + others) / Math.min(cores, own));
}

class BudgetClock {
  constructor({ wallNow = Date.now, runnable = readRunnable, cores = os.availableParallelism() } = {}) {
    this.wallNow = wallNow;
    this.runnable = runnable;
    this.cores = cores;
    this.timer = null;
    this.begin(Infinity, Infinity, 1); // the wall clock until a job starts: nothing read yet
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
    const floor = this.budgetEnd - (this.hardEnd - wall);
    if (floor > counted) this.cut = Math.max(this.cut, Math.min(floor, this.budgetEnd) - counted);
    return Math.max(counted, floor);
  }

  // How much budget time the wall limit took away so far (0: none): what a busy machine cost.
  cutMs() {
    return this.cut;
  }

  begin(budgetMs, hardWallMs, share = this.sample()) {
    const wall = this.wallNow();
    this.origin = wall;
    this.counted = wall;
    this.cut = 0;
    this.lastWall = wall;
    this.share = share;
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
    return runnable ? shareOf(runnable, this.cores) : 1;
  }
}

// The clock of this process's job (a generator process runs one job at a time).
const clock = new BudgetClock();

module.exports = { BudgetClock, clock, readRunnable, shareOf };
