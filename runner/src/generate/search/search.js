'use strict';
// Feedback-directed search for inputs. Each target's seed scenarios run first; then random
// scenarios and mutants of kept scenarios. A scenario is kept when it executes coverage keys
// (statements, branches, functions) that no kept scenario executed before, and when a second run
// agrees with the first. The search stops at its deadline, when everything is covered, or when
// nothing new has been found for a while.

const { clock } = require('../budget-clock');
const { renderScenario, programSource } = require('./scenario');
const { mergeRuns } = require('./stability');

// The search stops when it stops making progress: no new coverage for a time that grows with how
// long coverage took so far (STALL_SHARE of it, between STALL_MIN_MS and STALL_MAX_MS: a module
// covered in the first 400 ms is done 2 s later, one still finding code after 3.3 s gets 2.5 s
// more, as every module did before), and no new distinct outcome held as an alternate for
// STALL_MIN_MS, over at least STALL_SCENARIOS scenarios. (At 1 s, ini stopped before the gains
// it finds at 3-4 s.) Distinct outcomes count only up to
// DISTINCT_HORIZON_MS after the last new coverage: slow code (fake timers, 25 ms a run) keeps
// finding some long after.
const STALL_SCENARIOS = 50;
const STALL_MIN_MS = 2000;
const STALL_MAX_MS = 2500;
const STALL_SHARE = 0.75;
const DISTINCT_HORIZON_MS = 2 * STALL_MAX_MS;
const MUTATION_SHARE = 0.65;
const MAX_PENDING = 40;
// Chance of a scenario that first calls another export of the same module (state set up by one
// export and read by another: `add(1)` then `size()`).
const COMBINATION_SHARE = 0.1;
const MAX_COMBINED_STEPS = 5;
const MAX_OBSERVED_STEPS = 8;
// The second run sees a clock 400 days, 3 h 7 min 11.5 s later, so every value derived from the
// current time (down to the millisecond, up to the year) differs from the first run's.
const SECOND_RUN_CLOCK_SHIFT_MS = (((400 * 24 + 3) * 60 + 7) * 60 + 11.5) * 1000;
// Scenarios that reached nothing new are held (unconfirmed) as alternates: tests that may kill
// mutants the kept ones miss (strengthen.js). Those that ended differently from every scenario
// before (up to MAX_DISTINCT) come first; the others (a boundary value that returns what its
// neighbour returns), a uniform sample of MAX_ALIKE of them, after.
const MAX_DISTINCT = 40;
const MAX_ALIKE = 40;
// Once everything is covered, seeds (mined boundaries, one argument varied at a time) still run
// this long for alternates.
const SEEDS_AFTER_COVERAGE_MS = 1500;
const MUTANT_RUN_MS = 1500;
// Strings taken from each returned list or table as inputs for other calls.
const OBSERVED_PARTS = 3;

function outcomeSignature(outcomes) {
  return JSON.stringify(outcomes.map((outcome) => [outcome.kind, outcome.value]));
}

function scenarioKey(rendered) {
  return (
    rendered.declarations.map((d) => JSON.stringify(d.candidate)).join('|') +
    rendered.steps.map((s) => s.expression).join(';')
  );
}

// A scenario that ends in a value, not an error: the usage a reader of the tests wants to see.
function isHappyPath(outcomes) {
  const last = outcomes[outcomes.length - 1];
  return ['return', 'resolve', 'yield'].includes(last.kind) && last.value.t !== 'undefined' && last.value.v !== 'NaN';
}

// A run can become a test only if nothing disturbed it and every step finished.
function usable(reply) {
  return (
    reply.ok &&
    !reply.disturbances.length &&
    reply.outcomes.length > 0 &&
    reply.outcomes.every((outcome) => outcome.kind !== 'timeout' && !outcome.missingModule)
  );
}

// The values of the atoms of `type` anywhere in a scenario's steps (its inputs).
function atomValues(steps, type) {
  const values = [];
  const collect = (value) => {
    if (Array.isArray(value)) value.forEach(collect);
    else if (value && typeof value === 'object') {
      if (value.kind === 'atom' && value.type === type) values.push(value.value);
      else Object.values(value).forEach(collect);
    }
  };
  collect(steps);
  return values;
}

