'use strict';
// Writes a described value (see child/snapshot.js) back as the JavaScript expression a test
// expects it to equal. Values that cannot be written literally become Jest's asymmetric matchers:
// functions `expect.any(Function)`, values that differed between two runs `expect.any(Number)`
// and so on. A value that cannot be asserted at all (it was undefined in one run and a number in
// the other, or it is a Proxy) raises Unassertable so the caller can assert less.

const { quoteString, numberSource, propertyKey } = require('./js-source');

const LINE_WIDTH = 72;
const BUILTIN_ERRORS = new Set([
  'Error',
  'TypeError',
  'RangeError',
  'SyntaxError',
  'ReferenceError',
  'EvalError',
  'URIError',
]);
const TYPE_MATCHERS = {
  string: 'String',
  number: 'Number',
  boolean: 'Boolean',
  bigint: 'BigInt',
  symbol: 'Symbol',
  function: 'Function',
  array: 'Array',
  object: 'Object',
  date: 'Date',
  regexp: 'RegExp',
  map: 'Map',
  set: 'Set',
  error: 'Error',
  promise: 'Promise',
  buffer: 'Buffer',
};

class Unassertable extends Error {}

function numberLiteral(v) {
  return typeof v === 'number' ? numberSource(v) : v; // 'NaN', '-0', 'Infinity' arrive as text
}

function wrap(open, items, close, indent) {
  const flat = `${open}${items.join(', ')}${close}`;
  if (flat.length <= LINE_WIDTH && !flat.includes('\n')) return flat;
  const inner = `${indent}  `;
  return `${open.trimEnd()}\n${items.map((item) => `${inner}${item},`).join('\n')}\n${indent}${close.trimStart()}`;
}

function regexText(text) {
  return text
    .replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')
    .replace(/\n/g, '\\n')
    .replace(/\r/g, '\\r');
}

// The characters of `alphabet` as the inside of a regex character class, runs of three or more
// consecutive characters as ranges (`0-9A-Za-z_-`), `-` last.
function characterClass(alphabet) {
  const codes = [...new Set(alphabet)].map((char) => char.charCodeAt(0)).sort((a, b) => a - b);
  const dash = codes.includes(45);
  const escape = (code) => String.fromCharCode(code).replace(/[\\\][^/-]/g, '\\$&');
  const parts = [];
  for (let i = 0; i < codes.length;) {
    if (codes[i] === 45) {
      i++;
      continue;
    }
    let end = i;
    while (end + 1 < codes.length && codes[end + 1] === codes[end] + 1 && codes[end + 1] !== 45) end++;
    parts.push(
      end - i >= 2
        ? `${escape(codes[i])}-${escape(codes[end])}`
        : codes
            .slice(i, end + 1)
            .map(escape)
            .join(''),
    );
    i = end + 1;
  }
  return parts.join('') + (dash ? '-' : '');
}

function unstableSource(desc) {
  // Strings that differed between runs but share their ends (`'job@' + a timestamp`).
  // Random text of a length the code spells (stability.js): `nanoid()`'s 21 characters.
  // Drawn from an alphabet the code or the inputs spell: `/^[0-9A-Za-z_-]{21}$/`.
  if (desc.length !== undefined && desc.alphabet)
    return `expect.stringMatching(/^[${characterClass(desc.alphabet)}]{${desc.length}}$/)`;
  if (desc.length !== undefined) return `expect.stringMatching(/^[\\s\\S]{${desc.length}}$/)`;
  // Random bytes of a count the two runs agreed on: `random(5)`.
  if (desc.size !== undefined) return `expect.objectContaining({ length: ${desc.size} })`;
  if (desc.prefix !== undefined)
    return `expect.stringMatching(/^${regexText(desc.prefix)}[\\s\\S]*${regexText(desc.suffix)}$/)`;
  const types = [...new Set(desc.types)];
  if (types.length === 1 && TYPE_MATCHERS[types[0]]) return `expect.any(${TYPE_MATCHERS[types[0]]})`;
  if (types.length && types.every((type) => type !== 'undefined' && type !== 'null')) return 'expect.anything()';
  throw new Unassertable();
}

// A text as source: a string literal, or for a text naming the folder the scenario ran in (its
// `folderParts`), the literals around `process.cwd()`: `process.cwd() + '/abc'`.
function textSource(text, folderParts) {
  if (!folderParts) return quoteString(text);
  const pieces = [];
  folderParts.forEach((part, index) => {
    if (index) pieces.push('process.cwd()');
    if (part) pieces.push(quoteString(part));
  });
  return pieces.join(' + ');
}

