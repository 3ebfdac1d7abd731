'use strict';
// Compares two runs of the same scenario. A test may only assert what both runs agree on: where
// they disagree (timestamps, random numbers, generated ids) the value becomes "unstable" and the
// test writer asserts only its type. Runs that disagree on what happened (one returned, one threw)
// cannot become a test at all.

function sameType(a, b) {
  return a.t === b.t;
}

// What two different strings share at their ends, cut back to a non-alphanumeric character so
// that no part of a varying token stays (`'job@2026-…'` and `'job@2027-…'` share `'job@'`, not
// `'job@202'`, which the next decade would break).
function sharedEnds(a, b) {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let prefix = a.slice(0, start);
  while (prefix && /[A-Za-z0-9]/.test(prefix[prefix.length - 1])) prefix = prefix.slice(0, -1);
  let end = 0;
  while (
    end < a.length - prefix.length &&
    end < b.length - prefix.length &&
    a[a.length - 1 - end] === b[b.length - 1 - end]
  )
    end++;
  let suffix = end ? a.slice(-end) : '';
  while (suffix && /[A-Za-z0-9]/.test(suffix[0])) suffix = suffix.slice(1);
  return prefix || suffix ? { prefix, suffix } : null;
}

// knownLength(n): whether the code under test or the scenario's inputs spell the number n. Random
// text of such a length in both runs (nanoid's 21 characters, `customAlphabet('ab', 10)`'s 10)
// is asserted by its length: a length the code does not spell (`String(Math.random())`: 18 or
// 19 characters) may be the same in two runs by chance, and is not.
// knownAlphabet(text): the smallest string the code or the inputs spell that holds every
// character of `text` (nanoid's URL alphabet, `customAlphabet('ab')`'s 'ab'), or null. Such
// random text is asserted to be drawn from it: any other alphabet, a character from outside it,
// is a bug. Random bytes of the same count in both runs (`random(5)`) are asserted by their count.
function mergeDescriptions(a, b, knownLength = () => false, knownAlphabet = () => null) {
  if (JSON.stringify(a) === JSON.stringify(b)) return a;
  if (!sameType(a, b)) return { t: 'unstable', types: [a.t, b.t] };
  if (a.t === 'string' && !a.long && !b.long) {
    const ends = sharedEnds(a.v, b.v);
    if (ends) return { t: 'unstable', types: ['string'], ...ends };
    if (a.v.length === b.v.length && a.v.length > 1 && knownLength(a.v.length)) {
      const alphabet = knownAlphabet(a.v + b.v);
      return { t: 'unstable', types: ['string'], length: a.v.length, ...(alphabet ? { alphabet } : {}) };
    }
    return { t: 'unstable', types: ['string'] };
  }
  if (a.t === 'buffer' && a.bytes.length === b.bytes.length)
    return { t: 'unstable', types: ['buffer'], size: a.bytes.length };
  const merge = (x, y) => mergeDescriptions(x, y, knownLength, knownAlphabet);
  switch (a.t) {
    case 'array':
    case 'arguments':
      if (a.items.length !== b.items.length) return { t: 'unstable', types: [a.t] };
      return { ...a, items: a.items.map((item, i) => merge(item, b.items[i])) };
    case 'object': {
      const keysA = a.entries.map(([key]) => key).join('\0');
      const keysB = b.entries.map(([key]) => key).join('\0');
      if (keysA !== keysB || a.ctor !== b.ctor) return { t: 'unstable', types: ['object'] };
      return { ...a, entries: a.entries.map(([key, value], i) => [key, merge(value, b.entries[i][1])]) };
    }
    case 'error':
      if (a.ctor !== b.ctor) return { t: 'unstable', types: ['error'] };
      return { ...a, message: a.message === b.message ? a.message : null, props: [] };
    default:
      return { t: 'unstable', types: [a.t] };
  }
}

function mergeOutcome(a, b, known) {
  if (a.kind !== b.kind || Boolean(a.done) !== Boolean(b.done) || String(a.calledBack) !== String(b.calledBack))
    return null;
  return a.value ? { ...a, value: mergeDescriptions(a.value, b.value, ...known) } : a;
}