class Search {
  // modules: Map of file path -> { entry, bindings, bindingNames }
  // targets: [{ target, factory }]; observed: the ObservedValues the factories' pools draw on
  constructor({ modules, targets, executor, totalKeys, limits, observed, rng, log }) {
    this.modules = modules;
    this.observed = observed;
    this.targets = targets.map(({ target, factory }) => ({
      target,
      factory,
      seeds: factory.seeds(),
      seedsDone: false,
      tries: 0,
      gains: 0,
      entries: [],
      pending: [],
      distinct: [],
      alike: [],
      alikeSeen: 0,
      signatures: new Set(),
    }));
    this.executor = executor;
    this.totalKeys = totalKeys;
    this.limits = limits;
    this.rng = rng;
    this.log = log;
    this.covered = new Set();
    this.corpus = [];
    this.tried = new Set();
    this.executions = 0;
  }

  // Runs a scenario once in a freshly loaded module (a mutant of one of its files: `override`).
  // Returns the child's reply, with `usable` set.
  async runOnce(target, scenario, clockShiftMs = 0, override = null) {
    const module = this.modules.get(target.file);
    const program = programSource(renderScenario(scenario, module.bindingNames), module.bindingNames);
    const fullMs =
      this.limits.loadMs +
      scenario.steps.length * (this.limits.syncMs + this.limits.asyncMs + this.limits.callbackMs) +
      1000;
    // A mutant that hangs is killed (as Stryker counts a timeout); it need not be waited for long.
    const timeoutMs = override ? Math.min(fullMs, MUTANT_RUN_MS) : fullMs;
    this.executions++;
    const reply = await this.executor.run(module.entry, module.bindings, program, timeoutMs, {
      clockShiftMs,
      fakeTimers: module.fakeTimers,
      override,
    });
    return { ...reply, usable: usable(reply) };
  }

  // Runs a scenario a second time (a first run may be given) and returns the corpus entry both
  // runs agree on, or null. Steps after one that throws are dropped: they never ran.
  async confirm(target, scenario, first = null) {
    const firstReply = first || (await this.runOnce(target, scenario));
    if (!firstReply.usable) return null;
    const second = await this.runOnce(target, scenario, SECOND_RUN_CLOCK_SHIFT_MS);
    if (!second.usable) return null;
    const merged = mergeRuns(firstReply, second, {
      knownLength: this.spelledNumbers(target, scenario),
      knownAlphabet: this.spelledAlphabet(scenario),
    });
    if (!merged) return null;
    const ran = { targetId: scenario.targetId, steps: scenario.steps.slice(0, merged.outcomes.length) };
    const module = this.modules.get(target.file);
    return {
      target,
      scenario: ran,
      rendered: renderScenario(ran, module.bindingNames),
      ...merged,
      keys: new Set(merged.keys),
      happy: isHappyPath(merged.outcomes),
    };
  }

  // The smallest string the literals of the job's modules or the scenario's inputs spell that
  // holds every character of a text (stability.js's knownAlphabet: random text drawn from it is
  // asserted to be), or null. Alphabets are printable ASCII, at least two characters.
  spelledAlphabet(scenario) {
    if (!this.alphabets) {
      this.alphabets = [];
      for (const module of this.modules.values())
        if (module.pool) this.alphabets.push(...module.pool.strings.map((string) => string.value));
    }
    // Not what calls returned: an earlier random text would be a part of the alphabet only.
    const candidates = [...atomValues(scenario.steps, 'string'), ...this.alphabets]
      .map((text) => new Set(text))
      .filter((chars) => chars.size >= 2 && [...chars].every((char) => char >= ' ' && char <= '~'));
    return (text) => {
      const chars = new Set(text);
      const fitting = candidates.filter((alphabet) => [...chars].every((char) => alphabet.has(char)));
      if (!fitting.length) return null;
      const smallest = fitting.reduce((best, alphabet) => (alphabet.size < best.size ? alphabet : best));
      return [...smallest].join('');
    };
  }

  // Whether the module's literals or the scenario's inputs spell a number (stability.js's
  // knownLength: random text of that length is asserted by its length).
  spelledNumbers(target, scenario) {
    const slot = this.targets.find((other) => other.target === target);
    const numbers = new Set([
      ...(slot ? slot.factory.pool.minedFor('number').map((number) => number.value) : []),
      ...atomValues(scenario.steps, 'number'),
    ]);
    return (length) => numbers.has(length);
  }

