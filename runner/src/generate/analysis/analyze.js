'use strict';
// Static analysis of one JavaScript file: its syntax tree, its exports and the literals worth
// trying as inputs. Parameter hints are computed lazily from `paramContext` when targets are built.

const { parseSource } = require('./parse');
const { findExports } = require('./exports');
const { mineLiterals } = require('./literals');
const { templateSyntax } = require('./template-syntax');
const { keepsState } = require('./module-state');
const { processSwitches } = require('./process-switches');
const { requestsOf, isFileSystemRequest } = require('../package/imports');
const { pathBindings } = require('./path-module');

function analyzeSource(source) {
  const parsed = parseSource(source);
  const { exports, declarations } = findExports(parsed);
  const literals = mineLiterals(parsed.ast);
  // A template engine's own syntax, as template texts and the data they name (or null).
  literals.templates = templateSyntax(literals.strings, literals.regexes);
  return {
    esm: parsed.esm,
    exports,
    declarations,
    literals,
    // Code that schedules timers is run, and tested, with Jest's fake timers.
    schedulesTimers: /\bset(Timeout|Interval|Immediate)\b/.test(source),
    // State kept between calls (module-state.js): its tests load the module afresh each.
    keepsState: keepsState(parsed.ast),
    // Settings of the process it reads as switches (`process.noDeprecation`, `process.stderr.isTTY`).
    processSwitches: processSwitches(parsed.ast),
    paramContext: {
      declarations,
      constants: literals.constants,
      comments: parsed.comments,
      source,
      // The whole file: what methods read from fields a constructor stored its parameters in.
      ast: parsed.ast,
      cache: new Map(),
      // Parameters named as paths (`file`, `dir`) are paths only in code that uses the file system.
      usesFileSystem: requestsOf(source).some(isFileSystemRequest),
      // Its names for Node's `path` and its functions: what it hands them is a path.
      pathBindings: pathBindings(parsed.ast),
    },
  };
}

module.exports = { analyzeSource };
