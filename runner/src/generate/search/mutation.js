'use strict';
// Small changes to one candidate input, guided by its hint: nudge a number across a boundary,
// join a mined number and a mined word into one string ('1' + 'd' -> '1d'), add, drop or replace
// an array item or an object property. The search keeps a mutant when it reaches new code.

const { atom, fromValue, arrayOf, objectOf, mockOf } = require('./candidate');
const { Hint } = require('../analysis/hint');

const EMPTY_HINT = new Hint();

function mutateNumber(value, pool, rng) {
  const mined = pool.minedFor('number');
  const other = mined.length ? rng.pick(mined).value : 1;
  const moves = [
    value + 1,
    value - 1,
    value * 2,
    value / 2,
    -value,
    value * 10,
    Math.round(value * 1.5),
    value * other,
    other,
    Math.floor(value / 3),
  ];
  return atom.number(rng.pick(moves));
}

function mutateString(value, pool, rng) {
  const words = pool.minedFor('string');
  const word = words.length ? rng.pick(words).value : 'x';
  const numbers = pool.minedFor('number');
  const number = numbers.length ? rng.pick(numbers).value : 1;
  const moves = [
    () => `${number}${word}`,
    () => `${number} ${word}`,
    () => `${value}${word}`,
    () => `${word}${value}`,
    () => `${value},${word}`,
    () => `${value} ${word}`,
    () => value.toUpperCase(),
    () => ` ${value} `,
    () => value.slice(0, Math.max(0, value.length - 1)),
    () => value.slice(1),
    () => `-${value}`,
    () => value + value,
    () => String(number),
    () => `${word}=${value}`,
  ];
  return atom.string(rng.pick(moves)());
}

function mutateArray(candidate, hint, pool, rng, depth) {
  const elementHint = hint.element || EMPTY_HINT;
  const items = [...candidate.items];
  const move = items.length ? rng.int(3) : 0;
  if (move === 0) items.splice(rng.int(items.length + 1), 0, pool.random(elementHint, depth + 1));
  else if (move === 1) items.splice(rng.int(items.length), 1);
  else {
    const index = rng.int(items.length);
    items[index] = mutateCandidate(items[index], elementHint, pool, rng, depth + 1);
  }
  return arrayOf(items);
}

function mutateObject(candidate, hint, pool, rng, depth) {
  const entries = candidate.entries.map(([key, value]) => [key, value]);
  const missing = [...hint.props.keys()].filter((key) => !entries.some(([known]) => known === key));
  const move = rng.int(3);
  if ((move === 0 || !entries.length) && (missing.length || !hint.props.size)) {
    const key = missing.length ? rng.pick(missing) : rng.pick(['a', 'b', 'key', 'name', 'value']);
    entries.push([key, pool.random(hint.props.get(key) || EMPTY_HINT, depth + 1)]);
  } else if (move === 1 && entries.length) {
    entries.splice(rng.int(entries.length), 1);
  } else if (entries.length) {
    const index = rng.int(entries.length);
    const [key, value] = entries[index];
    entries[index] = [key, mutateCandidate(value, hint.props.get(key) || EMPTY_HINT, pool, rng, depth + 1)];
  }
  return objectOf(entries);
}

// A changed copy of `candidate`; often structural, sometimes a fresh draw for the hint.
function mutateCandidate(candidate, hint, pool, rng, depth = 0) {
  if (depth > 3 || rng.chance(0.2)) return pool.random(hint, depth);
  if (candidate.kind === 'atom' && candidate.type === 'number') return mutateNumber(candidate.value, pool, rng);
  if (candidate.kind === 'atom' && candidate.type === 'string') return mutateString(candidate.value, pool, rng);
  if (candidate.kind === 'atom' && candidate.type === 'boolean') return fromValue(!candidate.value);
  if (candidate.kind === 'array') return mutateArray(candidate, hint, pool, rng, depth);
  if (candidate.kind === 'object') return mutateObject(candidate, hint, pool, rng, depth);
  // What a mock returns steers the code that calls it (`res.getHeader('Vary')`).
  if (candidate.kind === 'mock')
    return rng.chance(0.5)
      ? mockOf({ returns: pool.random(EMPTY_HINT, depth + 1) })
      : pool.random(functionHint(), depth);
  return pool.random(hint, depth);
}

function functionHint() {
  const hint = new Hint();
  hint.addType('function');
  return hint;
}

module.exports = { mutateCandidate };