  // What calls return are candidate inputs for other calls: primitives, and a few of the strings
  // in a returned list or table, and its keys (`getCodes()` gives `getName('AD')` its input).
  observeResults(outcomes) {
    const primitive = (value) =>
      value && (value.t === 'string' || (value.t === 'number' && typeof value.v === 'number'));
    for (const outcome of outcomes) {
      const value = outcome.value;
      if (!value || (outcome.kind !== 'return' && outcome.kind !== 'resolve')) continue;
      if (primitive(value)) this.observed.add(value.v);
      else if (value.t === 'array')
        value.items
          .filter(primitive)
          .slice(0, OBSERVED_PARTS)
          .forEach((item) => this.observed.add(item.v));
      else if (value.t === 'object') {
        value.entries.slice(0, OBSERVED_PARTS).forEach(([key, item]) => {
          this.observed.add(key);
          if (primitive(item)) this.observed.add(item.v);
        });
      }
    }
  }

  // Runs one scenario; returns true when it reached new coverage. Besides scenarios that reach
  // new code, the first one per target that ends in a value is kept too: when minimisation has to
  // choose between equally useful tests, it prefers one showing normal use over one that throws.
  async try(slot, scenario) {
    slot.tries++;
    const module = this.modules.get(slot.target.file);
    const key = scenarioKey(renderScenario(scenario, module.bindingNames));
    if (this.tried.has(key)) return false;
    this.tried.add(key);
    const reply = await this.runOnce(slot.target, scenario);
    if (!reply.usable) return false;
    this.observeResults(reply.outcomes);
    const representative = !slot.hasHappyPath && isHappyPath(reply.outcomes);
    const signature = outcomeSignature(reply.outcomes);
    const seen = slot.signatures.has(signature);
    slot.signatures.add(signature);
    if (!representative && !reply.keys.some((k) => !this.covered.has(k))) {
      this.holdAlternate(slot, { target: slot.target, scenario, reply }, !seen);
      // A returned function is still called with what its factory was given (a pattern's own
      // text, data keyed by its names), a few times per target (ScenarioFactory.roundTrips).
      if (slot.pending.length < MAX_PENDING) slot.pending.push(...slot.factory.roundTrips(scenario, reply.outcomes));
      return false;
    }

    const confirmed = await this.confirm(slot.target, scenario, reply);
    if (!confirmed) return false;
    const entry = await this.withObservers(slot, confirmed);
    const gained = [...entry.keys].some((k) => !this.covered.has(k));
    if (!gained && !representative) return false;
    entry.keys.forEach((k) => this.covered.add(k));
    this.corpus.push(entry);
    slot.entries.push(entry);
    if (slot.pending.length < MAX_PENDING) {
      slot.pending.push(...slot.factory.extend(entry.scenario, entry.outcomes));
      if (module.fakeTimers) slot.pending.push(...slot.factory.timerAdvances(entry.scenario));
    }
    slot.hasHappyPath = slot.hasHappyPath || entry.happy;
    if (gained) slot.gains++;
    return gained;
  }

  // The entry with reads of the state its last step changed appended, when they run alike twice
  // and keep its coverage; else the entry as it is.
  async withObservers(slot, entry) {
    const observing = this.observing(slot, entry.scenario, entry.outcomes);
    if (!observing) return entry;
    const observed = await this.confirm(slot.target, observing);
    const reads = observing.steps.slice(entry.scenario.steps.length);
    const complete = observed && observed.outcomes.length === entry.scenario.steps.length + reads.length;
    return complete && [...entry.keys].every((key) => observed.keys.has(key)) ? observed : entry;
  }

  // `scenario` (which ended in `outcomes`) with reads of the state its last step changed
  // appended (ScenarioFactory.observers), or null when there are none.
  observing(slot, scenario, outcomes) {
    const reads = slot.factory.observers(scenario, outcomes);
    if (!reads.length || scenario.steps.length + reads.length > MAX_OBSERVED_STEPS) return null;
    return { ...scenario, steps: [...scenario.steps, ...reads] };
  }

  // The same for a scenario of `target` (a corpus entry's or an alternate's), or null.
  observingFor(target, scenario, outcomes) {
    const slot = this.targets.find((other) => other.target === target);
    return slot ? this.observing(slot, scenario, outcomes) : null;
  }