function mergeEffects(a, b, known) {
  if (a.length !== b.length) return null;
  return a.map((effect, i) => ({
    ...effect,
    before: mergeDescriptions(effect.before, b[i].before, ...known),
    after: mergeDescriptions(effect.after, b[i].after, ...known),
    mocks: effect.mocks.map((mock, j) => ({
      ...mock,
      calls: b[i].mocks[j]
        ? mergeDescriptions(mock.calls, b[i].mocks[j].calls, ...known)
        : { t: 'unstable', types: [] },
    })),
  }));
}

// Returns the merged { outcomes, effects, keys } of two runs, or null when they disagree.
// knownLength, knownAlphabet: see mergeDescriptions.
function mergeRuns(first, second, { knownLength = () => false, knownAlphabet = () => null } = {}) {
  if (first.outcomes.length !== second.outcomes.length) return null;
  const known = [knownLength, knownAlphabet];
  const outcomes = first.outcomes.map((outcome, i) => mergeOutcome(outcome, second.outcomes[i], known));
  if (outcomes.some((outcome) => outcome === null)) return null;
  const effects = first.effects.map((effect, i) => mergeEffects(effect, second.effects[i], known));
  if (effects.some((effect) => effect === null)) return null;
  const secondKeys = new Set(second.keys);
  return { outcomes, effects, keys: first.keys.filter((key) => secondKeys.has(key)) };
}

// Whether `actual` is a value a test asserting `expected` accepts: equal where `expected` is
// stable, of one of its types where it is not.
function matchesDescription(expected, actual) {
  if (!actual) return false;
  if (expected.t === 'unstable') {
    if (expected.size !== undefined)
      return actual.t === 'unstable' || (actual.t === 'buffer' && actual.bytes.length === expected.size);
    if (expected.length !== undefined)
      return (
        actual.t === 'unstable' ||
        (actual.t === 'string' &&
          !actual.long &&
          actual.v.length === expected.length &&
          (!expected.alphabet || [...actual.v].every((char) => expected.alphabet.includes(char))))
      );
    if (expected.prefix !== undefined) {
      return (
        actual.t === 'unstable' ||
        (actual.t === 'string' &&
          !actual.long &&
          actual.v.startsWith(expected.prefix) &&
          actual.v.endsWith(expected.suffix) &&
          actual.v.length >= expected.prefix.length + expected.suffix.length)
      );
    }
    return !expected.types.length || expected.types.includes(actual.t) || actual.t === 'unstable';
  }
  if (expected.t !== actual.t) return false;
  switch (expected.t) {
    case 'array':
    case 'arguments':
      return (
        expected.items.length === actual.items.length &&
        expected.items.every((item, i) => matchesDescription(item, actual.items[i]))
      );
    case 'object':
      return (
        expected.ctor === actual.ctor &&
        expected.entries.length === actual.entries.length &&
        expected.entries.every(
          ([key, value], i) => actual.entries[i][0] === key && matchesDescription(value, actual.entries[i][1]),
        )
      );
    case 'error':
      return expected.ctor === actual.ctor && (expected.message === null || expected.message === actual.message);
    default:
      return JSON.stringify(expected) === JSON.stringify(actual);
  }
}

function effectsMatch(expected, actual) {
  if (!Array.isArray(actual) || expected.length !== actual.length) return false;
  return expected.every(
    (effects, i) =>
      effects.length === actual[i].length &&
      effects.every((effect, j) => {
        const other = actual[i][j];
        return (
          matchesDescription(effect.after, other.after) &&
          effect.mocks.every((mock, k) => other.mocks[k] && matchesDescription(mock.calls, other.mocks[k].calls))
        );
      }),
  );
}

// Whether a run ends the way `expected` (a merged entry, or a first run) did in everything a test
// asserts: outcomes, values, effects; a run that failed, was disturbed or did not finish does not.
function matchesRun(expected, reply) {
  if (!reply || !reply.ok || !Array.isArray(reply.outcomes) || (reply.disturbances && reply.disturbances.length))
    return false;
  if (reply.outcomes.length !== expected.outcomes.length) return false;
  const outcomesMatch = expected.outcomes.every((outcome, i) => {
    const other = reply.outcomes[i];
    return (
      outcome.kind === other.kind &&
      Boolean(outcome.done) === Boolean(other.done) &&
      String(outcome.calledBack) === String(other.calledBack) &&
      (!outcome.value || matchesDescription(outcome.value, other.value))
    );
  });
  return outcomesMatch && effectsMatch(expected.effects || [], reply.effects || []);
}

module.exports = { mergeRuns, mergeDescriptions, matchesRun, matchesDescription };
