'use strict';
// Static analysis: which exports are found, and which inputs are mined from the source.

const test = require('node:test');
const assert = require('node:assert/strict');
const { analyzeSource } = require('../../src/generate/analysis/analyze');
const { paramHints } = require('../../src/generate/analysis/param-hints');

function exportsOf(source) {
  return analyzeSource(source).exports.map((info) => ({
    name: info.name,
    kind: info.kind,
    async: info.async,
    generator: info.generator,
    members: info.members.map((member) => `${member.static ? 'static ' : ''}${member.kind} ${member.name}`),
  }));
}

function hintsOf(source, exportName = null) {
  const analysis = analyzeSource(source);
  const info = analysis.exports.find((candidate) => candidate.name === exportName);
  return paramHints(info.node, analysis.paramContext);
}

test('finds CommonJS exports: module.exports function, exports.x, module.exports.x', () => {
  const found = exportsOf(`
    function ms(value) { return value; }
    module.exports = ms;
    module.exports.format = function format(n) { return String(n); };
    exports.parse = (text) => Number(text);
  `);
  assert.deepEqual(
    found.map((e) => [e.name, e.kind]),
    [
      [null, 'function'],
      ['format', 'function'],
      ['parse', 'function'],
    ],
  );
});

test('finds the members of an exported object literal', () => {
  const found = exportsOf(`
    const helper = () => 1;
    module.exports = { add(a, b) { return a + b; }, helper, get version() { return 1; }, answer: 42 };
  `);
  assert.deepEqual(found[0].members, ['method add', 'method helper', 'getter version']);
  assert.deepEqual(
    found.slice(1).map((e) => [e.name, e.kind]),
    [
      ['add', 'function'],
      ['helper', 'function'],
    ],
  );
});

test('finds ES module exports: functions, async and generator functions, default class, consts, specifiers', () => {
  const found = exportsOf(`
    export function plain() {}
    export async function load() {}
    export function* ids() {}
    export const twice = (x) => x * 2, limit = 3;
    function local() {}
    export { local as renamed };
    export default class Shape {}
  `);
  assert.deepEqual(
    found.map((e) => [e.name, e.kind, e.async, e.generator]),
    [
      ['plain', 'function', false, false],
      ['load', 'function', true, false],
      ['ids', 'function', false, true],
      ['twice', 'function', false, false],
      ['limit', 'value', false, false],
      ['renamed', 'function', false, false],
      ['default', 'class', false, false],
    ],
  );
});

test('finds class members: constructor, methods, getters, setters and statics', () => {
  const [counter] = exportsOf(`
    class Counter {
      constructor(start) { this.count = start; }
      increment() { return ++this.count; }
      get value() { return this.count; }
      set value(v) { this.count = v; }
      static from(text) { return new Counter(Number(text)); }
      async *[Symbol.iterator]() {}
    }
    module.exports = Counter;
  `);
  assert.equal(counter.kind, 'class');
  assert.deepEqual(counter.members, [
    'constructor constructor',
    'method increment',
    'getter value',
    'setter value',
    'static method from',
  ]);
});

test('treats a constructor function with prototype methods as a class', () => {
  const [stack] = exportsOf(`
    function Stack() { this.items = []; }
    Stack.prototype.push = function (item) { this.items.push(item); };
    Stack.create = function () { return new Stack(); };
    module.exports = Stack;
  `);
  assert.equal(stack.kind, 'class');
  assert.deepEqual(stack.members, ['method push', 'static method create']);
});

test('finds methods attached with X.prototype = {…} and Object.assign(X.prototype, …), getters and setters included', () => {
  const [fraction] = exportsOf(`
    var Fraction = function (n, d) { this.n = n; this.d = d || 1; };
    function add(other) { return new Fraction(this.n * other.d + other.n * this.d, this.d * other.d); }
    Fraction.prototype = {
      add: add,
      neg() { return new Fraction(-this.n, this.d); },
      get value() { return this.n / this.d; },
      set value(v) { this.n = v; this.d = 1; },
      precision: 10,
    };
    Object.assign(Fraction.prototype, { abs: function () { return new Fraction(Math.abs(this.n), this.d); } });
    module.exports = Fraction;
  `);
  assert.equal(fraction.kind, 'class');
  assert.deepEqual(fraction.members, ['method add', 'method neg', 'getter value', 'setter value', 'method abs']);
});

