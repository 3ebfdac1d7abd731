'use strict';
// Template engines read text between delimiters they name in their own source: `{{` and `}}` in a
// tags list, `(<%%|%%>|<%=|<%-|<%|%>|-%>)` in a regex they build, tag types as a regex
// alternation (`/#|\^|\/|>|\{|&|=|!/`). From those tokens this builds template texts in the
// module's own syntax (a plain tag, each tag type, sections around a list, closers that trim,
// an unclosed tag) and a data object holding every key the texts name, so that a render gets
// past its parser and its output can be asserted whole. Code without a delimiter pair gets none.

// A token: one to three characters, none a letter, digit or space.
const PUNCTUATION_TOKEN = /^[^\sA-Za-z0-9]{1,3}$/;
const MIRROR = { '{': '}', '}': '{', '(': ')', ')': '(', '[': ']', ']': '[', '<': '>', '>': '<' };
const OPENING = new Set(['{', '(', '[', '<']);
const MAX_PAIRS = 2;
const MAX_MARKERS = 8;

// The data the texts refer to: a plain value, markup to escape, a list of objects and one of
// strings for sections, a nested object for dotted names, a flag and an empty list.
const TEMPLATE_DATA = {
  name: 'World',
  html: '<b>"Tom" & \'Jerry\'</b>',
  items: [{ name: 'a' }, { name: 'b' }],
  list: ['x', 'y'],
  person: { name: 'Ada' },
  ok: true,
  none: [],
};

function mirror(token) {
  return [...token]
    .reverse()
    .map((ch) => MIRROR[ch] || ch)
    .join('');
}

// The parts of `a|b|c` (optionally in one group), with regex escapes removed.
function alternativesOf(text, unescape) {
  const inner = /^\((?:\?:)?([^()]*)\)$/.exec(text);
  return (inner ? inner[1] : text).split('|').map((part) => (unescape ? part.replace(/\\(.)/g, '$1') : part));
}

// Punctuation tokens named in strings and regexes, and the single characters that regex (or
// string) alternations of three or more list: tag types.
function tokensOf(strings, regexes) {
  const tokens = new Set();
  const singles = new Set();
  const add = (parts) => {
    const punctuation = parts.filter((part) => PUNCTUATION_TOKEN.test(part));
    punctuation.forEach((part) => tokens.add(part));
    const oneCharacter = punctuation.filter((part) => part.length === 1);
    if (parts.length >= 3 && oneCharacter.length >= 3) oneCharacter.forEach((part) => singles.add(part));
  };
  for (const text of strings) add(text.includes('|') ? alternativesOf(text, false) : [text]);
  for (const { pattern } of regexes) add(alternativesOf(pattern, true));
  return { tokens, singles };
}

// Delimiter pairs: a token of two or three characters opening with a bracket, whose mirror image
// is also a token (`{{` and `}}`, `<%` and `%>`, `[:` and `:]`).
function delimiterPairs(tokens) {
  const pairs = [];
  for (const open of tokens) {
    const close = mirror(open);
    if (open.length >= 2 && OPENING.has(open[0]) && close !== open && tokens.has(close)) pairs.push({ open, close });
  }
  // The shortest pair first: `<%` before `<%%`, whose tokens extend it.
  return pairs.sort((a, b) => a.open.length - b.open.length).slice(0, MAX_PAIRS);
}

// Names a template's code may call: the parameters an engine compiles its templates with, as a
// string of identifiers it hands to the Function constructor (ejs's `', escapeFn, include,
// rethrow'`). A template that calls one with a path (`<% include('file.txt') %>`) runs the
// engine's include machinery: resolving the path against the options' filename, views or root.
const PARAMETER_LIST = /^\s*,?\s*[A-Za-z_$][\w$]*(\s*,\s*[A-Za-z_$][\w$]*){2,}\s*$/;
const MAX_TEMPLATE_CALLS = 4;
// What the calls pass: a file of the working folder every scenario and test has
// (execution/folder-fixture.js).
const CALLED_WITH = "'file.txt'";

function templateCallNames(strings) {
  const names = strings
    .filter((text) => PARAMETER_LIST.test(text))
    .flatMap((text) => text.split(',').map((part) => part.trim()))
    .filter(Boolean);
  return [...new Set(names)].slice(0, MAX_TEMPLATE_CALLS);
}

function textsFor({ open, close }, tokens, singles, callNames = []) {
  const tag = (body) => `${open}${body}${close}`;
  // Tag types: one character after the opener (`<%=`, `<%-`) or listed on their own (`#`, `^`).
  const extensions = [...tokens].filter((token) => token.length === open.length + 1 && token.startsWith(open));
  const markers = [...new Set([...extensions.map((token) => token.slice(open.length)), ...singles])].slice(
    0,
    MAX_MARKERS,
  );
  // Closers with one character before them (`-%>` trims the newline after the tag).
  const closers = [...tokens]
    .filter((token) => token.length === close.length + 1 && token.endsWith(close))
    .map((token) => token.slice(0, 1));
  const texts = [`Hello ${tag('name')}!`, tag(' name ')];
  for (const marker of markers) texts.push(tag(`${marker}html${OPENING.has(marker) ? MIRROR[marker] : ''}`));
  for (const marker of markers.slice(0, 3)) texts.push(`Hello ${tag(`${marker} name `)}!`);
  if (markers.includes('/')) {
    const sectionMarkers = markers.filter((marker) => marker !== '/' && !OPENING.has(marker)).slice(0, 2);
    for (const marker of sectionMarkers) {
      texts.push(`${tag(`${marker}items`)}<${tag('name')}>${tag('/items')}`);
      texts.push(`${tag(`${marker}list`)}\n${tag('.')},\n${tag('/list')}\n`);
    }
  }
  for (const before of closers) texts.push(`a\n${open} name ${before}${close}\nb`);
  texts.push(tag('person.name'), `line 1\n  ${tag('name')}\n`, `${open}name`);
  // The callable names, in a plain tag (code run for its effect) and in the first tag type that
  // does not repeat the opener's last character (`<%%` writes a literal `<%`).
  const output = markers.find((marker) => marker !== open[open.length - 1]);
  for (const name of callNames) {
    texts.push(tag(` ${name}(${CALLED_WITH}) `));
    if (output) texts.push(tag(`${output} ${name}(${CALLED_WITH}) `));
  }
  return texts;
}

// { texts, data } for code with template delimiters, else null.
function templateSyntax(strings, regexes) {
  const { tokens, singles } = tokensOf(strings, regexes);
  const pairs = delimiterPairs(tokens);
  if (!pairs.length) return null;
  const callNames = templateCallNames(strings);
  // The calls in the first (shortest) pair's syntax only: they are seeds of every string parameter.
  const texts = [...new Set(pairs.flatMap((pair, index) => textsFor(pair, tokens, singles, index ? [] : callNames)))];
  return { texts, data: TEMPLATE_DATA };
}

module.exports = { templateSyntax, TEMPLATE_DATA };