// An error inside a value: a literal error when Jest's equality says all (it compares messages),
// else its name, message and primitive own properties (`code`). Not `expect.any(Error)`: errors
// made by Node's own modules (fs, the URL parser) are not instances of the test's Error.
function errorSource(desc) {
  if (
    BUILTIN_ERRORS.has(desc.ctor) &&
    desc.message !== null &&
    !desc.messagePrefix &&
    !desc.messageFolderParts &&
    !desc.props.length &&
    desc.name === desc.ctor
  ) {
    return `new ${desc.ctor}(${quoteString(desc.message)})`;
  }
  return errorFieldsSource(desc);
}

// The primitive own properties of an error (`code`, `errno`), without its name and message.
function errorProperties(desc) {
  return desc.props.filter(([key, value]) => isPrimitive(value) && key !== 'name' && key !== 'message');
}

// `expect.objectContaining` of an error's name, its message (whole, or the start both runs agreed
// on) and its primitive own properties.
function errorFieldsSource(desc) {
  const entries = [['name', quoteString(desc.name)]];
  if (desc.message !== null)
    entries.push([
      'message',
      desc.messagePrefix
        ? `expect.stringContaining(${textSource(desc.message, desc.messageFolderParts)})`
        : textSource(desc.message, desc.messageFolderParts),
    ]);
  entries.push(...errorProperties(desc).map(([key, value]) => [key, valueSource(value)]));
  return `expect.objectContaining({ ${entries.map(([key, value]) => `${propertyKey(key)}: ${value}`).join(', ')} })`;
}

// Source text for a description, indented for a line that starts at `indent`.
function valueSource(desc, indent = '') {
  const inner = `${indent}  `;
  switch (desc.t) {
    case 'undefined':
      return 'undefined';
    case 'null':
      return 'null';
    case 'boolean':
      return String(desc.v);
    case 'number':
      return numberLiteral(desc.v);
    case 'bigint':
      return `${desc.v}n`;
    case 'string':
      return desc.long ? 'expect.any(String)' : textSource(desc.v, desc.folderParts);
    case 'symbol':
      return desc.key !== undefined ? `Symbol.for(${quoteString(desc.key)})` : 'expect.any(Symbol)';
    case 'function':
      return 'expect.any(Function)';
    case 'array':
      return wrap(
        '[',
        desc.items.map((item) => valueSource(item, inner)),
        ']',
        indent,
      );
    // No literal makes an `arguments` object: its items and length, which is what Jest compares.
    case 'arguments': {
      const entries = [
        ...desc.items.map((item, index) => `${index}: ${valueSource(item, inner)}`),
        `length: ${desc.items.length}`,
      ];
      return `expect.objectContaining(${wrap('{ ', entries, ' }', indent)})`;
    }
    case 'object': {
      const entries = desc.entries.map(([key, value]) => `${propertyKey(key)}: ${valueSource(value, inner)}`);
      const literal = entries.length ? wrap('{ ', entries, ' }', indent) : '{}';
      // Keys the description left out (an emitter's `_events`) are there all the same.
      return desc.symbols || desc.leftOutKeys ? `expect.objectContaining(${literal})` : literal;
    }
    case 'date':
      return desc.v === null ? 'expect.any(Date)' : `new Date(${quoteString(desc.v)})`;
    case 'regexp':
      return `/${desc.source}/${desc.flags}`;
    // No literal makes a subclass's instance, and Jest compares these only with their own kind.
    case 'map':
      if (desc.subclass) return 'expect.any(Map)';
      return `new Map(${wrap(
        '[',
        desc.entries.map(([k, v]) => `[${valueSource(k, inner)}, ${valueSource(v, inner)}]`),
        ']',
        indent,
      )})`;
    case 'set':
      if (desc.subclass) return 'expect.any(Set)';
      return `new Set(${wrap(
        '[',
        desc.items.map((item) => valueSource(item, inner)),
        ']',
        indent,
      )})`;
    case 'error':
      return errorSource(desc);
    case 'buffer':
      return `Buffer.from([${desc.bytes.join(', ')}])`;
    case 'typed':
      return `new ${desc.ctor}([${desc.items.map((item) => valueSource(item)).join(', ')}])`;
    case 'promise':
      return 'expect.any(Promise)';
    case 'unstable':
      return unstableSource(desc);
    // Jest cannot compare a Proxy that throws on properties it does not know (snapshot.js).
    case 'proxy':
      throw new Unassertable();
    default:
      return 'expect.anything()'; // circular, opaque, truncated
  }
}

// Whether `toBe` can compare the value (primitives, compared with Object.is).
function isPrimitive(desc) {
  return ['undefined', 'null', 'boolean', 'number', 'bigint', 'string'].includes(desc.t) && !desc.long;
}

module.exports = {
  valueSource,
  textSource,
  isPrimitive,
  errorFieldsSource,
  errorProperties,
  Unassertable,
  BUILTIN_ERRORS,
};
