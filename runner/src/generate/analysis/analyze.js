'use strict';
// Static analysis of one JavaScript file: its syntax tree, its exports and the literals worth
// trying as inputs. Parameter hints are computed lazily from `paramContext` when targets are built.

const { parseSource } = require('./parse');
const { findExports } = require('./exports');
const { mineLiterals } = require('./literals');
const { templateSyntax } = require('./template-syntax');
const { keepsState } = require('./module-state');
const { requestsOf, isFileSystemRequest } = require('../package/imports');

// Environment variables the code reads by name (`process.env.NO_DEPRECATION`,
// `process.env['DEBUG']`), at most MAX_ENVIRONMENT_NAMES: switches a test may set.
const MAX_ENVIRONMENT_NAMES = 4;
const ENVIRONMENT_READ = /\bprocess\.env(?:\.([A-Za-z_]\w*)|\[\s*(['"])([A-Za-z_]\w*)\2\s*\])/g;

function environmentNames(source) {
  const names = new Set();
  for (const match of source.matchAll(ENVIRONMENT_READ)) names.add(match[1] || match[3]);
  return [...names].slice(0, MAX_ENVIRONMENT_NAMES);
}

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
    environmentNames: environmentNames(source),
    // State kept between calls (module-state.js): its tests load the module afresh each.
    keepsState: keepsState(parsed.ast),
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
    },
  };
}

module.exports = { analyzeSource };
