'use strict';
// Keeps tests for the bugs they catch, not only for the code they reach (issue 11; EvoSuite's
// rule). The chosen scenarios run against a sample of mutants of each module (mutants.js): a
// mutant is killed when some scenario that executes its statement ends differently, in anything a
// test asserts. For a mutant that survives, the scenarios the search found but did not choose
// (corpus entries set cover dropped, and alternates: runs that reached nothing new but ended
// differently) are tried; the first that kills it, twice alike, joins the suite. The answer
// states the sampled mutation score.

const babel = require('@babel/core');
const { clock } = require('../budget-clock');
const { atom, arrayOf } = require('../search/candidate');
const { mutantsOf, applyMutant } = require('./mutants');
const { comparedArguments, comparedPairs, grownRepeats, growingConstants, numericTexts } = require('./mutant-inputs');
const { sampleRegex } = require('../analysis/regex-sampler');
const { matchesRun, matchesDescription } = require('../search/stability');
const { readsSomeParts } = require('../writing/assertions');
const { outcomeSignature } = require('../search/search');
const { transformOptions, loadedOptions } = require('../../transform');

const MAX_CANDIDATE_RUNS_PER_MUTANT = 16;
// Tests added per export for the mutants they kill. A module with one export (ms, bytes) spends
// them on every kind of mutant in it: at 16, ms's boundary mutants (`msAbs >= d` -> `>`), last in
// the file, found their killers (`ms(86400000)`) but were left out.
const MAX_ADDED_PER_TARGET = 40;
const MAX_VARIANTS_PER_MUTANT = 4;
// Runs of variants on the module itself held for the next mutants (Strengthener.originalRun).
const MAX_ORIGINALS = 200;
const MAX_OBSERVING_VARIANTS = 3;
// Variants that ask with another entry of a mutant's table row (rowProbes), per mutant.
const MAX_ROW_VARIANTS = 8;
const ROW_REGEX_SAMPLES = 3;
const PRIMITIVE_TYPES = new Set(['string', 'number', 'boolean', 'null', 'undefined']);
const MAX_PROBE_LENGTH = 1000;
const SIBLING_LINES = 20;
// The row sweep (Strengthener.rowSweep): entries checked per file, strings tried per table entry,
// and lookups asserted in one test (a table of 500 rules gets 20 tests, not 500).
const MAX_ROW_ENTRIES = 600;
const MAX_PROBES_PER_ENTRY = 3;
const ROWS_PER_TEST = 25;

// What the child runs for a mutant: the mutated code through the shared transform, as the file
// itself ran (without istanbul's counters); CommonJS runs as written.
function compiledMutant(file, code) {
  if (!file.analysis.esm) return code;
  return babel.transformSync(code, {
    ...loadedOptions(transformOptions({ esm: true })),
    filename: file.absolute,
    babelrc: false,
    configFile: false,
    compact: false,
  }).code;
}

// The coverage key of the innermost statement on `line`, or null when no statement starts or
// ends around it (module-level code every scenario runs).
function statementKeyAt(file, fileIndex, line) {
  let best = null;
  for (const [id, location] of Object.entries(file.fileCoverage.statementMap)) {
    if (location.start.line > line || location.end.line < line) continue;
    const span = location.end.line - location.start.line;
    if (!best || span < best.span) best = { id, span };
  }
  return best ? `${fileIndex}:s${best.id}` : null;
}

// Candidates whose inputs hold the mutant's probe (the emptied string, the compared number) first.
function byProbe(candidates, probe) {
  return byProbes(candidates, [probe]);
}

// Candidates whose inputs hold one of `probes` first, in the order of the probes.
function byProbes(candidates, probes) {
  const texts = probes.filter((probe) => probe !== null && probe !== undefined && probe !== '');
  if (!texts.length) return candidates;
  const rank = (candidate) => {
    const steps = JSON.stringify(candidate.scenario.steps);
    const index = texts.findIndex((text) => steps.includes(JSON.stringify(String(text)).slice(1, -1)));
    return index < 0 ? texts.length : index;
  };
  return candidates
    .map((candidate, order) => ({ candidate, order, rank: rank(candidate) }))
    .sort((a, b) => a.rank - b.rank || a.order - b.order)
    .map(({ candidate }) => candidate);
}