test('records util.inherits parents, whose prototype methods a subclass inherits', () => {
  const analysis = analyzeSource(`
    const util = require('util');
    function Base() {}
    Base.prototype.describe = function (prefix) { return prefix + this.name; };
    function Named(name) { Base.call(this); this.name = name; }
    util.inherits(Named, Base);
    module.exports = Named;
  `);
  assert.equal(analysis.declarations.parents.get('Named').name, 'Base');
});

test('mines typeof checks, compared literals with their neighbours, and property names', () => {
  const [value, options] = hintsOf(`
    module.exports = function (value, options) {
      if (typeof value === 'string') return value.trim();
      if (value > 100) return 'big';
      if (options.mode === 'strict' && options.retries) return 1;
      return 0;
    };
  `);
  assert.deepEqual([...value.hint.types].sort(), ['number', 'string']);
  assert.deepEqual(value.hint.values, [100, 99, 101]);
  assert.deepEqual([...options.hint.props.keys()], ['mode', 'retries']);
  assert.deepEqual(options.hint.props.get('mode').values, ['strict']);
});

test('reads type checks through Object.prototype.toString, instanceof and Array.isArray', () => {
  const [when, list, pattern] = hintsOf(`
    var toString = Object.prototype.toString;
    module.exports = function (when, list, pattern) {
      if (toString.call(when) === '[object Date]') return 1;
      if (Array.isArray(list)) return 2;
      return pattern instanceof RegExp;
    };
  `);
  assert.deepEqual([...when.hint.types], ['date']);
  assert.deepEqual([...list.hint.types], ['array']);
  assert.deepEqual([...pattern.hint.types], ['regexp']);
});

test('reads a class compared by constructor and NaN checks', () => {
  const [value, other] = hintsOf(`
    module.exports = function (value, other) {
      if (value.constructor === RegExp) return value.source;
      return value !== value;
    };
  `);
  assert.ok(value.hint.types.has('regexp'));
  assert.ok(value.hint.values.some((known) => Number.isNaN(known)));
  assert.equal(other.hint.types.size, 0);
});

test("two parameters compared with each other take each other's types and values", () => {
  const [a, b, c] = hintsOf(`
    module.exports = function equal(a, b, c) {
      if (a === b) return true;
      if (Array.isArray(a) && a.length === c) return false;
      if (a.constructor !== b.constructor) return false;
      return a !== a && b !== b;
    };
  `);
  for (const side of [a, b]) {
    assert.ok(side.hint.types.has('array'), [...side.hint.types].join());
    assert.ok(side.hint.values.some((known) => Number.isNaN(known)));
  }
  assert.ok(!c.hint.types.has('array'));
});

test('reads compiled defaults (`_a === void 0 ? true : _a`), and gives an option alone a value other than its default', () => {
  const { InputPool } = require('../../src/generate/search/input-pool');
  const [, options] = hintsOf(
    `
    exports.route = function route(path, options) {
      if (options === void 0) { options = {}; }
      var _a = options.strict, strict = _a === void 0 ? false : _a, _b = options.start, start = _b !== undefined ? _b : true;
      return (start ? '^' : '') + path + (strict ? '' : '/?');
    };
  `,
    'route',
  );
  const strict = options.hint.props.get('strict');
  const start = options.hint.props.get('start');
  assert.deepEqual([[...strict.types], strict.defaults], [['boolean'], [false]]);
  assert.deepEqual([[...start.types], start.defaults], [['boolean'], [true]]);
  const pool = new InputPool({ strings: [], regexStrings: [], numbers: [], bigints: [] }, { ofType: () => [] }, null);
  const alone = pool
    .seeds(options.hint)
    .filter((seed) => seed.kind === 'object' && seed.entries.length === 1)
    .map((seed) => [seed.entries[0][0], seed.entries[0][1].value]);
  assert.deepEqual(alone, [
    ['strict', true],
    ['start', false],
  ]);
});