  nextScenario(slot) {
    // Extensions of kept scenarios (calling what they returned) interleave with the seeds.
    if (slot.pending.length && (slot.seedsDone || this.rng.chance(0.5))) return slot.pending.shift();
    if (!slot.seedsDone) {
      const next = slot.seeds.next();
      if (!next.done) return next.value;
      slot.seedsDone = true;
    }
    const base =
      slot.entries.length && this.rng.chance(MUTATION_SHARE)
        ? // Recent finds are the most promising parents.
          slot.factory.mutate(this.rng.pick(slot.entries.slice(-8)).scenario)
        : slot.factory.random();
    return this.rng.chance(COMBINATION_SHARE) ? this.combined(slot, base) : base;
  }

  // `scenario` preceded by the calls of a kept scenario of another export of the same file.
  combined(slot, scenario) {
    if (slot.target.kind !== 'function') return scenario;
    const others = this.targets.filter(
      (other) => other !== slot && other.target.file === slot.target.file && other.entries.length,
    );
    if (!others.length) return scenario;
    const before = this.rng.pick(this.rng.pick(others).entries).scenario.steps;
    if (
      before.some((step) => step.op !== 'call' || step.bind) ||
      before.length + scenario.steps.length > MAX_COMBINED_STEPS
    )
      return scenario;
    return { ...scenario, steps: [...before, ...scenario.steps] };
  }

  // Seeds go round-robin; afterwards targets that found more get more tries.
  pickSlot() {
    const seeding = this.targets.filter((slot) => !slot.seedsDone);
    if (seeding.length) return seeding[this.executions % seeding.length];
    const weights = this.targets.map((slot) => 1 + (4 * slot.gains) / (1 + slot.tries / 50));
    let roll = this.rng.next() * weights.reduce((a, b) => a + b, 0);
    for (let i = 0; i < this.targets.length; i++) {
      roll -= weights[i];
      if (roll <= 0) return this.targets[i];
    }
    return this.targets[this.targets.length - 1];
  }

  holdAlternate(slot, alternate, distinct) {
    if (distinct) {
      if (slot.distinct.length < MAX_DISTINCT) slot.distinct.push(alternate);
      return;
    }
    // Reservoir sampling: every alike scenario has the same chance to be held.
    slot.alikeSeen++;
    if (slot.alike.length < MAX_ALIKE) slot.alike.push(alternate);
    else if (this.rng.int(slot.alikeSeen) < MAX_ALIKE) slot.alike[this.rng.int(MAX_ALIKE)] = alternate;
  }

  // Scenarios held as alternates, of every target: those that ended differently first.
  alternates() {
    return [...this.targets.flatMap((slot) => slot.distinct), ...this.targets.flatMap((slot) => slot.alike)];
  }

  async run(deadline) {
    if (!this.targets.length) return this.corpus;
    const started = clock.now();
    let lastGainAt = started;
    let lastProgressAt = started;
    let sinceProgress = 0;
    const heldDistinct = () => this.targets.reduce((sum, slot) => sum + slot.distinct.length, 0);
    let coveredAt = null;
    let stop = 'deadline';
    for (;;) {
      if (clock.now() >= deadline) break;
      const seeding = this.targets.some((slot) => !slot.seedsDone);
      if (this.covered.size >= this.totalKeys) {
        coveredAt = coveredAt || clock.now();
        if (!seeding || clock.now() - coveredAt > SEEDS_AFTER_COVERAGE_MS) {
          stop = 'covered';
          break;
        }
      }
      const patience = Math.min(STALL_MAX_MS, Math.max(STALL_MIN_MS, STALL_SHARE * (lastGainAt - started)));
      const now = clock.now();
      if (
        !seeding &&
        sinceProgress > STALL_SCENARIOS &&
        now - lastGainAt > patience &&
        now - lastProgressAt > STALL_MIN_MS
      ) {
        stop = 'stalled';
        break;
      }
      const slot = this.pickSlot();
      const distinctBefore = heldDistinct();
      const gained = await this.try(slot, this.nextScenario(slot));
      if (gained) lastGainAt = clock.now();
      const distinct = heldDistinct() > distinctBefore && clock.now() - lastGainAt <= DISTINCT_HORIZON_MS;
      if (gained || distinct) {
        lastProgressAt = clock.now();
        sinceProgress = 0;
      } else {
        sinceProgress++;
      }
    }
    this.log(
      `search: ${this.executions} scenarios run, ${this.corpus.length} kept, ${this.covered.size}/${this.totalKeys} coverage keys; last gain at ${lastGainAt - started} ms, last progress at ${lastProgressAt - started} ms, stopped (${stop}) at ${clock.now() - started} ms`,
    );
    return this.corpus;
  }
}

module.exports = { Search, outcomeSignature };