// A copy of `value` (a scenario's steps) with every atom `replace` maps replaced.
function mapAtoms(value, replace) {
  if (Array.isArray(value)) return value.map((item) => mapAtoms(item, replace));
  if (!value || typeof value !== 'object') return value;
  if (value.kind === 'atom') return replace(value) || value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, mapAtoms(item, replace)]));
}

// Scenarios aimed at one mutant, made from ones that reach it: the compared number put in place
// of a number argument (`ms(86400000)` for `msAbs >= d`) or as the length of a string argument
// (a 100-character string for `str.length > 100`), the emptied string put in place of a
// string the module spells near it (`'1 yr'` from `'1 years'` for `case 'yr':`), or a string
// that hits the mutant's table row (rowProbes) in place of a string argument.
function variantsFor(mutant, reaching, siblings, { typeCheck = false } = {}) {
  const variants = [];
  const seen = new Set();
  const push = (candidate, steps) => {
    const key = JSON.stringify(steps);
    if (seen.has(key) || key === JSON.stringify(candidate.scenario.steps)) return;
    seen.add(key);
    variants.push({ target: candidate.target, scenario: { ...candidate.scenario, steps } });
  };
  // On a line that checks a type (`if (!type || typeof type !== 'string') return false`), a value
  // that reads as the same text but is no string: each string argument in an array
  // (`charset(['text/html'])`). Only it tells the check from its mutants (the check forced false,
  // `||` made `&&`, its block emptied), as the code past it takes the array for the text.
  // One scenario of each export that reaches the line, with a string to wrap: the check may guard
  // a function other exports call only after checks of their own (`contentType(['c'])` stops at
  // contentType's, `charset(['text/html'])` reaches charset's).
  if (typeCheck) {
    const targets = new Set();
    // Those that got past the check first (a value other than false, null or undefined): wrapped,
    // the same text gets past its mutants only.
    const past = (candidate) => {
      const outcomes = candidate.reply ? candidate.reply.outcomes : candidate.outcomes;
      const last = outcomes && outcomes[outcomes.length - 1];
      return Boolean(
        last &&
        last.kind === 'return' &&
        last.value &&
        !['undefined', 'null'].includes(last.value.t) &&
        last.value.v !== false,
      );
    };
    for (const candidate of [...reaching.filter(past), ...reaching.filter((other) => !past(other))]) {
      if (targets.size >= TYPE_CHECK_TARGETS || targets.has(candidate.target)) continue;
      const before = variants.length;
      push(
        candidate,
        mapAtoms(candidate.scenario.steps, (value) =>
          value.type === 'string' && value.value ? arrayOf([value]) : null,
        ),
      );
      if (variants.length > before) targets.add(candidate.target);
    }
  }
  for (const candidate of reaching) {
    if (variants.length >= MAX_VARIANTS_PER_MUTANT) break;
    const steps = candidate.scenario.steps;
    if (mutant.mutator === 'EqualityOperator' && mutant.probe !== null) {
      const probe = Number(mutant.probe);
      push(
        candidate,
        mapAtoms(steps, (value) => (value.type === 'number' && value.value !== probe ? atom.number(probe) : null)),
      );
      // The number may be compared with a length (`str.length > 100`): strings made that long.
      if (Number.isInteger(probe) && probe > 0 && probe <= MAX_PROBE_LENGTH) {
        push(
          candidate,
          mapAtoms(steps, (value) =>
            value.type === 'string' && value.value && value.value.length !== probe
              ? atom.string(value.value.repeat(Math.ceil(probe / value.value.length)).slice(0, probe))
              : null,
          ),
        );
      }
    } else if (mutant.mutator === 'StringLiteral' && mutant.probe) {
      const strings = [];
      mapAtoms(steps, (value) => {
        if (value.type === 'string') strings.push(value.value);
        return null;
      });
      const sibling = siblings.find((text) => strings.some((string) => string.includes(text)));
      if (sibling)
        push(
          candidate,
          mapAtoms(steps, (value) =>
            value.type === 'string' && value.value.includes(sibling)
              ? atom.string(value.value.split(sibling).join(mutant.probe))
              : null,
          ),
        );
    }
  }
  // A table's entry: the lookup that hits its row, each string argument replaced by a probe (or,
  // in a scenario without one, each other primitive: `country(1)` becomes `country('NO')`).
  const probes = rowProbes(mutant);
  const limit = variants.length + MAX_ROW_VARIANTS;
  // One scenario of each export that reaches the row: the lookup may be any of them.
  const lookups = reaching
    .filter((candidate, index) => reaching.findIndex((other) => other.target === candidate.target) === index)
    .slice(0, 3);
  for (const probe of probes) {
    for (const candidate of lookups) {
      if (variants.length >= limit) return variants;
      push(candidate, askingWith(candidate.scenario.steps, probe));
    }
  }
  return variants;
}