test("reads an option's default from the module's table of defaults (`typeof o.x === 'boolean' ? o.x : defaults.x`)", () => {
  const [, options] = hintsOf(
    `
    var defaults = { comma: false, charset: 'utf-8', depth: 5 };
    exports.parse = function parse(str, opts) {
      var charset = typeof opts.charset === 'undefined' ? defaults.charset : opts.charset;
      if (charset !== 'utf-8' && charset !== 'iso-8859-1') throw new TypeError('charset');
      return {
        comma: typeof opts.comma === 'boolean' ? !!opts.comma : defaults.comma,
        depth: typeof opts.depth === 'number' ? opts.depth : defaults.depth,
        negated: typeof opts.flag === 'boolean' ? !opts.flag : true,
      };
    };
  `,
    'parse',
  );
  const defaultsOf = (key) => options.hint.props.get(key).defaults;
  assert.deepEqual(defaultsOf('charset'), ['utf-8']);
  assert.deepEqual(defaultsOf('comma'), [false]);
  assert.deepEqual(defaultsOf('depth'), [5]);
  assert.deepEqual(defaultsOf('flag'), [], 'a negated option is no default');
});

test('mines default values, destructured properties and JSDoc types', () => {
  const [list, settings] = hintsOf(
    `
    /**
     * @param {number[]} list
     * @param {Object} settings
     */
    export function total(list, { scale = 2, label } = {}) { return list.length * scale + label; }
  `,
    'total',
  );
  assert.ok(list.hint.types.has('array'));
  assert.ok(list.hint.element.types.has('number'));
  assert.ok(settings.hint.types.has('object'));
  assert.deepEqual([...settings.hint.props.keys()], ['scale', 'label']);
  assert.deepEqual(settings.hint.props.get('scale').values, [2]);
});

test('follows a parameter into the module-level helper it is passed to', () => {
  const [input] = hintsOf(`
    function parse(text) { return /^(\\d+)(ms|s)$/.exec(text); }
    module.exports = function duration(input) { return parse(input); };
  `);
  assert.ok(input.hint.types.has('string'));
  assert.equal(input.hint.regexes[0].pattern, '^(\\d+)(ms|s)$');
});

test('character codes compared with constants give the string the characters on both sides of each boundary', () => {
  const [text] = hintsOf(`
    module.exports = function width(text) {
      let n = 0;
      for (let i = 0; i < text.length; i++) {
        const code = text.codePointAt(i);
        if (code <= 0x1f || (0x7f <= code && code <= 0x9f)) continue;
        if (text.charCodeAt(i) === 0x2f) n--;
        n += code > 0xffff ? 2 : 1;
      }
      return n;
    };
  `);
  assert.ok(text.hint.types.has('string'));
  assert.deepEqual(text.hint.values, ['\x1f', ' ', '\x7e', '\x7f', '\x9f', '\xa0', '/', '\uffff', '\u{10000}']);
});

test("follows a parameter into the constructor and methods of the module's classes it is handed to", () => {
  const [p, , options] = hintsOf(`
    class Matcher {
      constructor(pattern, options = {}) { this.nocase = !!options.nocase; if (options.dot) this.dot = true; }
      match(f) { if (typeof f !== 'string') return false; return this.split(f); }
      split(text, sep) { return text.split(sep || '/'); }
    }
    module.exports = (p, pattern, options) => new Matcher(pattern, options).match(p);
  `);
  assert.ok(p.hint.types.has('string'));
  assert.deepEqual([...options.hint.props.keys()], ['nocase', 'dot']);
  // Not through `this.tokenize(value)`: another object may replace the method.
  const analysis = analyzeSource(`
    class Diff {
      diff(value) { return this.tokenize(value); }
      tokenize(value) { return value.split(''); }
    }
    module.exports = Diff;
  `);
  const [value] = paramHints(analysis.declarations.methods.get('diff'), analysis.paramContext);
  assert.ok(value.hint.isEmpty(), 'arrayDiff.tokenize = (value) => value.slice() takes arrays too');
});

