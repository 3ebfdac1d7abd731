'use strict';
// Keeps tests for the bugs they catch, not only for the code they reach (issue 11; EvoSuite's
// rule). The chosen scenarios run against a sample of mutants of each module (mutants.js): a
// mutant is killed when some scenario that executes its statement ends differently, in anything a
// test asserts. For a mutant that survives, the scenarios the search found but did not choose
// (corpus entries set cover dropped, and alternates: runs that reached nothing new but ended
// differently) are tried; the first that kills it, twice alike, joins the suite. The answer
// states the sampled mutation score.

const babel = require('@babel/core');
const { mutantsOf, applyMutant } = require('./mutants');
const { matchesRun } = require('./stability');
const { transformOptions, loadedOptions } = require('../transform');

const MAX_CANDIDATE_RUNS_PER_MUTANT = 10;
const MAX_ADDED_PER_TARGET = 6;

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

function keysOf(candidate) {
  return candidate.keys instanceof Set ? candidate.keys : new Set(candidate.reply.keys);
}

class Strengthener {
  // search: the Search (runOnce, confirm); files: the instrumented files in coverage order
  // ({ absolute, code, analysis, fileCoverage }).
  constructor(search, files, log = () => {}) {
    this.search = search;
    this.files = files;
    this.log = log;
  }

  async killedBy(entries, override) {
    for (const entry of entries) {
      const reply = await this.search.runOnce(entry.target, entry.scenario, 0, override);
      if (!matchesRun(entry, reply)) return true;
    }
    return false;
  }

  // A candidate that kills the mutant, confirmed by a second run, as a corpus entry; or null.
  async killer(candidates, override, budget) {
    for (const candidate of candidates) {
      if (budget.runs <= 0) return null;
      budget.runs--;
      const expected = candidate.reply || candidate;
      const reply = await this.search.runOnce(candidate.target, candidate.scenario, 0, override);
      if (matchesRun(expected, reply)) continue;
      const entry = candidate.reply ? await this.search.confirm(candidate.target, candidate.scenario, candidate.reply) : candidate;
      if (entry && !matchesRun(entry, reply)) return { candidate, entry };
    }
    return null;
  }

  // chosen: the corpus entries of the suite; candidates: corpus entries not chosen and the
  // search's alternates. Returns { entries, mutation: { killed, total } }, entries in suite order.
  async run(chosen, candidates, deadline) {
    const suite = [...chosen];
    const pool = [...candidates];
    const added = new Map();
    let killed = 0;
    let total = 0;
    for (const [fileIndex, file] of this.files.entries()) {
      if (!file.loaded) continue;
      for (const mutant of mutantsOf(file.code)) {
        if (Date.now() >= deadline) return this.done(suite, killed, total, true);
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
        if (await this.killedBy(covering, override)) {
          killed++;
          continue;
        }
        const options = pool.filter((candidate) => reaches(candidate) && (added.get(candidate.target) || 0) < MAX_ADDED_PER_TARGET);
        const found = await this.killer(options, override, { runs: MAX_CANDIDATE_RUNS_PER_MUTANT });
        if (!found) continue;
        killed++;
        suite.push(found.entry);
        pool.splice(pool.indexOf(found.candidate), 1);
        added.set(found.candidate.target, (added.get(found.candidate.target) || 0) + 1);
      }
    }
    return this.done(suite, killed, total, false);
  }

  done(entries, killed, total, cut) {
    this.log(`mutants: ${killed}/${total} killed${cut ? ' (time ran out)' : ''}, ${entries.length} tests`);
    return { entries, mutation: { killed, total, complete: !cut } };
  }
}

module.exports = { Strengthener };
