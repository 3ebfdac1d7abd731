'use strict';
// Makes kept scenarios easier to read before they become tests: drops object properties, array
// items and trailing arguments, and replaces values with shorter ones, as long as the scenario
// still ends the same way (same kind of outcome at every step) and still covers every coverage
// key it covered before. Minimisation's choice stays valid because coverage never shrinks.

const { clock } = require('../budget-clock');
const { atom, arrayOf, objectOf, mockOf } = require('../search/candidate');
const { renderScenario } = require('../search/scenario');
const { PATH_SEEDS } = require('../execution/folder-fixture');

const MAX_ATTEMPTS_PER_SCENARIO = 60;

// A path of the working folder's fixture names a file or folder that is there: a shorter string
// names nothing, even where it covers the same code (a stream that opens its file later).
const FIXTURE_PATHS = new Set(PATH_SEEDS);

function simplerStrings(value) {
  if (FIXTURE_PATHS.has(value)) return [];
  const half = Math.ceil(value.length / 2);
  return [value.trim(), value.slice(0, half), value.slice(value.length - half), 'a', ''].filter(
    (text, index, all) => text.length < value.length && all.indexOf(text) === index,
  );
}

function simplerNumbers(value) {
  const candidates = [0, 1, Math.round(value), Math.trunc(value / 10)];
  return [...new Set(candidates)].filter(
    (n) => String(n).length < String(value).length || (Math.abs(n) < Math.abs(value) && Number.isInteger(value)),
  );
}

// Simpler versions of a candidate, the most drastic first.
function simplerCandidates(candidate, depth = 0) {
  if (depth > 2) return [];
  switch (candidate.kind) {
    case 'atom':
      if (candidate.type === 'string') return simplerStrings(candidate.value).map(atom.string);
      if (candidate.type === 'number' && Number.isFinite(candidate.value))
        return simplerNumbers(candidate.value).map(atom.number);
      return [];
    case 'array': {
      const removals = candidate.items.map((_, i) => arrayOf(candidate.items.filter((__, j) => j !== i)));
      const simplified = candidate.items.flatMap((item, i) =>
        simplerCandidates(item, depth + 1).map((simpler) =>
          arrayOf(candidate.items.map((other, j) => (j === i ? simpler : other))),
        ),
      );
      return [...removals, ...simplified];
    }
    case 'object': {
      const removals = candidate.entries.map((_, i) => objectOf(candidate.entries.filter((__, j) => j !== i)));
      const simplified = candidate.entries.flatMap(([key, value], i) =>
        simplerCandidates(value, depth + 1).map((simpler) =>
          objectOf(candidate.entries.map((entry, j) => (j === i ? [key, simpler] : entry))),
        ),
      );
      return [...removals, ...simplified];
    }
    case 'mock':
      // A task that finishes after the others (ScenarioFactory.inFlight) is what its test is about.
      if (candidate.later) return [];
      return candidate.returns || candidate.throws || candidate.identity || candidate.mutates ? [mockOf()] : [];
    default:
      return [];
  }
}

function requiredArgumentCount(step) {
  const slots = step.params || [];
  let count = 0;
  slots.forEach((slot, index) => {
    if (!slot.optional) count = index + 1;
  });
  return count;
}

function withArgs(scenario, stepIndex, args) {
  return { ...scenario, steps: scenario.steps.map((step, i) => (i === stepIndex ? { ...step, args } : step)) };
}

