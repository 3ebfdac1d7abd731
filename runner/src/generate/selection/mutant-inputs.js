'use strict';
// Inputs aimed at mutants that the search's own scenarios reach but do not tell apart, made from
// a scenario that reaches the mutant (strengthen.js tries them on it):
// - comparedPairs: for a call whose two parameters the code compares with each other (an equality
//   check, a comparator: Hint.comparedWith), the pairs that tell such code from its mutants,
//   which independent draws for each side almost never give: a value and a copy of it, copies
//   differing in one place (a key more or fewer, a key renamed, an item or a flag changed), null
//   beside an object, a boxed primitive beside the primitive, and value objects (Dates, URLs)
//   equal and not.
// - grownRepeats: in a module that keeps state between calls, the scenario's last call made
//   twice, its numbers 1 the first time and the module's largest constant c (and c + 1) the
//   second: a pool, a buffer or a cache sized by a constant factor is refilled or grown only
//   by a call that outgrows what the first one made (`random(1)` then `random(128)`).
// - numericTexts: each number passed as its text (`'5'` for 5), for code that coerces it
//   (`size -= 0`) and whose mutants (`size += 0`) only a string tells apart.

const { atom, arrayOf, objectOf } = require('../search/candidate');

const MAX_PAIRS = 10;
const MAX_GROWN = 2;
const GROWING_CONSTANTS = 1;

// A deep copy of a candidate: passed beside the original, it is another object, equal to it.
const copyOf = (candidate) => structuredClone(candidate);

// A candidate like `candidate`, changed in one place.
function changed(candidate) {
  if (candidate.kind === 'array') return arrayOf([...candidate.items, atom.number(1)]);
  if (candidate.kind === 'object') {
    const [first, ...rest] = candidate.entries;
    return first ? objectOf([[first[0], changed(first[1])], ...rest]) : objectOf([['a', atom.number(1)]]);
  }
  if (candidate.kind !== 'atom') return atom.null();
  switch (candidate.type) {
    case 'number':
      return atom.number(Number.isNaN(candidate.value) ? 0 : candidate.value + 1);
    case 'string':
      return atom.string(`${candidate.value}x`);
    case 'boolean':
      return atom.boolean(!candidate.value);
    case 'null':
    case 'undefined':
      return atom.number(0);
    default:
      return regexChanged(candidate)[0] || atom.null();
  }
}

// A regex literal with its flags changed, and with its source changed.
function regexChanged(candidate) {
  const literal = candidate.type === 'regexp' && /^\/(.+)\/([a-z]*)$/s.exec(candidate.source);
  if (!literal) return [];
  const [, pattern, flags] = literal;
  const otherFlags = flags.includes('i') ? flags.replace('i', '') : `${flags}i`;
  return [atom.expression('regexp', `/${pattern}/${otherFlags}`), atom.expression('regexp', `/${pattern}x/${flags}`)];
}

// Copies of `candidate` that differ from it in one place each.
function nearCopies(candidate) {
  if (candidate.kind === 'array') {
    const items = candidate.items;
    return [
      arrayOf([...items.map(copyOf), atom.number(1)]),
      ...(items.length
        ? [arrayOf(items.slice(0, -1).map(copyOf)), arrayOf([changed(items[0]), ...items.slice(1)])]
        : []),
    ];
  }
  if (candidate.kind === 'object') {
    const entries = candidate.entries;
    const copies = [objectOf([...entries.map(copyOf), ['extra', atom.number(1)]])];
    if (entries.length) {
      const [[key, value], ...rest] = entries;
      copies.push(
        objectOf(entries.slice(0, -1).map(copyOf)),
        objectOf([[key, changed(value)], ...rest.map(copyOf)]),
        objectOf([[`${key}2`, copyOf(value)], ...rest.map(copyOf)]),
      );
    }
    return copies;
  }
  if (candidate.kind === 'atom') return [...regexChanged(candidate), changed(candidate)];
  return [];
}

// `new Number(3)` for 3: an object whose typeof is 'object' that compares like the primitive.
function boxed(candidate) {
  if (candidate.kind !== 'atom') return null;
  const box = { number: 'Number', string: 'String', boolean: 'Boolean' }[candidate.type];
  return box ? atom.expression('object', `new ${box}(${candidate.source})`) : null;
}

const VALUE_OBJECT_PAIRS = () =>
  [
    ['new Date(0)', 'new Date(0)'],
    ['new Date(0)', 'new Date(1)'],
    ["new URL('https://example.com/a')", "new URL('https://example.com/a')"],
  ].map(([a, b]) => [atom.expression('object', a), atom.expression('object', b)]);