// A lookup's steps asking with `probe`: each string argument replaced by it, or, in a scenario
// without one, each other primitive (`country(1)` becomes `country('NO')`).
function askingWith(steps, probe) {
  let replaceable = (value) => value.type === 'string';
  if (!JSON.stringify(steps).includes('"type":"string"')) replaceable = (value) => PRIMITIVE_TYPES.has(value.type);
  return mapAtoms(steps, (value) => (replaceable(value) && value.value !== probe ? atom.string(probe) : null));
}

// The entries of a file's data and rule tables, in source order: each string or regex literal
// inside an array or object literal, with the strings that ask for it (rowProbes of its mutants:
// the entry itself, samples of the row's regexes, the row's other strings). `line` places it.
function tableEntries(code, constants) {
  const entries = new Map();
  for (const mutant of mutantsOf(code, constants, Infinity)) {
    if (!mutant.row || !['StringLiteral', 'Regex'].includes(mutant.mutator)) continue;
    const entry = entries.get(mutant.start) || { line: mutant.line, probes: [] };
    entry.probes.push(...rowProbes(mutant));
    entries.set(mutant.start, entry);
  }
  return [...entries.values()].map((entry) => ({
    line: entry.line,
    probes: [...new Set(entry.probes)].slice(0, MAX_PROBES_PER_ENTRY),
  }));
}

// Strings that ask a table for the row a mutant sits in, the likeliest killers first: for a regex
// mutant, the samples one of the original and the mutated pattern matches and the other does
// not; for an entry of a row, the entry itself, samples of the row's regexes and its other
// strings (the key of an emptied value). A table of rules (`[/(alumn|alg)a$/i, '$1ae']`) or of
// names (`{ NO: 'Norway' }`) is covered by any one lookup; its entries are checked only by lookups that hit them.
function rowProbes(mutant) {
  const probes = [];
  if (mutant.regex) {
    const { pattern, variant, flags } = mutant.regex;
    const plain = flags.replace(/[gy]/g, '');
    const original = new RegExp(pattern, plain);
    const mutated = new RegExp(variant, plain);
    const samples = [
      ...sampleRegex(pattern, flags).matching,
      ...sampleRegex(variant, flags).matching,
      ...sampleRegex(pattern, flags).nonMatching,
    ];
    probes.push(...samples.filter((text) => original.test(text) !== mutated.test(text)), ...samples);
  }
  if (mutant.row) {
    // The entry itself asks first: an emptied `'advice'` in a list of uncountable words is
    // told by `plural('advice')`, an emptied `'Norway'` by `code('Norway')`.
    if (mutant.mutator === 'StringLiteral' && mutant.probe) probes.push(mutant.probe);
    for (const { pattern, flags } of mutant.row.regexes)
      probes.push(...sampleRegex(pattern, flags).matching.slice(0, ROW_REGEX_SAMPLES));
    probes.push(...mutant.row.strings);
  }
  return [...new Set(probes)];
}

// Whether a test asserting `expected` still passes against a mutant's run `reply`. A promise the
// mutant leaves rejected with no handler (`queue.dequeue()()` on an empty queue, in code the test
// does not await) fails no Jest test: that disturbance alone kills nothing, as in Stryker's runs.
function survives(expected, reply) {
  if (reply && reply.ok && Array.isArray(reply.disturbances) && reply.disturbances.length) {
    const disturbances = reply.disturbances.filter((text) => !text.startsWith('unhandled rejection'));
    return matchesRun(expected, { ...reply, disturbances });
  }
  return matchesRun(expected, reply);
}

function returnsFunction(candidate) {
  const outcomes = candidate.reply ? candidate.reply.outcomes : candidate.outcomes;
  const last = outcomes && outcomes[outcomes.length - 1];
  return Boolean(last && last.value && last.value.t === 'function');
}