test('follows a parameter through a conditional alias and case-normalizing calls', () => {
  const [name] = hintsOf(`
    module.exports = function serialize(name, value) {
      const cookie = typeof name === 'object' ? name : { name, value };
      if (cookie.maxAge !== undefined) return cookie.maxAge * 2;
      const priority = typeof cookie.priority === 'string' ? cookie.priority.toLowerCase() : undefined;
      switch (priority) { case 'low': return 1; case 'high': return 2; default: return 0; }
    };
  `);
  assert.deepEqual([...name.hint.props.keys()], ['maxAge', 'priority']);
  assert.ok(name.hint.props.get('maxAge').types.has('number'));
  assert.deepEqual(name.hint.props.get('priority').values, ['low', 'high']);
});

test('mines module literals: strings, numbers around comparisons, folded constants, regex samples', () => {
  const { literals } = analyzeSource(`
    'use strict';
    const dep = require('./dep');
    var s = 1000; var m = s * 60;
    module.exports = (x) => (x >= m ? 'minutes' : /^(\\d+)(kb|mb)$/i.test(x));
  `);
  assert.ok(literals.strings.includes('minutes'));
  assert.ok(!literals.strings.includes('use strict') && !literals.strings.includes('./dep'));
  for (const n of [1000, 60000, 59999, 60001]) assert.ok(literals.numbers.includes(n), `has ${n}`);
  assert.ok(literals.regexStrings.some((text) => /^\d+kb$/i.test(text)));
  assert.ok(literals.regexStrings.some((text) => /^\d+mb$/i.test(text)));
});

test('a parameter called through apply, call or bind is a function', () => {
  const [fn] = hintsOf(`
    module.exports = function once(fn) { return function () { return fn.apply(this, arguments); }; };
  `);
  assert.deepEqual([...fn.hint.types], ['function']);
  assert.equal(fn.hint.props.size, 0);
});

test('in code that uses the file system, what is handed to fs as a path, or named as one, is a path, and the pool seeds it with the fixture paths', () => {
  const { InputPool } = require('../../src/generate/search/input-pool');
  const { Rng } = require('../../src/generate/search/rng');
  const { PATH_SEEDS } = require('../../src/generate/execution/folder-fixture');
  const [where, options, done] = hintsOf(
    `const fs = require('graceful-fs');
     var fs$readFile = fs.readFile;
     module.exports = function load(where, options, done) { return fs$readFile(where, options, done); };`,
  );
  assert.equal(where.hint.fsPath, true);
  assert.ok(where.hint.types.has('string'));
  assert.equal(options.hint.fsPath, false);
  assert.equal(done.hint.fsPath, false);
  const [from, to] = hintsOf(
    `const { promises } = require('node:fs');
     exports.move = (from, to) => promises.rename(from, to);`,
    'move',
  );
  assert.ok(from.hint.fsPath && to.hint.fsPath);
  const [file] = hintsOf(`const fs = require('fs'); exports.size = (file) => file.length;`, 'size');
  assert.equal(file.hint.fsPath, true, 'a parameter named as a path');
  // Without the file system, neither a name nor an `open` method makes a path.
  const [path, url] = hintsOf(`exports.get = (path, url) => window.open(url) && path.split('.');`, 'get');
  assert.equal(path.hint.fsPath, false);
  assert.equal(url.hint.fsPath, false);

  const pool = new InputPool(
    { strings: [], regexStrings: [], numbers: [], bigints: [] },
    { ofType: () => [] },
    new Rng(1),
  );
  const seeds = pool.seeds(where.hint).map((seed) => seed.value);
  assert.deepEqual(seeds.slice(0, PATH_SEEDS.length), PATH_SEEDS);
  assert.ok(!pool.seeds(path.hint).some((seed) => seed.value === PATH_SEEDS[0]));
});

