'use strict';

// What loading the runner's own modules (Jest, its dependencies, Babel)
// costs, paid once and shared by the runners the server starts with runs
// waiting: where each of their requires resolves, and V8's code for them.
//
// Such a runner lives for one job and loads, to run it, most of Jest: about
// 400 modules, 2 MB of JavaScript, found through Node's search of
// node_modules folders (a stat and a package.json read at each step), and
// the functions in them compiled as they are first called. A primed runner
// has done nearly all of that by the end of its warm-up. With
// --save-code-cache FILE it writes, for the modules it loaded from the
// runner's folder, where each of their requires resolved and V8's code
// cache of each, taken then, so that it holds the functions compiled while
// the warm-up ran and not only each module's top level. The server keeps
// that file and copies it into the folder of each runner it starts with
// runs waiting, which loads the same modules from it (--code-cache FILE).
// Measured on the `ms` suite, loading Jest's main modules took 120 ms of CPU
// instead of 155 ms, and an unprimed runner used 0.67 s instead of 0.75 s.
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
// of the same length but other content is compiled by Node as usual. The
// resolutions hold for one install of the runner: the file names its
// package-lock.json (size and time), and a file for another install is not
// used. Only a relative or bare request from a runner's module that resolved
// inside the runner's folder is kept: Node searches the requiring module's
// node_modules folders, inside the runner's folder, before any other.

const Module = require('node:module');
const fs = require('node:fs');
const path = require('node:path');
const v8 = require('node:v8');
const vm = require('node:vm');
const { createHash } = require('node:crypto');
const { withUnprimedTiering } = require('./tiering');

const FORMAT = 'vouch-module-code-cache-2';
const RUNNER_DIR = path.resolve(__dirname, '..', '..') + path.sep;
const LOCK_FILE = path.join(RUNNER_DIR, 'package-lock.json');

// What this process compiled and resolved, kept to be written out
// (--save-code-cache); null when not saving.
let compiled = null;
let resolutions = null;
// Of the modules compiled here: how many from the cache, how many with an
// entry that V8 rejected, and how many with an entry for other content; how
// many requires were resolved from it.
const use = { fromCache: 0, rejected: 0, stale: 0, resolved: 0 };

// `options`: run.js's (src/run/run-options.js). Compiles the runner's modules
// from options.codeCache, and keeps them to write with saveModuleCodeCache()
// when options.saveCodeCache is set; leaves Node's loader alone otherwise.
function useModuleCodeCache(options) {
  const cache = options.codeCache ? readCache(options.codeCache) : null;
  if (options.saveCodeCache) {
    compiled = [];
    resolutions = new Map();
  }
  if (!cache && !compiled) return;
  const cached = cache?.modules ?? new Map();
  const resolved = cache?.resolutions ?? new Map();

  const resolveAsNode = Module._resolveFilename;
  Module._resolveFilename = function resolveWithCache(request, parent, isMain, options) {
    if (isMain || options || !parent?.filename?.startsWith(RUNNER_DIR) || path.isAbsolute(request)) {
      return resolveAsNode.call(this, request, parent, isMain, options);
    }
    const key = `${parent.path}\0${request}`;
    const known = resolved.get(key);
    if (known) {
      use.resolved += 1;
      return known;
    }
    const filename = resolveAsNode.call(this, request, parent, isMain, options);
    if (filename.startsWith(RUNNER_DIR)) resolutions?.set(key, filename);
    return filename;
  };

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
    return Reflect.apply(wrapper, this.exports, [
      this.exports,
      requireOf(this),
      this,
      filename,
      path.dirname(filename),
    ]);
  };
}

// Writes what the modules loaded so far took to `file`, as the runners
// started with runs waiting (src/run/tiering.js) will read it.
function saveModuleCodeCache(file) {
  if (!compiled) throw new Error('saveModuleCodeCache() without --save-code-cache');
  const modules = new Map();
  withUnprimedTiering(() => {
    for (const { filename, sha1, script } of compiled) modules.set(filename, { sha1, data: script.createCachedData() });
  });
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(
    file,
    v8.serialize({ format: FORMAT, node: process.version, install: install(), modules, resolutions }),
  );
}

// What the cache did in this process so far (see `use`).
function moduleCodeCacheUse() {
  return { ...use };
}

// A cache file's { modules: filename → { sha1, data }, resolutions:
// "folder\0request" → filename }, or null. A runner works without it, only
// slower, so a missing or unreadable file, or one for another Node.js or
// another install of the runner, gives none.
function readCache(file) {
  try {
    const cache = v8.deserialize(fs.readFileSync(file));
    if (
      cache?.format === FORMAT &&
      cache.node === process.version &&
      cache.install === install() &&
      cache.modules instanceof Map &&
      cache.resolutions instanceof Map
    ) {
      return cache;
    }
  } catch {
    // none
  }
  return null;
}

// This install of the runner's modules: its package-lock.json's size and time.
function install() {
  const lock = fs.statSync(LOCK_FILE);
  return `${lock.size}:${lock.mtimeMs}`;
}

// A CommonJS module of the runner's own (Node's loader handles ES modules
// and a file starting with #!).
function ours(filename, content, format) {
  return (
    filename.startsWith(RUNNER_DIR) && (format === undefined || format === 'commonjs') && !content.startsWith('#!')
  );
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