// Scenarios of mutant-inputs.js made from those that reach a mutant: the compared arguments of an
// equality check or comparator in pairs, made from one reaching scenario for each kind of value
// (up to COMPARED_KINDS: an object, an array, a regex, a number); in a module that keeps state,
// the last call of one scenario of each export (up to GROWN_TARGETS) again with grown numbers;
// and, for a changed compound assignment (`size -= 0` made `+=`), the numbers of up to
// AIMED_SCENARIOS scenarios as their text.
const AIMED_SCENARIOS = 3;
const COMPARED_KINDS = 4;
const GROWN_TARGETS = 3;
function aimedVariants(mutant, reaching, analysis) {
  const variants = [];
  const seen = new Set();
  const push = (candidate, steps) => {
    const key = JSON.stringify(steps);
    if (seen.has(key)) return;
    seen.add(key);
    variants.push({ target: candidate.target, scenario: { ...candidate.scenario, steps } });
  };
  const constants = analysis.keepsState ? growingConstants(analysis.literals) : [];
  const paired = new Set(); // kinds of value the pairs were made from
  for (const candidate of reaching) {
    const compared = paired.size < COMPARED_KINDS && comparedArguments(candidate.scenario);
    if (!compared || paired.has(compared.kind)) continue;
    for (const steps of comparedPairs(candidate.scenario, { valueObjects: !paired.size })) push(candidate, steps);
    paired.add(compared.kind);
  }
  const grownTargets = new Set();
  for (const candidate of reaching) {
    // A call that returns a function (a maker: `customAlphabet('ab', 10)`) sizes nothing yet.
    if (grownTargets.size >= GROWN_TARGETS || grownTargets.has(candidate.target) || returnsFunction(candidate))
      continue;
    const repeats = grownRepeats(candidate.scenario, constants);
    if (repeats.length) grownTargets.add(candidate.target);
    for (const steps of repeats) push(candidate, steps);
  }
  if (mutant.mutator === 'AssignmentOperator') {
    let texts = 0;
    for (const candidate of reaching) {
      const steps = texts < AIMED_SCENARIOS && numericTexts(candidate.scenario);
      if (steps) {
        texts++;
        push(candidate, steps);
      }
    }
  }
  return variants;
}

// A line that checks a value's type, and how many exports reaching it try a wrapped string.
const TYPE_CHECK = /\btypeof\b/;
const TYPE_CHECK_TARGETS = 3;

function lineText(code, line) {
  let start = 0;
  for (let i = 1; i < line && start >= 0; i++) start = code.indexOf('\n', start) + 1;
  const end = code.indexOf('\n', start);
  return code.slice(start, end < 0 ? code.length : end);
}

function keysOf(candidate) {
  return candidate.keys instanceof Set ? candidate.keys : new Set(candidate.reply.keys);
}

// A value too long to write whole is asserted by its size and a few parts (writing/assertions.js):
// a mutant that changes another part (one extension's type among mime-types' 1180) is caught
// only when the test reads that part too. The parts of `entry`'s returned values that `reply`
// (a mutant's run) changed are noted on its outcomes (`partsRead`), at most
// MAX_PARTS_NOTED_PER_MUTANT a mutant; the writer reads them beside the sampled ones.
const MAX_PARTS_NOTED_PER_MUTANT = 2;
function notePartsRead(entry, reply) {
  if (!reply || !reply.ok || !Array.isArray(reply.outcomes)) return;
  entry.outcomes = entry.outcomes.map((outcome, index) => {
    const other = reply.outcomes[index];
    const desc = outcome.value;
    if (!other || other.kind !== outcome.kind || !desc || !other.value || !readsSomeParts(desc)) return outcome;
    let changed = [];
    if (desc.t === 'array' && other.value.t === 'array' && other.value.items.length === desc.items.length)
      changed = desc.items.flatMap((item, i) => (matchesDescription(item, other.value.items[i]) ? [] : [i]));
    else if (desc.t === 'object' && other.value.t === 'object') {
      const others = new Map(other.value.entries);
      changed = desc.entries.flatMap(([key, value]) =>
        others.has(key) && !matchesDescription(value, others.get(key)) ? [key] : [],
      );
    }
    if (!changed.length) return outcome;
    const partsRead = [...new Set([...(outcome.partsRead || []), ...changed.slice(0, MAX_PARTS_NOTED_PER_MUTANT)])];
    return { ...outcome, partsRead };
  });
}