test('a parameter looked up as a key of another gets a key to try, and the object a property of that name', () => {
  const { InputPool } = require('../../src/generate/search/input-pool');
  const { Rng } = require('../../src/generate/search/rng');
  const [obj, prop] = hintsOf(
    `module.exports = function wrap(obj, prop) {
       if (!obj || (typeof obj !== 'object' && typeof obj !== 'function')) throw new TypeError('obj');
       var descriptor = Object.getOwnPropertyDescriptor(obj, prop);
       if (!descriptor) throw new TypeError('must call property on owner object');
       return descriptor.configurable;
     };`,
  );
  assert.equal(prop.hint.values[0], 'key');
  assert.ok(obj.hint.props.has('key'));
  const pool = new InputPool(
    { strings: [], regexStrings: [], numbers: [], bigints: [] },
    { ofType: () => [] },
    new Rng(1),
  );
  const first = pool.seeds(obj.hint)[0];
  assert.equal(first.kind, 'object');
  assert.deepEqual(
    first.entries.map(([key]) => key),
    ['key'],
  );
  // A key the code compares is the one the object gets; `in` and `hasOwnProperty.call` count too.
  const [table, name] = hintsOf(
    `exports.has = (table, name) => name !== 'x' && Object.prototype.hasOwnProperty.call(table, name) && name === 'id';`,
    'has',
  );
  assert.ok(table.hint.props.has(name.hint.values.find((value) => typeof value === 'string' && value !== '')));
  const [map, word] = hintsOf(`exports.get = (map, word) => (word in map ? map[word] : null);`, 'get');
  assert.ok(map.hint.props.has('key') && word.hint.values.includes('key'));
  // An array read at an index, or an object at a key nothing says is text, gets no such key.
  const [items, index] = hintsOf(`exports.at = (items, index) => items.slice(0)[0] + items[index];`, 'at');
  assert.equal(items.hint.props.size, 0);
  assert.deepEqual(index.hint.values, []);
});

test('a function that reads `arguments` has the parameters it names: shifted from a copy, or read by index', () => {
  const params = hintsOf(
    `const fs = require('fs');
     exports.renderFile = function () {
       var args = Array.prototype.slice.call(arguments);
       var filename = args.shift();
       var data, cb = arguments[3];
       if (typeof arguments[arguments.length - 1] == 'function') args.pop();
       data = args.shift();
       function inner() { var other = arguments[0]; return other; }
       return fs.readFileSync(filename) + data.settings.views + inner(cb);
     };`,
    'renderFile',
  );
  assert.deepEqual(
    params.map((param) => param.name),
    ['filename', 'data', 'arg3', 'cb', 'callback'],
  );
  assert.ok(params[4].hint.types.has('function'));
  assert.ok(params.every((param) => param.hasDefault && param.fromArguments));
  assert.equal(params[0].hint.fsPath, true);
  assert.ok(params[1].hint.props.get('settings').props.has('views'));
  const [none] = [hintsOf(`exports.f = function () { return arguments.length; };`, 'f')];
  assert.equal(none.length, 0);
  assert.equal(none.usesArguments, true);
});

