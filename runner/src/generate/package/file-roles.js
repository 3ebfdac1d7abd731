'use strict';
// Why a file of a package is no target of its own, judged by its path and content: the
// package's own tests, benchmarks, examples and fixtures, type declarations, minified files and
// bundles. Stable reason codes, with a sentence for people.

const REASONS = {
  own_test: "the package's own test",
  benchmark: 'a benchmark',
  example: 'an example or demo',
  fixture: 'a test fixture',
  type_declaration: 'type declarations hold no code to run',
  minified: 'a minified copy',
  bundle: 'a bundle repeating sources present in the package',
  es_module_twin: 'the ES module twin of a CommonJS file that is tested',
  typescript_source: 'the TypeScript source of a compiled file that is tested',
  platform_variant: 'a variant for another platform (a browser, React Native, another runtime): Node never loads it',
  development_file:
    "a development file: the entry points do not reach it and it needs packages the package's users do not install",
  over_cap: 'beyond the cap on files tested per package',
  program_module:
    'run by a program (bin) that is tested by running it; it exports nothing, so loading it would run the program',
};

const TEST_FOLDERS = new Set(['test', 'tests', '__tests__', 'spec', 'specs', '__mocks__', 'e2e']);
const BENCH_FOLDERS = new Set(['bench', 'benchmark', 'benchmarks', 'perf']);
const EXAMPLE_FOLDERS = new Set(['example', 'examples', 'demo', 'demos', 'sample', 'samples']);
const FIXTURE_FOLDERS = new Set(['fixture', 'fixtures', '__fixtures__', 'testdata', 'test-data']);

function folderReason(folders) {
  if (folders.some((folder) => TEST_FOLDERS.has(folder))) return 'own_test';
  if (folders.some((folder) => FIXTURE_FOLDERS.has(folder))) return 'fixture';
  if (folders.some((folder) => BENCH_FOLDERS.has(folder))) return 'benchmark';
  if (folders.some((folder) => EXAMPLE_FOLDERS.has(folder))) return 'example';
  return null;
}

// A bundle's tell-tale code: UMD's module-system probe, webpack's or browserify's loader.
const BUNDLE_SIGNS = [
  /typeof\s+exports\s*===?\s*['"]object['"]\s*&&\s*typeof\s+module\s*!==?\s*['"]undefined['"]/,
  /typeof\s+define\s*===?\s*['"]function['"]\s*&&\s*define\.amd/,
  /__webpack_require__/,
  /\(function\(\)\{function r\(e,n,t\)\{function o\(i,f\)/,
];

function looksBundled(content) {
  return BUNDLE_SIGNS.some((sign) => sign.test(content.slice(0, 4000)) || sign.test(content.slice(-4000)));
}

// Minified: a name that says so, or long lines of code (most of the file on lines of 500+
// characters).
function looksMinified(path, content) {
  if (/[.-]min\.[cm]?js$/i.test(path)) return true;
  if (content.length < 2000) return false;
  const lines = content.split('\n');
  const long = lines.filter((line) => line.length > 500).reduce((sum, line) => sum + line.length, 0);
  return long > content.length * 0.6;
}

// The reason code for a path (relative to its package's folder) by its name alone, or null.
function pathReason(relativePath) {
  const parts = relativePath.split('/');
  const name = parts[parts.length - 1].toLowerCase();
  if (/\.d\.[cm]?tsx?$/.test(name)) return 'type_declaration';
  if (
    /\.test-d\.[cm]?tsx?$/.test(name) ||
    /\.(test|spec)\.[cm]?[jt]sx?$/.test(name) ||
    /^(test|spec)\.[cm]?[jt]sx?$/.test(name)
  )
    return 'own_test';
  if (/\.bench\.[cm]?[jt]sx?$/.test(name)) return 'benchmark';
  return folderReason(parts.slice(0, -1).map((folder) => folder.toLowerCase()));
}

module.exports = { REASONS, pathReason, looksBundled, looksMinified };