// A lookup the row sweep asks with many probes in one run: one call of an export, plain values.
function isOneCall(scenario) {
  const [step] = scenario.steps;
  return scenario.steps.length === 1 && step.op === 'call' && step.args.every((arg) => arg.kind === 'atom');
}

// The row sweep's lookups of one export, gathered into tests of up to ROWS_PER_TEST calls
// (`expect(plural('alga')).toBe('algae'); expect(plural('bus')).toBe('buses'); …`): each call's
// whole result asserted, one test and one pair of runs per batch instead of per entry. A batch
// joins the suite once it ran alike twice; one that does not is split in halves, so an unstable
// lookup costs only itself.
class RowBatches {
  constructor(search, suite) {
    this.search = search;
    this.suite = suite;
    this.open = new Map(); // target -> { target, steps, outcomes }
  }

  async add(lookup, step) {
    const batch = this.open.get(lookup.target) || {
      target: lookup.target,
      targetId: lookup.scenario.targetId,
      steps: [],
    };
    const { bind, recordEvents, ...call } = step; // a batch names no results
    batch.steps.push(call);
    this.open.set(lookup.target, batch);
    if (batch.steps.length >= ROWS_PER_TEST) await this.flush(lookup.target);
  }

  async flush(target) {
    const batch = this.open.get(target);
    this.open.delete(target);
    if (batch) await this.keep(batch.target, batch.targetId, batch.steps);
  }

  async flushAll() {
    for (const target of [...this.open.keys()]) await this.flush(target);
  }

  async keep(target, targetId, steps) {
    if (!steps.length) return;
    const confirmed = await this.search.confirm(target, { targetId, steps });
    if (confirmed && confirmed.scenario.steps.length === steps.length) {
      this.suite.push(confirmed);
      return;
    }
    if (steps.length === 1) return;
    const half = Math.ceil(steps.length / 2);
    await this.keep(target, targetId, steps.slice(0, half));
    await this.keep(target, targetId, steps.slice(half));
  }
}

class Strengthener {
  // search: the Search (runOnce, confirm); files: the instrumented files in coverage order
  // ({ absolute, code, analysis, fileCoverage }).
  constructor(search, files, log = () => {}) {
    this.search = search;
    this.files = files;
    this.log = log;
    this.originals = new Map(); // variant -> its run on the module (originalRun)
  }

  async killedBy(entries, override) {
    for (const entry of entries) {
      if (clock.now() >= this.deadline) return false;
      const reply = await this.search.runOnce(entry.target, entry.scenario, 0, override);
      if (!survives(entry, reply)) {
        notePartsRead(entry, reply);
        if (process.env.VOUCH_DEBUG_MUTANTS)
          this.log(
            `mutant line ${override.line} killed by ${entry.rendered.steps
              .map((step) => step.expression)
              .join('; ')
              .slice(
                0,
                80,
              )}: ${reply.ok ? JSON.stringify(reply.outcomes).slice(0, 120) : JSON.stringify(reply).slice(0, 120)}`,
          );
        return true;
      }
    }
    return false;
  }

  // Scenarios that reach a mutant with reads of the state their last step changed appended
  // (Search.observingFor): `await limit(task)` then `limit.activeCount`. A count a mutant no
  // longer gives back shows only in such a read, and a scenario that reached nothing new (an
  // alternate) was never given its reads. At most MAX_OBSERVING_VARIANTS, one per target.
  observingVariants(reaching) {
    const variants = [];
    const targets = new Set();
    for (const candidate of reaching) {
      if (variants.length >= MAX_OBSERVING_VARIANTS) break;
      if (targets.has(candidate.target)) continue;
      const outcomes = candidate.reply ? candidate.reply.outcomes : candidate.outcomes;
      const scenario = outcomes && this.search.observingFor(candidate.target, candidate.scenario, outcomes);
      if (!scenario) continue;
      targets.add(candidate.target);
      variants.push({ target: candidate.target, scenario });
    }
    return variants;
  }