// The pairs for the two compared arguments of a call, the likeliest to tell a mutant first.
function pairsFor(first) {
  const pairs = [
    [first, copyOf(first)],
    [atom.null(), first],
    [first, atom.null()],
  ];
  // NaN is unequal to itself, boxed or not: the box holds an ordinary number then.
  const primitive = first.kind === 'atom' && Number.isNaN(first.value) ? atom.number(1) : first;
  const box = boxed(primitive);
  if (box) pairs.push([box, copyOf(primitive)], [copyOf(primitive), box]);
  for (const near of nearCopies(first)) pairs.push([first, near]);
  // Keys renamed whose values are undefined: told apart by the keys alone.
  if (first.kind === 'object' && first.entries.length) {
    const [[key], ...rest] = first.entries;
    pairs.push([
      objectOf([[key, atom.undefined()], ...rest]),
      objectOf([[`${key}2`, atom.undefined()], ...rest.map(copyOf)]),
    ]);
  }
  if (first.kind === 'object' && !first.entries.length) pairs.unshift([first, objectOf([])]);
  return pairs.slice(0, MAX_PAIRS);
}

// What kind of value a candidate is ('object', 'array', 'atom:regexp', ...): comparedPairs are
// made from one scenario of each kind.
function kindOf(candidate) {
  return candidate.kind === 'atom' ? `atom:${candidate.type}` : candidate.kind;
}

// The compared arguments of a scenario's last call: { index, other, first } (`first` the
// argument at `index`), or null when its parameters are not compared with each other.
function comparedArguments(scenario) {
  const steps = scenario.steps;
  const last = steps[steps.length - 1];
  if (!last || !['call', 'method'].includes(last.op) || !last.params) return null;
  const index = last.params.findIndex((slot) => slot.hint.comparedWith && slot.hint.comparedWith.size);
  if (index < 0 || index >= last.args.length) return null;
  const other = [...last.params[index].hint.comparedWith].find((i) => i !== index && i < last.params.length);
  if (other === undefined) return null;
  const hint = last.params[index].hint;
  return { index, other, first: last.args[index], kind: kindOf(last.args[index]), objects: hint.types.has('object') };
}

// Steps of `scenario` with the compared arguments of its last call (comparedArguments) replaced
// by each pair made from the first one, then, with `valueObjects` and where the parameter takes
// objects, by Dates and URLs, equal and not.
function comparedPairs(scenario, { valueObjects = false } = {}) {
  const compared = comparedArguments(scenario);
  if (!compared) return [];
  const { index, other, first, objects } = compared;
  const steps = scenario.steps;
  const last = steps[steps.length - 1];
  const pairs = pairsFor(first);
  if (valueObjects && objects) pairs.push(...VALUE_OBJECT_PAIRS());
  return pairs.map(([a, b]) => {
    const args = [...last.args];
    while (args.length <= other) args.push(atom.undefined());
    args[index] = a;
    args[other] = b;
    return [...steps.slice(0, -1), { ...last, args }];
  });
}

// The integer constants of a module that size things (128 in `bytes * 128`), largest first.
function growingConstants(literals) {
  return [...new Set(literals.numbers)]
    .filter((n) => Number.isInteger(n) && n >= 2 && n <= 1 << 16)
    .sort((a, b) => b - a)
    .slice(0, GROWING_CONSTANTS);
}

// The last call of `scenario` made twice: first with each number n >= 1 in it made 1, then with
// it grown to c and c + 1 for the module's largest constant c (the first call sizes what the
// second outgrows, so the steps before it, which may have sized it otherwise, are left out);
// [] when the call has no such number or works on a value an earlier step made.
function grownRepeats(scenario, constants) {
  const steps = scenario.steps;
  const last = steps[steps.length - 1];
  if (!last || last.op !== 'call' || !last.args || !constants.length) return [];
  const grows = (arg) => arg.kind === 'atom' && arg.type === 'number' && Number.isInteger(arg.value) && arg.value >= 1;
  if (!last.args.some(grows)) return [];
  const sized = (size) => ({ ...last, args: last.args.map((arg) => (grows(arg) ? atom.number(size) : arg)) });
  return [constants[0], constants[0] + 1].slice(0, MAX_GROWN).map((size) => [sized(1), sized(size)]);
}

// Steps of `scenario` with every finite number passed as its text, or null when it passes none.
function numericTexts(scenario) {
  let found = false;
  const steps = scenario.steps.map((step) =>
    step.args
      ? {
          ...step,
          args: step.args.map((arg) => {
            if (arg.kind !== 'atom' || arg.type !== 'number' || !Number.isFinite(arg.value)) return arg;
            found = true;
            return atom.string(String(arg.value));
          }),
        }
      : step,
  );
  return found ? steps : null;
}

module.exports = { comparedArguments, comparedPairs, grownRepeats, growingConstants, numericTexts };
