'use strict';

// babel-jest without Babel until a file really has to be transformed.
//
// Jest loads each transformer before the first test file, and babel-jest
// loads @babel/core as it is loaded, then asks Babel for every file's options
// to compute the file's cache key. With the transforms lent by the server
// (runner_cache/transform_cache.hpp) nothing is left to transform, yet that costs a
// run about 0.15 s of CPU, a tenth of it. This puts a stand-in for
// babel-jest into Node's module cache, where Jest's require finds it: its
// cache key is computed without Babel, from all that Babel's answer depends on
// in a run's folder, and the real babel-jest is loaded on the first file
// whose transform is not in the cache.
//
// What Babel reads besides the options: its configuration files. A job with
// a JavaScript one (babel.config.js, .babelrc.js, ...) could compute its
// options from anything, so such a job uses babel-jest as it is. JSON ones
// (.babelrc, babel.config.json, package.json's "babel") and browserslist's
// files are part of the key, by content. Files the tested code writes while
// the run goes on are not seen: that is the run's own doing, and its own
// project's cache is all it can reach.

const fs = require('node:fs');
const path = require('node:path');
const { createHash } = require('node:crypto');

const BABEL_JEST = require.resolve('babel-jest');
const KEY_VERSION = 'vouch-lazy-babel-jest-1';
const JS_CONFIG = /^(babel\.config|\.babelrc)\.(js|cjs|mjs|cts|ts)$/;
const STATIC_CONFIG = /^(\.babelrc|\.babelrc\.json|babel\.config\.json|package\.json|\.browserslistrc|browserslist)$/;
const NOT_WALKED = new Set(['node_modules', '.jest-cache', '.vouch-coverage', '.git']);

function useLazyBabelJest() {
  if (require.cache[BABEL_JEST]) return; // already loaded as it is
  const real = { module: null };
  const standIn = new module.constructor(BABEL_JEST, module);
  standIn.filename = BABEL_JEST;
  standIn.loaded = true;
  const createTransformer = (options) => lazyTransformer(options ?? {}, () => loadReal(real, standIn));
  standIn.exports = { __esModule: true, createTransformer, default: { createTransformer } };
  require.cache[BABEL_JEST] = standIn;
}

// The real babel-jest, loaded once, the stand-in back in the cache after it.
function loadReal(real, standIn) {
  if (!real.module) {
    delete require.cache[BABEL_JEST];
    try {
      real.module = require(BABEL_JEST);
    } finally {
      require.cache[BABEL_JEST] = standIn;
    }
  }
  return real.module;
}

function lazyTransformer(options, loadBabelJest) {
  let transformer = null;
  const babelJest = () => {
    transformer ??= loadBabelJest().createTransformer(options);
    return transformer;
  };
  const optionsText = JSON.stringify(options);
  return {
    canInstrument: true,
    getCacheKey(sourceText, sourcePath, transformOptions) {
      const configs = babelConfigsOf(transformOptions.config);
      if (configs.dynamic) return babelJest().getCacheKey(sourceText, sourcePath, transformOptions);
      return cacheKey(optionsText, configs.fingerprint, sourceText, sourcePath, transformOptions);
    },
    process: (...args) => babelJest().process(...args),
    processAsync: (...args) => babelJest().processAsync(...args),
  };
}

function cacheKey(optionsText, fingerprint, sourceText, sourcePath, transformOptions) {
  const { config, configString, instrument } = transformOptions;
  const caller = [
    'supportsDynamicImport',
    'supportsExportNamespaceFrom',
    'supportsStaticESM',
    'supportsTopLevelAwait',
  ].map((name) => String(transformOptions[name]));
  const env = ['NODE_ENV', 'BABEL_ENV', 'BROWSERSLIST', 'BROWSERSLIST_ENV', 'BROWSERSLIST_CONFIG'].map(
    (name) => process.env[name] ?? '',
  );
  return [
    KEY_VERSION,
    versions(),
    optionsText,
    fingerprint,
    sourceText,
    path.relative(config.rootDir, sourcePath),
    configString,
    instrument ? 'instrument' : '',
    ...caller,
    ...env,
    process.version,
  ]
    .reduce((hash, part) => hash.update(part).update('\0'), createHash('sha1'))
    .digest('hex')
    .slice(0, 32);
}

// babel-jest's own file and the installed Babel's version: what would
// transform a file that is not in the cache.
let versionsText = null;
function versions() {
  versionsText ??= [
    createHash('sha1').update(fs.readFileSync(BABEL_JEST)).digest('hex'),
    JSON.parse(fs.readFileSync(require.resolve('@babel/core/package.json'), 'utf8')).version,
  ].join(' ');
  return versionsText;
}

// The Babel and browserslist configuration files in the run's folder (Jest's
// cwd, and its rootDir when that lies elsewhere), read once per folder:
// {dynamic} when one is JavaScript, else their fingerprint.
const configsByFolder = new Map();
function babelConfigsOf({ cwd, rootDir }) {
  const key = `${cwd}\0${rootDir}`;
  if (!configsByFolder.has(key)) {
    const found = [];
    let dynamic = false;
    for (const root of new Set([cwd, rootDir])) {
      walk(root, '', (relative, name) => {
        if (JS_CONFIG.test(name)) dynamic = true;
        else if (STATIC_CONFIG.test(name)) found.push(path.relative(cwd, path.join(root, relative)));
      });
    }
    const hash = createHash('sha1');
    for (const file of [...new Set(found)].sort()) {
      hash
        .update(file)
        .update('\0')
        .update(fs.readFileSync(path.resolve(cwd, file)))
        .update('\0');
    }
    configsByFolder.set(key, { dynamic, fingerprint: hash.digest('hex') });
  }
  return configsByFolder.get(key);
}

function walk(root, relative, visit) {
  for (const entry of fs.readdirSync(path.join(root, relative), { withFileTypes: true })) {
    const entryPath = relative ? `${relative}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      if (!NOT_WALKED.has(entry.name)) walk(root, entryPath, visit);
    } else {
      visit(entryPath, entry.name);
    }
  }
}

module.exports = { useLazyBabelJest, lazyTransformer };