  // A variant's run on the module itself, once: the variants made for one mutant are often made
  // for its neighbours too (the same pairs, the same grown calls). The last MAX_ORIGINALS are
  // held (a reply may hold a large table).
  async originalRun(variant) {
    const key = `${variant.scenario.targetId}:${JSON.stringify(variant.scenario.steps)}`;
    let reply = this.originals.get(key);
    if (!reply) {
      reply = await this.search.runOnce(variant.target, variant.scenario);
      if (this.originals.size >= MAX_ORIGINALS) this.originals.delete(this.originals.keys().next().value);
    } else this.originals.delete(key);
    this.originals.set(key, reply);
    return reply;
  }

  // A variant that runs on the module and kills the mutant, confirmed, as a corpus entry; or null.
  async variantKiller(variants, override) {
    for (const variant of variants) {
      if (clock.now() >= this.deadline) return null;
      const original = await this.originalRun(variant);
      if (!original.usable) continue;
      const mutated = await this.search.runOnce(variant.target, variant.scenario, 0, override);
      if (survives(original, mutated)) continue;
      const entry = await this.search.confirm(variant.target, variant.scenario, original);
      if (entry && !survives(entry, mutated)) {
        notePartsRead(entry, mutated);
        return entry;
      }
    }
    return null;
  }

  // A candidate that kills the mutant, confirmed by a second run, as a corpus entry; or null.
  async killer(candidates, override, budget) {
    for (const candidate of candidates) {
      if (budget.runs <= 0 || clock.now() >= this.deadline) return null;
      budget.runs--;
      const expected = candidate.reply || candidate;
      const reply = await this.search.runOnce(candidate.target, candidate.scenario, 0, override);
      if (survives(expected, reply)) continue;
      const entry = candidate.reply
        ? await this.search.confirm(candidate.target, candidate.scenario, candidate.reply)
        : candidate;
      if (entry && !survives(entry, reply)) {
        notePartsRead(entry, reply);
        return { candidate, entry };
      }
    }
    return null;
  }

  // One lookup per entry of the file's data and rule tables, whole outputs asserted: a table is
  // covered by any one lookup, and its entries (a string emptied, a regex changed) are told apart
  // only by lookups that hit them, more of them than the sampled mutants reach. For each entry in
  // source order, the kept tests of up to three exports that reach it are asked again with the
  // entry's probes (askingWith): `plural('alga')` and `singular('alga')` check different rows of
  // a rules table. A lookup that is one call of plain values asks with many probes in one run
  // (askMany), and the calls that end in an outcome no test of the export has yet are kept in
  // tests of up to ROWS_PER_TEST calls (RowBatches); any other lookup asks with the entry's
  // probes one run each, the first new outcome kept as a test of its own once it ran alike
  // twice. At most MAX_ROW_ENTRIES entries per file, until `deadline`. Returns the calls kept.
  async rowSweep(suite, file, fileIndex, deadline) {
    const batches = new RowBatches(this.search, suite);
    const signatures = new Map(); // target -> outcome signatures of its tests
    const signaturesOf = (target) => {
      if (!signatures.has(target))
        signatures.set(
          target,
          new Set(suite.filter((entry) => entry.target === target).map((entry) => outcomeSignature(entry.outcomes))),
        );
      return signatures.get(target);
    };
    const queues = new Map(); // a batchable lookup -> probes waiting to be asked
    let kept = 0;
    const drain = async (lookup, all = false) => {
      const queue = queues.get(lookup);
      while (queue.length >= (all ? 1 : ROWS_PER_TEST) && clock.now() < deadline) {
        const probes = queue.splice(0, ROWS_PER_TEST);
        const { answered, rest } = await this.askMany(lookup, probes);
        queue.unshift(...rest);
        for (const { step, outcome } of answered) {
          const signature = outcomeSignature([outcome]);
          if (signaturesOf(lookup.target).has(signature)) continue;
          signaturesOf(lookup.target).add(signature);
          await batches.add(lookup, step);
          kept++;
        }
      }
    };
    const entries = tableEntries(file.code, file.analysis.literals.constants).slice(0, MAX_ROW_ENTRIES);
    for (const entry of entries) {
      if (clock.now() >= deadline) break;
      const key = statementKeyAt(file, fileIndex, entry.line);
      const prefix = `${fileIndex}:`;
      const reaching = suite.filter((candidate) => {
        const keys = keysOf(candidate);
        return key ? keys.has(key) : [...keys].some((k) => k.startsWith(prefix));
      });
      const lookups = reaching
        .filter((candidate, index) => reaching.findIndex((other) => other.target === candidate.target) === index)
        .slice(0, 3);
      for (const lookup of lookups) {
        if (isOneCall(lookup.scenario)) {
          if (!queues.has(lookup)) queues.set(lookup, []);
          queues.get(lookup).push(...entry.probes);
          await drain(lookup);
        } else if (await this.askEach(lookup, entry.probes, signaturesOf(lookup.target), suite, deadline)) kept++;
      }
    }
    for (const lookup of queues.keys()) await drain(lookup, true);
    await batches.flushAll();
    return kept;
  }

