'use strict';
// Names tests after what they check: `returns "1m" for 60000`, `throws "invalid" for -1`,
// `add(2) returns 3 after new Counter(1)`.

const { toSource } = require('../search/candidate');
const { valueSource } = require('./value-source');
const { propertyKey } = require('./js-source');

const MAX_PART = 40;
const MAX_NAME = 120;
// Consecutive calls named one by one; more are a batch of lookups.
const MAX_NAMED_CALLS = 3;

function clip(text, limit = MAX_PART) {
  const oneLine = text.replace(/\s*\n\s*/g, ' ');
  return oneLine.length <= limit ? oneLine : `${oneLine.slice(0, limit - 1)}…`;
}

function describeCandidate(candidate) {
  if (candidate.kind === 'atom')
    return candidate.type === 'string'
      ? JSON.stringify(candidate.value).length <= MAX_PART
        ? JSON.stringify(candidate.value)
        : 'a long string'
      : clip(candidate.source);
  if (candidate.kind === 'mock') return 'a mock function';
  const source = toSource(candidate).replace(/\s*\n\s*/g, ' ');
  if (source.length <= MAX_PART) return source;
  return candidate.kind === 'array' ? `an array of ${candidate.items.length} items` : 'an object';
}

function describeArgs(args) {
  if (!args || !args.length) return 'without arguments';
  return `for ${args.map(describeCandidate).join(' and ')}`;
}

function withArticle(noun) {
  return `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}`;
}

// A short literal when one fits (`[0, 1, 2]`), else words (`an array of 12`).
function shortLiteral(desc) {
  try {
    const source = valueSource(desc);
    return source.length <= 30 && !source.includes('expect.') ? source : null;
  } catch {
    return null;
  }
}

function describeValue(desc) {
  if (desc.t === 'array' || desc.t === 'object') {
    const literal = !desc.ctor && shortLiteral(desc);
    if (literal) return literal;
  }
  switch (desc.t) {
    case 'string':
      return desc.long ? `a string of ${desc.length} characters` : clip(JSON.stringify(desc.v));
    case 'number':
      return String(desc.v);
    case 'bigint':
      return `${desc.v}n`;
    case 'boolean':
      return String(desc.v);
    case 'undefined':
      return 'undefined';
    case 'null':
      return 'null';
    case 'array':
      return desc.items.length ? `an array of ${desc.items.length}` : 'an empty array';
    case 'object':
      return desc.ctor
        ? withArticle(desc.ctor)
        : desc.entries.length
          ? `an object with ${clip(desc.entries.map(([key]) => propertyKey(key)).join(', '), 30)}`
          : 'an empty object';
    case 'function':
      return 'a function';
    case 'date':
      return 'a Date';
    case 'error':
      return withArticle(desc.ctor || 'error');
    case 'unstable':
      return `a ${desc.types[0]}`;
    default:
      return `a ${desc.t}`;
  }
}

function describeOutcome(outcome) {
  const value = outcome.value;
  if (outcome.calledBack) return 'calls back';
  switch (outcome.kind) {
    case 'throw':
      return value.t === 'error' && value.message ? `throws ${clip(JSON.stringify(value.message))}` : 'throws';
    case 'resolve':
      return `resolves to ${describeValue(value)}`;
    case 'reject':
      return value.t === 'error' && value.message ? `rejects with ${clip(JSON.stringify(value.message))}` : 'rejects';
    case 'yield':
      return `yields ${describeValue(value)}`;
    case 'launch':
      return 'is left in flight';
    default:
      return `returns ${describeValue(value)}`;
  }
}

function describeMemberStep(step) {
  const args = (step.args || []).map(describeCandidate).join(', ');
  if (step.op === 'get') return step.name;
  if (step.op === 'set') return `setting ${step.name} to ${args}`;
  if (step.op === 'invoke') return `calling the returned function with (${clip(args, 50)})`;
  if (step.op === 'settle') return `settling ${plural(step.receivers.length, 'call')} in flight`;
  if (step.op === 'advance')
    return step.ms === undefined ? 'running the pending timers' : `advancing the timers by ${step.ms} ms`;
  return `${step.name}(${clip(args, 50)})`;
}

// A step on an export: `bytes.format(1)`, `new Counter()`, `setting kleur.enabled to true`.
function describeCallStep(step) {
  const args = step.args.map(describeCandidate).join(', ');
  if (step.op === 'assign') return `setting ${step.callee} to ${args}`;
  if (step.op === 'listen') return `listening for "${step.event}" on ${step.callee}`;
  return `${step.op === 'new' ? 'new ' : ''}${step.callee}(${args})`;
}

function plural(count, noun) {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

// A test name for a scenario (its steps as data) and the outcomes of its steps.
function testName(scenario, outcomes) {
  const steps = scenario.steps;
  const last = steps[steps.length - 1];
  const outcome = outcomes[outcomes.length - 1];
  const first = steps[0];
  let name;
  if (last.op === 'read') {
    name = `exports ${describeValue(outcome.value)}`;
  } else if (
    steps.length > MAX_NAMED_CALLS &&
    steps.every((step) => step.op === 'call' && step.callee === last.callee)
  ) {
    // A batch of lookups (a table's entries): the first, and how many more.
    name = `${describeOutcome(outcomes[0])} ${describeArgs(first.args)}, and what ${steps.length - 1} other inputs give`;
  } else if (steps.every((step) => step.op === 'call' && step.callee === last.callee)) {
    // Consecutive calls: `returns "miss:a" for "a", then returns "hit:a" for "a"`.
    name = steps.map((step, i) => `${describeOutcome(outcomes[i])} ${describeArgs(step.args)}`).join(', then ');
  } else if (last.op === 'call') {
    // Calls to other exports first: `returns 1 without arguments after list.add(1)`.
    const before = steps.slice(0, -1).map(describeCallStep).join(' and ');
    name = `${describeOutcome(outcome)} ${describeArgs(last.args)} after ${before}`;
  } else if (last.op === 'new') {
    const args = last.args.length ? `from ${last.args.map(describeCandidate).join(' and ')}` : 'without arguments';
    name = outcome.kind === 'throw' ? `${describeOutcome(outcome)} when constructed ${args}` : `constructs ${args}`;
  } else {
    const from = describeCallStep(first);
    const verb = last.op === 'set' && outcome.kind !== 'throw' ? 'works' : describeOutcome(outcome);
    const more = steps.length > 2 ? ` and ${plural(steps.length - 2, 'more step')}` : '';
    name = `${describeMemberStep(last)} ${verb} after ${from}${more}`;
  }
  return clip(name, MAX_NAME);
}

module.exports = { testName };