// Simpler variants of a scenario: fewer steps, fewer arguments, simpler arguments.
function* simplerScenarios(scenario) {
  const { steps } = scenario;
  for (let i = 0; i < steps.length - 1; i++) {
    // A step whose result later steps use cannot go.
    // Nor the settling of calls in flight: the order they settle in is what its test shows.
    if (steps[i].op === 'settle') continue;
    const uses = (later) => later.receiver === steps[i].bind || (later.receivers || []).includes(steps[i].bind);
    if (steps[i].bind && steps.slice(i + 1).some(uses)) continue;
    yield { ...scenario, steps: steps.filter((_, j) => j !== i) };
  }
  for (const [stepIndex, step] of scenario.steps.entries()) {
    const args = step.args || [];
    // Required parameters keep an argument: calling with fewer only tests the missing-argument path.
    if (args.length > requiredArgumentCount(step) && !['set', 'assign', 'listen'].includes(step.op))
      yield withArgs(scenario, stepIndex, args.slice(0, -1));
    for (const [argIndex, arg] of args.entries()) {
      for (const simpler of simplerCandidates(arg)) {
        yield withArgs(
          scenario,
          stepIndex,
          args.map((other, j) => (j === argIndex ? simpler : other)),
        );
      }
    }
  }
}

function sourceLength(rendered) {
  return (
    rendered.steps.reduce((sum, step) => sum + step.expression.length, 0) +
    rendered.declarations.reduce((sum, declaration) => sum + JSON.stringify(declaration.candidate).length, 0)
  );
}

// Whether a value says something about the code: not undefined, null, '', 0, false, NaN or an
// empty array or object, which most code returns for most wrong inputs.
function isInformative(desc) {
  if (!desc) return false;
  switch (desc.t) {
    case 'undefined':
    case 'null':
      return false;
    case 'string':
      return desc.long || desc.v !== '';
    case 'number':
      return desc.v !== 0 && desc.v !== 'NaN' && desc.v !== '-0';
    case 'boolean':
      return desc.v;
    case 'array':
      return desc.items.length > 0;
    case 'object':
      return desc.entries.length > 0 || desc.ctor !== null;
    default:
      return true;
  }
}

function informativeValues(outcomes) {
  return outcomes.filter(
    (outcome) => outcome.kind !== 'throw' && outcome.kind !== 'reject' && isInformative(outcome.value),
  ).length;
}

// Every step ran, the last one ended as before (returned, threw, resolved...), and the steps
// return as many informative values as before: a slug function checked returning '' or a pad
// function that no longer pads shows little, so simpler inputs may not make the results trivial.
function sameEnding(outcomes, scenario, expected) {
  return (
    outcomes.length === scenario.steps.length &&
    outcomes[outcomes.length - 1].kind === expected[expected.length - 1].kind &&
    informativeValues(outcomes) >= informativeValues(expected)
  );
}

class Shrinker {
  // runner: the Search, for runOnce (one exploratory run) and confirm (two runs, merged).
  constructor(runner, modules) {
    this.runner = runner;
    this.modules = modules;
  }

  async shrink(entry, deadline) {
    const module = this.modules.get(entry.target.file);
    let best = entry.scenario;
    let bestLength = sourceLength(renderScenario(best, module.bindingNames));
    let attempts = 0;
    let improved = true;
    while (improved && attempts < MAX_ATTEMPTS_PER_SCENARIO && clock.now() < deadline) {
      improved = false;
      for (const candidate of simplerScenarios(best)) {
        if (attempts >= MAX_ATTEMPTS_PER_SCENARIO || clock.now() >= deadline) break;
        const length = sourceLength(renderScenario(candidate, module.bindingNames));
        if (length >= bestLength) continue;
        attempts++;
        const reply = await this.runner.runOnce(entry.target, candidate);
        if (
          !reply.usable ||
          !sameEnding(reply.outcomes, candidate, entry.outcomes) ||
          ![...entry.keys].every((key) => reply.keys.includes(key))
        )
          continue;
        best = candidate;
        bestLength = length;
        improved = true;
        break;
      }
    }
    if (best === entry.scenario) return entry;
    const confirmed = await this.runner.confirm(entry.target, best);
    if (
      !confirmed ||
      !sameEnding(confirmed.outcomes, best, entry.outcomes) ||
      ![...entry.keys].every((key) => confirmed.keys.has(key))
    )
      return entry;
    return confirmed;
  }

  async shrinkAll(entries, deadline) {
    const shrunk = [];
    for (const entry of entries) shrunk.push(clock.now() < deadline ? await this.shrink(entry, deadline) : entry);
    return shrunk;
  }
}

module.exports = { Shrinker };