  // One run of a one-call lookup asking with each probe in turn. A call that throws ends the run:
  // it is left out, and the probes after it come back in `rest`. `answered`: the calls that
  // returned, with their outcomes.
  async askMany(lookup, probes) {
    const steps = probes.map((probe) => askingWith(lookup.scenario.steps, probe)[0]);
    const reply = await this.search.runOnce(lookup.target, { targetId: lookup.scenario.targetId, steps });
    if (!reply.ok || reply.disturbances.length || !reply.outcomes.length) return { answered: [], rest: [] };
    const answered = [];
    for (const [i, outcome] of reply.outcomes.entries()) {
      if (outcome.kind !== 'return' || outcome.calledBack) return { answered, rest: probes.slice(i + 1) };
      answered.push({ step: steps[i], outcome });
    }
    return { answered, rest: probes.slice(reply.outcomes.length) };
  }

  // A lookup asked with one probe a run; the first that ends in a new outcome and runs alike twice
  // joins the suite. Returns whether one did.
  async askEach(lookup, probes, signatures, suite, deadline) {
    for (const probe of probes) {
      if (clock.now() >= deadline) return false;
      const scenario = { ...lookup.scenario, steps: askingWith(lookup.scenario.steps, probe) };
      const reply = await this.search.runOnce(lookup.target, scenario);
      if (!reply.usable || signatures.has(outcomeSignature(reply.outcomes))) continue;
      const confirmed = await this.search.confirm(lookup.target, scenario, reply);
      if (!confirmed) continue;
      suite.push(confirmed);
      signatures.add(outcomeSignature(confirmed.outcomes));
      return true;
    }
    return false;
  }

