'use strict';
// Produces strings that a regular expression matches and strings it rejects. Source code tests
// inputs with regexes (`/^(\d+)\s*(ms|s|m)$/.test(value)`), so strings shaped by each alternative
// and each optional part reach the branches that follow such tests.
//
// The pattern is parsed into a small tree. One "default" string takes the first alternative and
// one repetition everywhere; every other sample changes exactly one choice (another alternative,
// an optional part left out, another character of a class), which is how one-at-a-time variation
// covers the cases of a `switch` that follows the match.

const MAX_SAMPLES = 40;
const MAX_LENGTH = 60;

const CLASS_ESCAPES = {
  d: [['0', '9']],
  w: [
    ['a', 'z'],
    ['A', 'Z'],
    ['0', '9'],
    ['_', '_'],
  ],
  s: [
    [' ', ' '],
    ['\t', '\t'],
    ['\n', '\n'],
  ],
};
const NEGATED_CLASS_ESCAPES = { D: 'd', W: 'w', S: 's' };
const CHARACTER_ESCAPES = { n: '\n', r: '\r', t: '\t', f: '\f', v: '\v', 0: '\0' };
const FALLBACK_CHARACTERS = 'aA1 _-.!~xZ9';

class PatternParser {
  constructor(pattern) {
    this.pattern = pattern;
    this.pos = 0;
    this.groupCount = 0;
  }

  parse() {
    const tree = this.alternation();
    if (this.pos < this.pattern.length) throw new Error(`unexpected ${this.pattern[this.pos]}`);
    return tree;
  }

  peek() {
    return this.pattern[this.pos];
  }

  alternation() {
    const alternatives = [this.sequence()];
    while (this.peek() === '|') {
      this.pos++;
      alternatives.push(this.sequence());
    }
    return { type: 'alternation', alternatives };
  }

  sequence() {
    const items = [];
    while (this.pos < this.pattern.length && this.peek() !== '|' && this.peek() !== ')') {
      items.push(this.quantified(this.atom()));
    }
    return { type: 'sequence', items };
  }

  quantified(atom) {
    const ch = this.peek();
    let min;
    let max;
    if (ch === '*' || ch === '+' || ch === '?') {
      this.pos++;
      [min, max] = { '*': [0, Infinity], '+': [1, Infinity], '?': [0, 1] }[ch];
    } else if (ch === '{') {
      const match = /^\{(\d+)(,(\d*))?\}/.exec(this.pattern.slice(this.pos));
      if (!match) return atom;
      this.pos += match[0].length;
      min = Number(match[1]);
      max = match[2] === undefined ? min : match[3] === '' ? Infinity : Number(match[3]);
    } else {
      return atom;
    }
    if (this.peek() === '?') this.pos++; // lazy quantifiers generate the same strings
    return { type: 'repeat', atom, min, max };
  }

  atom() {
    const ch = this.pattern[this.pos++];
    if (ch === '(') return this.group();
    if (ch === '[') return this.characterClass();
    if (ch === '.') return { type: 'class', negated: true, ranges: [['\n', '\n']] };
    if (ch === '^' || ch === '$') return { type: 'empty' };
    if (ch === '\\') return this.escape(false);
    return { type: 'char', value: ch };
  }

  group() {
    let capture = true;
    let lookaround = false;
    if (this.peek() === '?') {
      const rest = this.pattern.slice(this.pos);
      const named = /^\?<([A-Za-z_$][\w$]*)>/.exec(rest);
      if (named) this.pos += named[0].length;
      else if (rest.startsWith('?:')) {
        this.pos += 2;
        capture = false;
      } else if (/^\?(=|!|<=|<!)/.test(rest)) {
        this.pos += rest[1] === '<' ? 3 : 2;
        capture = false;
        lookaround = true;
      }
    }
    const index = capture ? ++this.groupCount : 0;
    const body = this.alternation();
    if (this.pattern[this.pos++] !== ')') throw new Error('unterminated group');
    return lookaround ? { type: 'empty' } : { type: 'group', index, body };
  }

  characterClass() {
    const negated = this.peek() === '^';
    if (negated) this.pos++;
    const ranges = [];
    let first = true;
    while (this.pos < this.pattern.length && (this.peek() !== ']' || first)) {
      first = false;
      const lo = this.classCharacter();
      if (Array.isArray(lo)) {
        ranges.push(...lo);
        continue;
      }
      if (this.peek() === '-' && this.pattern[this.pos + 1] !== ']' && this.pos + 1 < this.pattern.length) {
        this.pos++;
        const hi = this.classCharacter();
        if (Array.isArray(hi)) {
          ranges.push([lo, lo], ['-', '-'], ...hi);
          continue;
        }
        ranges.push([lo, hi]);
      } else {
        ranges.push([lo, lo]);
      }
    }
    if (this.pattern[this.pos++] !== ']') throw new Error('unterminated class');
    return { type: 'class', negated, ranges };
  }

  // One character inside [...], or a list of ranges for \d, \w, \s.
  classCharacter() {
    const ch = this.pattern[this.pos++];
    if (ch !== '\\') return ch;
    const escaped = this.escape(true);
    if (escaped.type === 'char') return escaped.value;
    if (escaped.type === 'class' && !escaped.negated) return escaped.ranges;
    return [];
  }