test("a template engine's delimiters and tag types, named in its source, give template texts in its syntax and the data they name", () => {
  const { InputPool } = require('../../src/generate/search/input-pool');
  const { Rng } = require('../../src/generate/search/rng');
  const { toSource } = require('../../src/generate/search/candidate');
  const source = `
    var tags = ['{{', '}}'];
    var tagRe = /#|\\^|\\/|>|\\{|&|!/;
    exports.render = function render(template, view) {
      if (typeof template !== 'string') throw new TypeError('template');
      return template.split(tags[0]).length + Object.keys(view).length;
    };`;
  const analysis = analyzeSource(source);
  const { texts, data } = analysis.literals.templates;
  for (const text of [
    'Hello {{name}}!',
    '{{{html}}}',
    '{{&html}}',
    '{{#items}}<{{name}}>{{/items}}',
    '{{^items}}<{{name}}>{{/items}}',
    '{{name',
  ])
    assert.ok(texts.includes(text), `${text} in ${texts.join(' ')}`);
  assert.deepEqual(data.items, [{ name: 'a' }, { name: 'b' }]);
  // ejs names its tags in one alternation, the opener's kinds as its extensions.
  const ejs = analyzeSource(
    `var REGEX = '(<%%|%%>|<%=|<%-|<%_|<%#|<%|%>|-%>|_%>)'; exports.x = (s) => new RegExp(REGEX).exec(s);`,
  );
  for (const text of ['Hello <%= name %>!', '<%-html%>', 'a\n<% name -%>\nb'])
    assert.ok(ejs.literals.templates.texts.includes(text), `${text} in ${ejs.literals.templates.texts.join(' ')}`);
  // The names it compiles templates with (a list of identifiers for the Function constructor) are
  // called from a template, with a file of the working folder: in a plain tag, and in one that
  // writes out (not `<%%`, a literal opener).
  const compiling = analyzeSource(
    `var REGEX = '(<%%|%%>|<%=|<%-|<%_|<%#|<%|%>|-%>|_%>)';
     exports.compile = (s) => new Function('locals' + ', escapeFn, include, rethrow', new RegExp(REGEX).exec(s));`,
  );
  const calls = compiling.literals.templates.texts.filter((text) => text.includes('include'));
  assert.deepEqual(calls, ["<% include('file.txt') %>", "<%= include('file.txt') %>"]);
  assert.equal(ejs.literals.templates.texts.filter((text) => text.includes("('file.txt')")).length, 0);
  // Braces, brackets and comment markers alone are no template syntax.
  assert.equal(
    analyzeSource(`exports.f = (s) => s === '{' || s === '}' || s === '/*' || s === '*/' || s === '[]';`).literals
      .templates,
    null,
  );

  const pool = new InputPool(analysis.literals, { ofType: () => [] }, new Rng(1));
  const [template, view] = hintsOf(source, 'render');
  assert.equal(pool.seeds(template.hint)[0].value, 'Hello {{name}}!');
  assert.ok(pool.seeds(view.hint).some((seed) => toSource(seed).includes("name: 'World'")));
});

test('what the methods read from a field the constructor stored a parameter in is read from the parameter; HTTP headers are text', () => {
  const source = `
    function Negotiator(request) {
      if (!(this instanceof Negotiator)) return new Negotiator(request);
      this.request = request;
    }
    Negotiator.prototype.charsets = function (available) {
      return pick(this.request.headers['accept-charset'], available);
    };
    Negotiator.prototype.types = function () {
      return this.request.headers.hasOwnProperty('accept') && this.request.method;
    };
    function pick(header, available) { return available || header; }
    module.exports = Negotiator;`;
  const [request] = hintsOf(source);
  assert.deepEqual([...request.hint.props.keys()].sort(), ['headers', 'method']);
  const headers = request.hint.props.get('headers');
  assert.deepEqual([...headers.props.keys()], ['accept-charset', 'accept']);
  assert.ok(headers.props.get('accept-charset').types.has('string'));
  assert.ok(!headers.props.has('hasOwnProperty'), 'a method called on a field is no property');
});

test("what a class's methods compare, destructure or compute from a stored field holds for the parameter stored in it", () => {
  const source = `
    class Matcher {
      constructor(pattern, options = {}) {
        this.options = options;
        this.platform = options.platform || 'linux';
        this.isWindows = this.platform === 'win32';
      }
      match(file) {
        const { optimizationLevel = 1 } = this.options;
        if (optimizationLevel >= 2) return file.split('/');
        return this.isWindows ? file.replace(/\\\\/g, '/') : file;
      }
      width() {
        return Math.floor(this.options.columns * 0.5);
      }
    }
    module.exports = Matcher;`;
  const analysis = analyzeSource(source);
  const constructor = analysis.exports[0].node.body.body.find((element) => element.kind === 'constructor').value;
  const [, options] = paramHints(constructor, analysis.paramContext);
  assert.deepEqual(options.hint.props.get('platform').values, ['win32']);
  const level = options.hint.props.get('optimizationLevel');
  assert.ok(level.types.has('number'));
  assert.ok(level.values.includes(2), JSON.stringify(level.values));
  assert.ok(options.hint.props.get('columns').types.has('number'));
});

