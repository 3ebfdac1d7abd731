'use strict';

// V8's code cache for the runner's own modules (Jest, its dependencies,
// Babel), shared by the runners the server starts with runs waiting.
//
// Such a runner lives for one job and compiles, to run it, most of Jest:
// about 170 modules, 2 MB of JavaScript, and the functions in them as they
// are first called. A primed runner has compiled nearly all of that by the
// end of its warm-up. With --save-code-cache FILE it writes V8's code cache
// of every module it loaded from the runner's folder, taken then, so that
// it holds the functions compiled while the warm-up ran and not only each
// module's top level. The server keeps that file and copies it into the
// folder of each runner it starts with runs waiting, which compiles the
// same modules from it (--code-cache FILE). Measured on the `ms` suite, an
// unprimed runner used 0.60 s of CPU instead of 0.65 s, and its job took
// 376 ms instead of 446 ms.
//
// Trust: V8 deserialises a code cache as it is, so only caches written by
// trusted code are ever read. A runner writes its cache before it says it is
// ready, when only run.js and its warm-up have run, and the server takes it
// then, before any job (runner/README.md, "## run"). A runner reads its copy
// once, as it starts, before its job's files arrive. Only modules below the
// runner's folder, read-only in the sandbox, are compiled here; the
// project's own files (a jest.config.js) are left to Node.
//
// V8 checks that a cache was written by the same V8, under the same flags,
// for a source of the same length, and compiles the source itself when it
// was not. Each entry also carries the SHA-1 of its module's source: a file
// of the same length but other content is compiled by Node as usual.

const Module = require('node:module');
const fs = require('node:fs');
const path = require('node:path');
const v8 = require('node:v8');
const vm = require('node:vm');
const { createHash } = require('node:crypto');
const { withUnprimedTiering } = require('./tiering');

const FORMAT = 'vouch-module-code-cache-1';
const RUNNER_DIR = path.resolve(__dirname, '..', '..') + path.sep;

// The compiled scripts of this process, kept to be written out
// (--save-code-cache); null when not saving.
let compiled = null;
// Of the modules compiled here: how many from the cache, how many with an
// entry that V8 rejected, and how many with an entry for other content.
const use = { fromCache: 0, rejected: 0, stale: 0 };

// `options`: run.js's (src/run/run-options.js). Compiles the runner's modules
// from options.codeCache, and keeps them to write with saveModuleCodeCache()
// when options.saveCodeCache is set; leaves Node's loader alone otherwise.
function useModuleCodeCache(options) {
  const cached = options.codeCache ? readCache(options.codeCache) : new Map();
  if (options.saveCodeCache) compiled = [];
  if (cached.size === 0 && !compiled) return;

  const compileAsNode = Module.prototype._compile;
  Module.prototype._compile = function compileWithCodeCache(content, filename, format) {
    const entry = cached.get(filename);
    if (!(entry || compiled) || !ours(filename, content, format)) {
      return compileAsNode.call(this, content, filename, format);
    }
    const sha1 = sha1Of(content);
    let script;
    try {
      script = new vm.Script(Module.wrap(content), {
        filename,
        cachedData: entry?.sha1 === sha1 ? entry.data : undefined,
        importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
      });
    } catch {
      // Not a CommonJS module after all: Node says why, or loads it as one.
      return compileAsNode.call(this, content, filename, format);
    }
    if (entry) use[entry.sha1 !== sha1 ? 'stale' : script.cachedDataRejected ? 'rejected' : 'fromCache'] += 1;
    compiled?.push({ filename, sha1, script });
    const wrapper = script.runInThisContext({ displayErrors: true });
    return Reflect.apply(wrapper, this.exports,
      [this.exports, requireOf(this), this, filename, path.dirname(filename)]);
  };
}

// Writes the code cache of the modules compiled so far to `file`, as the
// runners started with runs waiting (src/run/tiering.js) will read it.
function saveModuleCodeCache(file) {
  if (!compiled) throw new Error('saveModuleCodeCache() without --save-code-cache');
  const entries = new Map();
  withUnprimedTiering(() => {
    for (const { filename, sha1, script } of compiled) entries.set(filename, { sha1, data: script.createCachedData() });
  });
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, v8.serialize({ format: FORMAT, node: process.version, entries }));
}

// What the cache did in this process so far (see `use`).
function moduleCodeCacheUse() {
  return { ...use };
}

// The entries of a cache file: filename → { sha1, data }. A runner works
// without them, only slower, so a missing or unreadable file gives none.
function readCache(file) {
  try {
    const cache = v8.deserialize(fs.readFileSync(file));
    if (cache?.format === FORMAT && cache.node === process.version && cache.entries instanceof Map) {
      return cache.entries;
    }
  } catch {
    // none
  }
  return new Map();
}

// A CommonJS module of the runner's own (Node's loader handles ES modules
// and a file starting with #!).
function ours(filename, content, format) {
  return filename.startsWith(RUNNER_DIR) && (format === undefined || format === 'commonjs') &&
    !content.startsWith('#!');
}

function sha1Of(content) {
  return createHash('sha1').update(content).digest('hex');
}

// The `require` Node gives a module (lib/internal/modules/helpers.js).
function requireOf(module) {
  const require = (id) => module.require(id);
  require.resolve = (request, options) => Module._resolveFilename(request, module, false, options);
  require.resolve.paths = (request) => Module._resolveLookupPaths(request, module);
  require.main = process.mainModule;
  require.extensions = Module._extensions;
  require.cache = Module._cache;
  return require;
}

module.exports = { useModuleCodeCache, saveModuleCodeCache, moduleCodeCacheUse };