  escape(inClass) {
    const ch = this.pattern[this.pos++];
    if (CLASS_ESCAPES[ch]) return { type: 'class', negated: false, ranges: CLASS_ESCAPES[ch] };
    if (NEGATED_CLASS_ESCAPES[ch])
      return { type: 'class', negated: true, ranges: CLASS_ESCAPES[NEGATED_CLASS_ESCAPES[ch]] };
    if (ch in CHARACTER_ESCAPES) return { type: 'char', value: CHARACTER_ESCAPES[ch] };
    if (ch === 'b') return inClass ? { type: 'char', value: '\b' } : { type: 'empty' };
    if (ch === 'B') return { type: 'empty' };
    const hex = /^(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|u\{[0-9a-fA-F]+\})/.exec(this.pattern.slice(this.pos - 1));
    if (hex) {
      this.pos += hex[0].length - 1;
      return { type: 'char', value: String.fromCodePoint(parseInt(hex[0].replace(/[xu{}]/g, ''), 16)) };
    }
    if (ch === 'p' || ch === 'P') {
      const property = /^\{[^}]*\}/.exec(this.pattern.slice(this.pos));
      if (property) this.pos += property[0].length;
      return { type: 'class', negated: ch === 'P', ranges: [['a', 'z']] };
    }
    if (/[1-9]/.test(ch) && !inClass) return { type: 'backreference', index: Number(ch) };
    if (ch === 'k' && this.peek() === '<') {
      this.pos = this.pattern.indexOf('>', this.pos) + 1;
      return { type: 'empty' };
    }
    return { type: 'char', value: ch };
  }
}

function inRanges(ch, ranges) {
  return ranges.some(([lo, hi]) => ch >= lo && ch <= hi);
}

// Characters a class can produce, one per range. A range's second character stands for it
// (`1` for 0-9) because the low end is often a degenerate value such as zero.
function classMembers(node) {
  const representative = ([lo, hi]) => (hi > lo ? String.fromCodePoint(lo.codePointAt(0) + 1) : lo);
  if (!node.negated) return [...new Set(node.ranges.map(representative))];
  return [...FALLBACK_CHARACTERS].filter((ch) => !inRanges(ch, node.ranges));
}

// Every choice point in the tree, numbered in a fixed order so a sample can override one.
function choicePoints(tree) {
  const points = [];
  const visit = (node) => {
    if (node.type === 'alternation') {
      if (node.alternatives.length > 1) points.push({ node, options: node.alternatives.map((_, i) => i) });
      node.alternatives.forEach(visit);
    } else if (node.type === 'sequence') {
      node.items.forEach(visit);
    } else if (node.type === 'repeat') {
      const options = [...new Set([node.min, node.min + 1, Math.min(node.max, node.min + 2)])].filter(
        (n) => n <= node.max,
      );
      if (options.length > 1) points.push({ node, options });
      visit(node.atom);
    } else if (node.type === 'group') {
      visit(node.body);
    } else if (node.type === 'class') {
      const members = classMembers(node);
      if (members.length > 1) points.push({ node, options: members.slice(0, 8) });
    }
  };
  visit(tree);
  return points;
}

function defaultChoice(node) {
  if (node.type === 'repeat') return node.max === 0 ? 0 : Math.max(node.min, 1);
  if (node.type === 'class') return classMembers(node)[0] ?? 'a';
  return 0;
}

function render(tree, overrides) {
  const captures = [];
  const emit = (node) => {
    const choice = overrides.has(node) ? overrides.get(node) : defaultChoice(node);
    switch (node.type) {
      case 'alternation':
        return emit(node.alternatives[choice]);
      case 'sequence':
        return node.items.map(emit).join('');
      case 'repeat': {
        let out = '';
        for (let i = 0; i < choice; i++) out += emit(node.atom);
        return out;
      }
      case 'group': {
        const text = emit(node.body);
        if (node.index) captures[node.index] = text;
        return text;
      }
      case 'class':
        return choice;
      case 'char':
        return node.value;
      case 'backreference':
        return captures[node.index] ?? '';
      default:
        return '';
    }
  };
  return emit(tree);
}

// Returns { matching: [strings], nonMatching: [strings] } for a regex literal's pattern and flags.
function sampleRegex(pattern, flags = '') {
  let tree;
  let regex;
  try {
    regex = new RegExp(pattern, flags.replace(/[gy]/g, ''));
    tree = new PatternParser(pattern).parse();
  } catch {
    return { matching: [], nonMatching: [] };
  }
  const candidates = [render(tree, new Map())];
  for (const point of choicePoints(tree)) {
    for (const option of point.options) candidates.push(render(tree, new Map([[point.node, option]])));
    if (candidates.length > MAX_SAMPLES * 2) break;
  }
  if (flags.includes('i')) candidates.push(...candidates.slice(0, 4).map((s) => s.toUpperCase()));

  const matching = [...new Set(candidates)]
    .filter((s) => s.length <= MAX_LENGTH && regex.test(s))
    .slice(0, MAX_SAMPLES);
  const base = matching[0] ?? '';
  const nonMatching = [...new Set(['', `${base}!`, `!${base}`, base.slice(1), base.slice(0, -1)])]
    .filter((s) => !regex.test(s))
    .slice(0, 3);
  return { matching, nonMatching };
}

module.exports = { sampleRegex };