test('options handed on re-packed in an object literal get what the callee expects of them', () => {
  const [opts] = hintsOf(`
    class UI {
      constructor(opts) { this.width = opts.width; }
      half() { return Math.floor(this.width * 0.5); }
    }
    module.exports = function ui(opts) {
      return new UI({ width: opts.width || 80, wrap: opts.wrap });
    };`);
  assert.ok(opts.hint.props.get('width').types.has('number'));
});

test("the process's switches a module reads are flags of its targets: unset settings, the output streams' isTTY, environment variables, events", () => {
  const analysis = analyzeSource(`
    const LEVEL = process.env.LOG_LEVEL;
    function log(message) {
      if (process.noDeprecation || process.env.NO_DEPRECATION) return;
      const format = process.stderr.isTTY ? color : plain;
      process.exitCode = process.exitCode || 0;
      if (process.listenerCount('deprecation')) process.emit('deprecation', new Error(message));
      else process.stderr.write(format(message) + process.platform);
    }
    function color(text) { return '\\x1b[33m' + text; }
    function plain(text) { return text; }
    module.exports = log;`);
  assert.deepEqual(analysis.processSwitches, [
    { callee: 'process.noDeprecation', value: false },
    { callee: 'process.stderr.isTTY', value: false },
    // Read in a function, so a test may set it first; LEVEL's is read as the module loads.
    { callee: 'process.env.NO_DEPRECATION', value: undefined, values: ['*', '1'] },
    { callee: 'process', event: 'deprecation' },
  ]);
  const { buildTargets } = require('../../src/generate/analysis/targets');
  const shape = { kind: 'function', fnName: 'log', length: 1, own: true, statics: {} };
  const [target] = buildTargets({ path: 'log.js' }, analysis, [{ name: 'log', from: 'module', shape }]);
  assert.deepEqual(
    target.flags.map((flag) => flag.callee),
    ['process.noDeprecation', 'process.stderr.isTTY', 'process.env.NO_DEPRECATION', 'process'],
  );
});

test('a parameter the code checks with instanceof Map or Set, or ArrayBuffer.isView, gets such objects to try', () => {
  const { InputPool } = require('../../src/generate/search/input-pool');
  const { Rng } = require('../../src/generate/search/rng');
  const { toSource } = require('../../src/generate/search/candidate');
  const source = `
    module.exports = function equal(a, b) {
      if (a instanceof Map && b instanceof Map) return a.size === b.size;
      if (a instanceof Set && b instanceof Set) return a.size === b.size;
      if (ArrayBuffer.isView(a)) return a.length === b.length;
      return a === b;
    };`;
  const analysis = analyzeSource(source);
  const [a] = hintsOf(source);
  assert.deepEqual([...a.hint.types].sort(), ['map', 'set', 'typedarray']);
  const pool = new InputPool(analysis.literals, { ofType: () => [] }, new Rng(1));
  const seeds = pool.seeds(a.hint).map(toSource);
  for (const made of ['new Map([', 'new Set([', 'new Uint8Array(['])
    assert.ok(
      seeds.some((seed) => seed.startsWith(made)),
      `${made} in ${seeds.join(' ')}`,
    );
});

test("options merged over defaults (Object.assign, spread) have the defaults' keys, also through a method of an instance the module makes once", () => {
  const source = `
    class Parser {
      parse(args, options) {
        const opts = Object.assign({ alias: undefined, boolean: undefined }, options);
        const configuration = { 'camel-case-expansion': true, ...opts.configuration };
        return [args.split(' '), opts.alias, configuration['camel-case-expansion']];
      }
    }
    const parser = new Parser();
    module.exports = function parse(args, opts) { return parser.parse(args, opts); };`;
  const [args, opts] = hintsOf(source);
  assert.ok(args.hint.types.has('string'));
  assert.ok(opts.hint.types.has('object'));
  assert.deepEqual([...opts.hint.props.keys()].sort(), ['alias', 'boolean', 'configuration']);
  const camelCase = opts.hint.props.get('configuration').props.get('camel-case-expansion');
  assert.ok(camelCase.types.has('boolean'));
  assert.deepEqual(camelCase.values, [true]);
});

