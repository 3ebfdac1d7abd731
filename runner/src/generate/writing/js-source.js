'use strict';
// Small helpers that spell JavaScript values as source text. Generated tests are read by people,
// so strings use single quotes and object keys stay unquoted when they are plain identifiers.

const RESERVED_WORDS = new Set(
  (
    'break case catch class const continue debugger default delete do else enum export extends false ' +
    'finally for function if import in instanceof new null return super switch this throw true try ' +
    'typeof var void while with yield let static implements interface package private protected public ' +
    'await arguments eval undefined NaN Infinity'
  ).split(' '),
);

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function quoteString(text) {
  let out = "'";
  for (const ch of text) {
    const code = ch.codePointAt(0);
    if (ch === "'") out += "\\'";
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f || (code >= 0xd800 && code <= 0xdfff) || code === 0x2028 || code === 0x2029) {
      out += code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
    } else out += ch;
  }
  return out + "'";
}

function numberSource(value) {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return 'Infinity';
  if (value === -Infinity) return '-Infinity';
  if (Object.is(value, -0)) return '-0';
  return String(value);
}

function isIdentifierName(name) {
  return IDENTIFIER.test(name);
}

function isUsableBindingName(name) {
  return isIdentifierName(name) && !RESERVED_WORDS.has(name);
}

// A property key as it appears in an object literal.
function propertyKey(key) {
  if (isIdentifierName(key)) return key;
  if (/^(0|[1-9][0-9]*)$/.test(key) && Number(key) <= Number.MAX_SAFE_INTEGER) return key;
  return quoteString(key);
}

// `object.key`, or `object['key']` when the key is not an identifier.
function memberAccess(objectSource, key) {
  return isIdentifierName(key) ? `${objectSource}.${key}` : `${objectSource}[${quoteString(key)}]`;
}

module.exports = { quoteString, numberSource, propertyKey, memberAccess, isIdentifierName, isUsableBindingName };