  // chosen: the corpus entries of the suite; candidates: corpus entries not chosen and the
  // search's alternates. The row sweep of every file comes first, for at most `rowMs` and half the
  // time to `deadline`, then the sampled mutants, for at most `mutantMs`; all ends by `deadline`,
  // checked before every run (a mutant may try dozens of scenarios, and code run with fake timers
  // takes ~50 ms a run).
  // Returns { entries, mutation: { killed, total } }, entries in suite order.
  async run(chosen, candidates, deadline, { rowMs = Infinity, mutantMs = Infinity } = {}) {
    this.started = clock.now();
    this.deadline = deadline;
    const suite = [...chosen];
    const pool = [...candidates];
    const added = new Map();
    let killed = 0;
    let total = 0;
    // At most half the phase: a search that ran to its deadline leaves the phase about 2 s, which
    // the row sweep took whole (path-to-regexp: 18 row tests, 0 sampled mutants checked).
    const rowDeadline = Math.min(this.started + (deadline - this.started) / 2, this.started + rowMs);
    for (const [fileIndex, file] of this.files.entries()) {
      if (!file.loaded) continue;
      const rowTests = await this.rowSweep(suite, file, fileIndex, rowDeadline);
      if (rowTests) this.log(`mutants: ${rowTests} test(s) for the entries of ${file.absolute}'s tables`);
    }
    deadline = Math.min(deadline, clock.now() + mutantMs);
    this.deadline = deadline;
    for (const { file, fileIndex, mutant, strings } of this.checkOrder()) {
      if (clock.now() >= deadline) return this.done(suite, killed, total, true);
      const key = statementKeyAt(file, fileIndex, mutant.line);
      const prefix = `${fileIndex}:`;
      const reaches = (candidate) => {
        const keys = keysOf(candidate);
        return key ? keys.has(key) : [...keys].some((k) => k.startsWith(prefix));
      };
      let code;
      try {
        code = compiledMutant(file, applyMutant(file.code, mutant));
      } catch {
        continue; // not valid code: not a mutant
      }
      total++;
      const covering = suite.filter(reaches);
      if (!covering.length) continue;
      const override = { path: file.absolute, code };
      if (process.env.VOUCH_DEBUG_MUTANTS)
        Object.defineProperty(override, 'line', {
          value: `${mutant.line} ${mutant.mutator} ${mutant.replacement}`,
          enumerable: false,
        });
      // Tests that ask with the mutant's own strings first: a table's entries have one each.
      if (await this.killedBy(byProbes(covering, [mutant.probe, ...rowProbes(mutant)]), override)) {
        killed++;
        continue;
      }
      const options = byProbe(
        pool.filter((candidate) => reaches(candidate) && (added.get(candidate.target) || 0) < MAX_ADDED_PER_TARGET),
        mutant.probe,
      );
      const found = await this.killer(options, override, { runs: MAX_CANDIDATE_RUNS_PER_MUTANT });
      if (found) pool.splice(pool.indexOf(found.candidate), 1);
      const siblings = strings
        .filter((other) => other.probe !== mutant.probe && Math.abs(other.line - mutant.line) <= SIBLING_LINES)
        .map((other) => other.probe)
        .sort((a, b) => b.length - a.length);
      const entry = found
        ? found.entry
        : await this.variantKiller(
            [
              ...this.observingVariants([...covering, ...options]),
              ...variantsFor(mutant, [...covering, ...options], siblings, {
                typeCheck: TYPE_CHECK.test(lineText(file.code, mutant.line)),
              }),
              ...aimedVariants(mutant, [...covering, ...options], file.analysis),
            ],
            override,
          );
      // Cut short by the deadline: not checked, so not counted.
      if (!entry && clock.now() >= deadline) {
        total--;
        return this.done(suite, killed, total, true);
      }
      if (process.env.VOUCH_DEBUG_MUTANTS && !entry)
        this.log(
          `mutant survived: line ${mutant.line} ${mutant.mutator} ${JSON.stringify(file.code.slice(mutant.start, mutant.end)).slice(0, 50)} -> ${mutant.replacement.slice(0, 30)}`,
        );
      if (!entry || (added.get(entry.target) || 0) >= MAX_ADDED_PER_TARGET) continue;
      killed++;
      suite.push(entry);
      added.set(entry.target, (added.get(entry.target) || 0) + 1);
    }
    return this.done(suite, killed, total, false);
  }

  // The sampled mutants of every loaded file, in the order they are checked: the commoner kinds
  // before regex mutants (many in a rules table, and each survivor tries variants), each group
  // spread over the files and over each file (spread), so that a phase cut short by its deadline
  // has checked the end of a file and the last files too, not only the first lines of the first.
  // Items: { file, fileIndex, mutant, strings } (strings: the file's emptied-string mutants).
  checkOrder() {
    const items = [];
    for (const [fileIndex, file] of this.files.entries()) {
      if (!file.loaded) continue;
      const mutants = mutantsOf(file.code, file.analysis.literals.constants);
      const strings = mutants.filter((mutant) => mutant.mutator === 'StringLiteral' && mutant.probe);
      for (const mutant of mutants) items.push({ file, fileIndex, mutant, strings });
    }
    const isRegex = (item) => item.mutant.mutator === 'Regex';
    return [...spread(items.filter((item) => !isRegex(item))), ...spread(items.filter(isRegex))];
  }

  done(entries, killed, total, cut) {
    this.log(
      `mutants: ${killed}/${total} killed${cut ? ' (time ran out)' : ''}, ${entries.length} tests, ${clock.now() - this.started} ms`,
    );
    return { entries, mutation: { killed, total, complete: !cut } };
  }
}

// `items` in an order whose every prefix is spread evenly over them: the index's bits reversed
// (0, n/2, n/4, 3n/4, …), so the first k of n fall about n/k apart.
function spread(items) {
  let bits = 0;
  while (1 << bits < items.length) bits++;
  const reversed = (index) => {
    let result = 0;
    for (let bit = 0; bit < bits; bit++) if (index & (1 << bit)) result |= 1 << (bits - 1 - bit);
    return result;
  };
  return Array.from({ length: 1 << bits }, (_, index) => reversed(index))
    .filter((index) => index < items.length)
    .map((index) => items[index]);
}

module.exports = { Strengthener, survives, spread };