test('a module keeps state when a function writes a variable of its top level', () => {
  const keeps = (source) => analyzeSource(source).keepsState;
  assert.equal(keeps('let pool, offset;\nexports.fill = (n) => { pool = Buffer.alloc(n); offset = 0; };'), true);
  assert.equal(keeps('let count = 0;\nexports.next = () => ++count;'), true);
  assert.equal(keeps('const cache = {};\nexports.get = (k) => (cache[k] = cache[k] || k.length);'), true);
  assert.equal(keeps('var names = [];\nmodule.exports = function add(x) { names.push(x); names.length++; };'), true);
  // Writes at the top level, or to a function's own variables, leave nothing between calls.
  assert.equal(keeps('let table = {};\ntable.a = 1;\nexports.get = (k) => table[k];'), false);
  // A function called where it is written runs once, as the module loads (TypeScript's enums).
  assert.equal(keeps('var Unit;\n(function (Unit) { Unit.Cm = "cm"; })(Unit || (Unit = {}));'), false);
  assert.equal(keeps('var ready;\n(function () { ready = true; }).call(this);'), false);
  assert.equal(keeps('exports.limit = (max) => { let active = 0; return () => active++; };'), false);
  assert.equal(keeps('exports.sum = (xs) => { let total = 0; for (const x of xs) total += x; return total; };'), false);
});

test('what a function does with the members it copies from a parameter onto its own object holds for the parameter', () => {
  const source = `
    function setup(env) {
      create.enable = enable;
      Object.keys(env).forEach((key) => {
        create[key] = env[key];
      });
      function create(name) {
        if (typeof create.init === 'function') create.init(name);
        const logFn = name.log || create.log;
        logFn.apply(name, [create.colors[name.length % create.colors.length]]);
        return create.useColors();
      }
      function enable(names) {
        create.save(names);
      }
      create.enable(create.load());
      return create;
    }
    module.exports = setup;`;
  const [env] = hintsOf(source);
  const props = env.hint.props;
  for (const name of ['init', 'log', 'useColors', 'save', 'load'])
    assert.ok(props.get(name).types.has('function'), name);
  assert.ok(props.get('colors').types.has('array'));
  // Its own members are not the parameter's: an `env.enable` would replace the function's.
  assert.ok(!props.has('enable'));
  // Object.assign(target, env) copies them as well.
  const [options] = hintsOf(`
    module.exports = function make(options) {
      const api = {};
      Object.assign(api, options);
      return api.transform('a');
    };`);
  assert.ok(options.hint.props.get('transform').types.has('function'));
});

test('an object whose property descriptors the code reads gets that property as an accessor and frozen', () => {
  const { InputPool } = require('../../src/generate/search/input-pool');
  const { Rng } = require('../../src/generate/search/rng');
  const { toSource } = require('../../src/generate/search/candidate');
  const source = `
    module.exports = function wrap(obj, prop) {
      const descriptor = Object.getOwnPropertyDescriptor(obj, prop);
      if (!descriptor) throw new TypeError('no such property');
      if (!descriptor.configurable) throw new TypeError('not configurable');
      if ('value' in descriptor) return 'data';
      return typeof descriptor.set === 'function' ? 'accessor' : 'getter';
    };`;
  const analysis = analyzeSource(source);
  const [obj] = hintsOf(source);
  assert.ok(obj.hint.described);
  const pool = new InputPool(analysis.literals, { ofType: () => [] }, new Rng(1));
  const seeds = pool.seeds(obj.hint).map(toSource);
  for (const made of [
    "Object.defineProperty({}, 'key', { get: () => 'abc', set: () => {}, enumerable: true, configurable: true })",
    "Object.defineProperty({}, 'key', { get: () => 'abc', enumerable: true, configurable: true })",
    "Object.freeze({ key: 'abc' })",
  ])
    assert.ok(seeds.includes(made), `${made} in ${seeds.join(' ')}`);
  const [plain] = hintsOf(`module.exports = function get(obj, prop) { return obj[prop]; };`);
  assert.equal(plain.hint.described, false);
});
